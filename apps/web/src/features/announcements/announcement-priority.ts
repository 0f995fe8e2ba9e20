/** Spec part 1 §3: priority 1 red, 2 orange, 3 grey. */
export const PRIORITY_COLOR = { 1: 'error.main', 2: 'warning.main', 3: 'grey.500' } as const;
export const PRIORITY_CHIP = { 1: 'error', 2: 'warning', 3: 'default' } as const;
