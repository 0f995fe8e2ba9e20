import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppServices } from '../app.js';
import { clearAuthState } from './baileys/baileys-auth-state.js';
import { startBaileysSession, type BaileysSessionOptions } from './baileys/baileys-session.js';
import { createSessionSupervisor, type SessionSupervisor } from './session-supervisor.js';

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
export function createChannelsService(services: AppServices, options: ChannelsServiceOptions = {}): SessionSupervisor {
  const nodeId = options.nodeId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const supervisor = createSessionSupervisor({
    db: services.db,
    nodeId,
    logger: services.channels.logger,
    leaseMs: options.leaseMs,
    tickMs: options.tickMs,
    async startSession({ connection, nodeId: holder, reset }) {
      const ref = { companyId: connection.companyId, whatsappId: connection.id };
      if (reset) await clearAuthState(services.db, ref);
      return startBaileysSession({ services, ref, hub: services.channels.baileysSessions, leaseNodeId: holder, options: options.session });
    },
  });
  services.channels.onWake(() => supervisor.wake());
  // Other nodes' API calls on the sessions this node holds (agents' sends, reads, deletes).
  return {
    ...supervisor,
    async start() {
      await services.channels.serveRelay(nodeId);
      await supervisor.start();
    },
  };
}
