/**
 * The variables every text sent to a customer may use (spec part 1 §9, part 2
 * §2.2): {{firstName}}, {{name}}, {{ms}} (greeting of the day), {{protocol}},
 * {{hora}}. The server replaces them in agents' messages as in automatic ones;
 * any other {{...}} is refused, so a customer never receives a raw placeholder.
 */
export const MESSAGE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'hora'] as const;
export type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders of `text` that are not message variables, each once, as written between the braces. */
export function unknownMessageVariables(text: string): string[] {
  if (!text.includes('{{')) return [];
  const known: readonly string[] = MESSAGE_VARIABLES;
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!known.includes(name)) unknown.add(name);
  }
  return [...unknown];
}
