import type { ConnectionProblem, ConnectionStatus } from '@atende/shared';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { findConnectionDetail } from './connections.repo.js';
import { channelLeases, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';

export interface SessionRef {
  companyId: number;
  whatsappId: number;
}

export interface SessionPatch {
  status?: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  number?: string;
  problem?: ConnectionProblem | null;
}

export interface SessionWriteGuard {
  /**
   * The write comes from a running session: it only applies while that node
   * still holds the connection's lease, and it never overrides a DISCONNECTED
   * the user asked for (the supervisor then stops the session).
   */
  leaseNodeId?: string | null;
  fromSession?: boolean;
}

/**
 * Writes a connection's session state and tells the company
 * (`company-{id}-whatsappSession` to admins, `company-{id}-whatsapp` to all).
 * Answers the updated row, or null when the guard refused the write.
 */
export async function writeSessionState(
  services: Pick<AppServices, 'db' | 'events'>,
  ref: SessionRef,
  patch: SessionPatch,
  guard: SessionWriteGuard = {},
): Promise<WhatsappRow | null> {
  const conditions: SQL[] = [inTenant(whatsapps, ref), eq(whatsapps.id, ref.whatsappId)];
  if (guard.leaseNodeId) {
    conditions.push(
      sql`exists (select 1 from ${channelLeases} where ${channelLeases.whatsappId} = ${ref.whatsappId} and ${channelLeases.nodeId} = ${guard.leaseNodeId})`,
    );
  }
  if (guard.fromSession && patch.status !== 'DISCONNECTED') conditions.push(ne(whatsapps.status, 'DISCONNECTED'));
  const [row] = await services.db
    .update(whatsapps)
    // Connected again: the problem that was noted is over.
    .set({ ...(patch.status === 'CONNECTED' ? { problem: null } : {}), ...patch, updatedAt: sql`now()` })
    .where(and(...conditions))
    .returning();
  if (!row) return null;
  await announceSession(services, ref);
  return row;
}

export async function announceSession(services: Pick<AppServices, 'db' | 'events'>, ref: SessionRef): Promise<void> {
  const detail = await findConnectionDetail(services.db, { companyId: ref.companyId }, ref.whatsappId);
  if (detail) services.events.emit('connection.session', { companyId: ref.companyId, connection: detail });
}
