import type { Socket as NetSocket } from 'node:net';

/** How often, at most, a busy server sends what its realtime sockets were given. */
export const DEFAULT_FLUSH_INTERVAL_MS = 20;

/**
 * Sends the realtime sockets' writes in rounds, one system call per socket per
 * round. A socket is corked at its first write and uncorked by the next round. An
 * idle server's round runs at the end of the tick, so a lone event waits for
 * nothing; a round within `intervalMs` of the last one waits for the rest of the
 * interval. So a stream of events (a batch of inbound messages, a busy number's
 * messages reaching hundreds of agents) costs each socket one write per round
 * instead of one per event, and the server has the time to send them.
 */
export function createWritePacer(intervalMs = DEFAULT_FLUSH_INTERVAL_MS) {
  const corked = new Set<NetSocket>();
  let scheduled = false;
  let lastRound = Number.NEGATIVE_INFINITY;

  const round = () => {
    scheduled = false;
    lastRound = performance.now();
    const sockets = [...corked];
    corked.clear();
    for (const tcp of sockets) tcp.uncork();
  };

  const hold = (tcp: NetSocket) => {
    if (corked.has(tcp)) return;
    tcp.cork();
    corked.add(tcp);
    if (scheduled) return;
    scheduled = true;
    const wait = lastRound + intervalMs - performance.now();
    if (wait <= 0) process.nextTick(round);
    else setTimeout(round, wait);
  };

  return {
    /** Routes the socket's writes through the rounds. */
    pace(tcp: NetSocket): void {
      const write = tcp.write.bind(tcp) as (...args: unknown[]) => boolean;
      tcp.write = ((...args: unknown[]) => {
        hold(tcp);
        return write(...args);
      }) as NetSocket['write'];
    },
  };
}

export type WritePacer = ReturnType<typeof createWritePacer>;
