import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { setUserPresence } from '../users/users.service.js';
import { clearNodePresence, deletePresence, isUserOnline, PRESENCE_REFRESH_MS, refreshNodePresence, upsertPresence } from './presence.repo.js';

/**
 * Who is online, across nodes (issue 35): `user_presence` holds a row per node and user
 * while the user has a live socket there. Kept in the database, not Redis, so it works the
 * same on the embedded single-node install and the assignment round reads it in its own
 * transaction. `users.online` (the users page's dot) follows it: it turns false only when
 * no node holds a socket of the user any more.
 */
export interface Presence {
  readonly nodeId: string;
  /** A socket connected or sent its heartbeat (`userStatus`): answers whether the user just came online. */
  connected(ctx: RequestContext): Promise<boolean>;
  /** The user's last socket on this node closed. */
  disconnected(ctx: RequestContext): Promise<void>;
  /** Refreshes this node's rows every PRESENCE_REFRESH_MS from the sockets it holds. */
  start(connectedUsers: () => { companyId: number; userId: number }[]): void;
  /** This node's rows are removed (shutdown). */
  stop(): Promise<void>;
}

export type PresenceDeps = Pick<Platform, 'db' | 'events' | 'access' | 'logger'>;

export function createPresence(deps: PresenceDeps): Presence {
  const nodeId = randomUUID();
  let timer: NodeJS.Timeout | null = null;
  return {
    nodeId,
    async connected(ctx) {
      const before = await isUserOnline(deps.db, ctx, ctx.user.id);
      await upsertPresence(deps.db, ctx, ctx.user.id, nodeId);
      await setUserPresence(deps, ctx, true);
      return !before;
    },
    async disconnected(ctx) {
      await deletePresence(deps.db, ctx, ctx.user.id, nodeId);
      if (!(await isUserOnline(deps.db, ctx, ctx.user.id))) await setUserPresence(deps, ctx, false);
    },
    start(connectedUsers) {
      if (timer) return;
      timer = setInterval(() => {
        refreshNodePresence(deps.db, nodeId, connectedUsers()).catch((error: unknown) => deps.logger.error({ err: error }, 'presence refresh failed'));
      }, PRESENCE_REFRESH_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await clearNodePresence(deps.db, nodeId);
    },
  };
}
