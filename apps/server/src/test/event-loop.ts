import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` and tells the longest time the event loop was held meanwhile (ms),
 * from the lateness of a 10 ms sampling timer: what every other request of the
 * process waited at worst.
 */
export async function longestEventLoopBlock<T>(work: () => Promise<T>): Promise<{ result: T; longestBlockMs: number; elapsedMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const started = performance.now();
  delay.enable();
  try {
    const result = await work();
    const elapsedMs = performance.now() - started;
    // A block that ended just before `work` settled is recorded only when the sampling timer runs next.
    await sleep(50);
    return { result, longestBlockMs: delay.max / 1e6, elapsedMs };
  } finally {
    delay.disable();
  }
}

/**
 * The longest block allowed while work of `elapsedMs` ran off the event loop: 250 ms, or a tenth
 * of the work's time on a host so loaded that the process itself waits for a CPU (both grow
 * alike there). Work done on the event loop holds it for about all of its time, in one block or
 * in a few.
 */
export function allowedBlockMs(elapsedMs: number): number {
  return Math.max(250, elapsedMs / 10);
}
