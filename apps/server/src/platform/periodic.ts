/**
 * Runs `work` now and then every `intervalMs`, never two runs at once (a slow run
 * makes the next tick skip); a failure goes to `onError` and the next tick runs
 * again. The returned function stops it. For a node's own background sweeps (the
 * recoveries of what a stopped node left); work that must run once across nodes is
 * a job instead (platform/jobs).
 */
export function startPeriodic(work: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void): () => void {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running) return;
    running = work()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
