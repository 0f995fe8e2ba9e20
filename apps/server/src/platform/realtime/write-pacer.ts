import type { Socket as NetSocket } from 'node:net';

/** How often, at most, a busy server sends what its realtime sockets were given. */
const DEFAULT_FLUSH_INTERVAL_MS = 20;

/** What the pacer needs of an Engine.IO socket: its outgoing packets and the method that sends them. */
export interface PacedConnection {
  /** The packets waiting to be sent. */
  readonly writeBuffer: readonly unknown[];
  /** Sends the waiting packets when the transport can take them. */
  flush(): void;
}

/**
 * Sends the realtime sockets' packets in rounds, one system call per socket per
 * round. A connection's flush is held until the next round, which sends every
 * packet it gathered meanwhile through its corked TCP socket. An idle server's
 * round runs at the end of the tick, so a lone event waits for nothing; a round
 * within `intervalMs` of the last one waits for the rest of the interval. So a
 * stream of events (a batch of inbound messages, a busy number's messages
 * reaching hundreds of agents) costs each socket one write per round instead of
 * one per event, and no packet waits more than one round.
 *
 * The hold is on Engine.IO's flush rather than on the TCP socket: the transport
 * takes no packet until its previous write completes, so packets given to a
 * corked socket would wait for a round to complete that write and then for
 * another to be sent.
 */
export function createWritePacer(intervalMs = DEFAULT_FLUSH_INTERVAL_MS) {
  const held = new Set<() => void>();
  let afterRound: (() => void)[] = [];
  let scheduled = false;
  let lastRound = Number.NEGATIVE_INFINITY;

  const round = () => {
    scheduled = false;
    lastRound = performance.now();
    const sends = [...held];
    const waiting = afterRound;
    held.clear();
    afterRound = [];
    for (const send of sends) send();
    for (const resolve of waiting) resolve();
  };

  const hold = (send: () => void) => {
    held.add(send);
    if (scheduled) return;
    scheduled = true;
    const wait = lastRound + intervalMs - performance.now();
    if (wait <= 0) process.nextTick(round);
    else setTimeout(round, wait);
  };

  return {
    /** Resolves once what the sockets were given so far is written (at once when nothing waits for a round). */
    sent(): Promise<void> {
      if (!scheduled) return Promise.resolve();
      return new Promise((resolve) => afterRound.push(resolve));
    },
    /** Routes the connection's flushes through the rounds; `tcp` is the socket its transport writes to. */
    pace(connection: PacedConnection, tcp: NetSocket): void {
      const flush = connection.flush.bind(connection);
      const send = () => {
        tcp.cork();
        flush();
        tcp.uncork();
      };
      connection.flush = () => {
        if (connection.writeBuffer.length > 0) hold(send);
      };
    },
  };
}

export type WritePacer = ReturnType<typeof createWritePacer>;
