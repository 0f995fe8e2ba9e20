/**
 * Requests start one per task. A screen's queries all begin in the same task (the effects of
 * one React commit), and each `fetch()` call costs a slow phone a few milliseconds of main
 * thread: ten of them made one long task that kept the page from answering a tap. The first
 * request of a task starts at once; the others each wait for a task of their own, in order
 * (a MessageChannel message: no timer clamping, nothing waits on the network).
 */
export interface RequestTurns {
  /** Resolves when this request may start: at once (undefined) for the first of a task. */
  take(): Promise<void> | undefined;
}

export function createRequestTurns(): RequestTurns {
  if (typeof MessageChannel === 'undefined') return { take: () => undefined };
  const waiting: (() => void)[] = [];
  let taken = false;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const next = waiting.shift();
    if (!next) {
      taken = false;
      return;
    }
    // Its fetch runs in this task's microtasks; the next waiter gets the task after.
    next();
    channel.port2.postMessage(null);
  };
  // Node (the tests) would otherwise stay alive for the open port.
  (channel.port1 as { unref?(): void }).unref?.();
  return {
    take() {
      if (!taken) {
        taken = true;
        channel.port2.postMessage(null);
        return undefined;
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
