/**
 * Runs `work` when the browser is next idle, and within `withinMs` at the latest (a browser
 * without `requestIdleCallback` runs it after `withinMs`): for what a first screen does not need
 * (the service worker, the install links). Answers the cancel, for an effect's cleanup.
 */
export function whenIdle(work: () => void, withinMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const idle = requestIdleCallback(work, { timeout: withinMs });
    return () => cancelIdleCallback(idle);
  }
  const timer = setTimeout(work, withinMs);
  return () => clearTimeout(timer);
}
