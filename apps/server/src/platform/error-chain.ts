/**
 * Whether an error passes `test`, or one it wraps does: its `cause` (drizzle wraps the
 * driver's error there) or one of its `errors` (a failed connect may be an
 * AggregateError of attempts), however deep, each looked at once.
 */
export function someErrorInChain(error: unknown, test: (error: object) => boolean): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (test(current)) return true;
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some((item) => item !== null && typeof item === 'object' && test(item))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
