import type { Db } from '../platform/db/client.js';
import type { WhatsappRow } from '../platform/db/schema.js';
import { claimLease, releaseLeases, renewLeases } from './channel-leases.repo.js';
import { wantedSessions } from './channels.repo.js';
import { isResetEpoch, SESSION_PROVIDERS, sessionEpochOf } from './session-control.js';

/** How a running session is stopped. */
export type StopMode =
  /** Shutdown, lost lease or restart: the socket closes, the pairing is kept for whoever runs it next. */
  | 'release'
  /** The user disconnected: the device is logged out of the phone and the pairing forgotten. */
  | 'logout';

export interface SupervisedSession {
  /** True once the session ended by itself (e.g. QR codes exhausted, logged out from the phone). */
  readonly ended: boolean;
  stop(mode: StopMode): Promise<void>;
}

interface SessionStartRequest {
  connection: Pick<WhatsappRow, 'id' | 'companyId' | 'status'>;
  nodeId: string;
  /** The session was asked to start from a blank state (new QR code): clear what the old socket may have written. */
  reset: boolean;
}

interface SupervisorLogger {
  info(o: object, m?: string): void;
  warn(o: object, m?: string): void;
  error(o: object, m?: string): void;
}

export interface SessionSupervisorOptions {
  db: Db;
  nodeId: string;
  startSession(request: SessionStartRequest): Promise<SupervisedSession>;
  logger: SupervisorLogger;
  /** Lease length; another node takes a session over this long after its node stopped renewing. */
  leaseMs?: number;
  /** How often leases are renewed and the wanted sessions compared with the running ones. */
  tickMs?: number;
}

export interface SessionSupervisor {
  start(): Promise<void>;
  /** Runs one round now (after an API change, so it applies without waiting for the next tick). */
  wake(): void;
  /** Graceful: sessions closed, leases released so another node takes over at once. */
  stop(): Promise<void>;
  /** Test hook: dies like a crashed node (timers and sockets stop, leases stay until they expire). */
  crash(): Promise<void>;
  /** Connection ids whose session runs here. */
  running(): number[];
  /** Resolves after the round in progress (if any) and one more complete. */
  settle(): Promise<void>;
}

interface Running {
  session: SupervisedSession;
  epoch: string;
  companyId: number;
}

/**
 * Runs each Baileys connection's session on exactly one node. Every round the
 * node renews its leases (a lease it lost means its session stops at once),
 * stops sessions whose connection was deleted or disconnected, restarts those
 * whose epoch changed, and claims the free or expired leases of the sessions
 * that should run, starting them here.
 */
export function createSessionSupervisor(options: SessionSupervisorOptions): SessionSupervisor {
  const { db, nodeId, logger } = options;
  const leaseMs = options.leaseMs ?? 30_000;
  const tickMs = options.tickMs ?? 5_000;
  const sessions = new Map<number, Running>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let round: Promise<void> = Promise.resolve();
  let pending = false;
  let lastRenewal = Date.now();

  async function stopOne(id: number, mode: StopMode, release: boolean): Promise<void> {
    const running = sessions.get(id);
    sessions.delete(id);
    if (running) {
      await running.session.stop(mode).catch((error: unknown) => logger.warn({ err: error, whatsappId: id }, 'session stop failed'));
    }
    if (release) await releaseLeases(db, nodeId, [id]);
  }

  async function startOne(connection: Pick<WhatsappRow, 'id' | 'companyId' | 'status'>, epoch: string, reset: boolean): Promise<void> {
    try {
      const session = await options.startSession({ connection, nodeId, reset });
      sessions.set(connection.id, { session, epoch, companyId: connection.companyId });
    } catch (error) {
      logger.error({ err: error, whatsappId: connection.id }, 'session start failed');
      await releaseLeases(db, nodeId, [connection.id]).catch(() => undefined);
    }
  }

  async function runRound(): Promise<void> {
    if (stopped) return;
    try {
      const held = [...sessions.keys()];
      const kept = await renewLeases(db, nodeId, held, leaseMs);
      lastRenewal = Date.now();
      for (const id of held) {
        // Deleted with its connection, or taken over after we stalled: stop without touching the pairing.
        if (!kept.has(id)) await stopOne(id, 'release', false);
      }

      const wanted = await wantedSessions(db, SESSION_PROVIDERS);
      const present = new Set(wanted.map((row) => row.id));
      for (const id of [...sessions.keys()]) if (!present.has(id)) await stopOne(id, 'release', true);

      for (const row of wanted) {
        if (stopped) return;
        const running = sessions.get(row.id);
        const epoch = sessionEpochOf(row);
        if (running?.session.ended) {
          await stopOne(row.id, 'release', true);
          continue;
        }
        if (row.status === 'DISCONNECTED') {
          if (running) await stopOne(row.id, 'logout', true);
          continue;
        }
        if (running) {
          if (running.epoch !== epoch) {
            await stopOne(row.id, 'release', false);
            await startOne(row, epoch, isResetEpoch(epoch));
          }
          continue;
        }
        if (await claimLease(db, { whatsappId: row.id, companyId: row.companyId, nodeId, ttlMs: leaseMs }).catch(() => false)) {
          await startOne(row, epoch, false);
        }
      }
    } catch (error) {
      logger.error({ err: error, nodeId }, 'session supervisor round failed');
      // Without a renewal we cannot prove the leases are still ours: stop before another node takes over.
      if (Date.now() - lastRenewal > leaseMs * 0.8) {
        for (const id of [...sessions.keys()]) await stopOne(id, 'release', false);
      }
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void enqueue();
      schedule();
    }, tickMs);
    timer.unref();
  }

  function enqueue(): Promise<void> {
    // At most one round runs and one waits: wakes during a round fold into the next one.
    if (pending) return round;
    pending = true;
    round = round.then(() => {
      pending = false;
      return runRound();
    });
    return round;
  }

  async function halt(): Promise<void> {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    await round.catch(() => undefined);
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      logger.info({ nodeId, leaseMs, tickMs }, 'session supervisor started');
      await enqueue();
      schedule();
    },
    wake() {
      if (!stopped) void enqueue();
    },
    async stop() {
      await halt();
      const ids = [...sessions.keys()];
      for (const id of ids) await stopOne(id, 'release', false);
      await releaseLeases(db, nodeId, ids).catch((error: unknown) => logger.warn({ err: error }, 'lease release failed'));
    },
    async crash() {
      await halt();
      for (const id of [...sessions.keys()]) await stopOne(id, 'release', false);
    },
    running: () => [...sessions.keys()],
    async settle() {
      await round;
      await enqueue();
    },
  };
}
