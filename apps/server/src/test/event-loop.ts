import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` and tells the longest time the event loop was held meanwhile (ms),
 * from the lateness of a 10 ms sampling timer: what every other request of the
 * process waited at worst.
 */
export async function longestEventLoopBlock<T>(work: () => Promise<T>): Promise<{ result: T; longestBlockMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const result = await work();
    // A block that ended just before `work` settled is recorded only when the sampling timer runs next.
    await sleep(50);
    return { result, longestBlockMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}
