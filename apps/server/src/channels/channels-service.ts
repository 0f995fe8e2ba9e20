import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { clearAuthState } from './baileys/baileys-auth-state.js';
import { startBaileysSession, type BaileysSessionDeps, type BaileysSessionOptions } from './baileys/baileys-session.js';
import type { ChannelRegistry } from './channel-registry.js';
import { createSessionSupervisor, type SessionSupervisor } from './session-supervisor.js';

/** What the sessions take, and the registry this process's API wakes and relays through. */
export type ChannelsServiceDeps = BaileysSessionDeps & { channels: Pick<ChannelRegistry, 'baileysSessions' | 'onWake' | 'serveRelay'> };

export interface ChannelsServiceOptions {
  nodeId?: string;
  leaseMs?: number;
  tickMs?: number;
  session?: Partial<BaileysSessionOptions>;
}

/**
 * The `channels` service (main.ts `--services=...,channels`): this node's
 * session supervisor, running Baileys sessions under leases shared with the
 * other nodes, and waking at once when this process's API changes a session.
 */
export function createChannelsService(deps: ChannelsServiceDeps, options: ChannelsServiceOptions = {}): SessionSupervisor {
  const nodeId = options.nodeId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const supervisor = createSessionSupervisor({
    db: deps.db,
    nodeId,
    logger: deps.logger.child({ module: 'channels' }),
    leaseMs: options.leaseMs,
    tickMs: options.tickMs,
    async startSession({ connection, nodeId: holder, reset }) {
      const ref = { companyId: connection.companyId, whatsappId: connection.id };
      if (reset) await clearAuthState(deps.db, ref);
      return startBaileysSession(deps, { ref, hub: deps.channels.baileysSessions, leaseNodeId: holder, options: options.session });
    },
  });
  deps.channels.onWake(() => supervisor.wake());
  // Other nodes' API calls on the sessions this node holds (agents' sends, reads, deletes).
  return {
    ...supervisor,
    async start() {
      await deps.channels.serveRelay(nodeId);
      await supervisor.start();
    },
  };
}
