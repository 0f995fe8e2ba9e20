/**
 * The queue colour palette (spec part 2 §9: 50 preset colours): ten hues in five
 * tones, light to dark. Any other 3–9 character colour can still be typed.
 */
export const QUEUE_COLORS = [
  '#f7a1a1', '#f7c5a1', '#f7e2a1', '#ccf7a1', '#a1f7cc', '#a1f7f7', '#a1d3f7', '#a1aff7', '#cca1f7', '#f7a1da',
  '#e46767', '#e49b67', '#e4c567', '#a6e467', '#67e4a6', '#67e4e4', '#67b0e4', '#677ce4', '#a667e4', '#e467bb',
  '#cc3333', '#cc7333', '#cca633', '#80cc33', '#33cc80', '#33cccc', '#338ccc', '#334dcc', '#7f33cc', '#cc3399',
  '#a02222', '#a05622', '#a08022', '#61a022', '#22a061', '#22a0a0', '#226ba0', '#2237a0', '#6122a0', '#a02276',
  '#6f2020', '#6f4120', '#6f5b20', '#476f20', '#206f47', '#206f6f', '#204e6f', '#202d6f', '#47206f', '#6f2054',
] as const;

/** A preset the company's other queues do not use yet (colours are unique per company), or the first one. */
export function freeQueueColor(used: readonly string[]): string {
  const taken = new Set(used.map((color) => color.toLowerCase()));
  return QUEUE_COLORS.find((color) => !taken.has(color)) ?? QUEUE_COLORS[0];
}

/** Whether a typed colour can be painted as a swatch (the field itself accepts any 3–9 characters). */
export function isCssHexColor(value: string): boolean {
  return /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value.trim());
}
