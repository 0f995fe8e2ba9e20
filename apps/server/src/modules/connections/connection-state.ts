import type { ConnectionProblem, ConnectionStatus } from '@atende/shared';
import type { WhatsappRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { findConnectionDetail, updateSessionColumns } from './connections.repo.js';

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
  deps: Pick<Platform, 'db' | 'events'>,
  ref: SessionRef,
  patch: SessionPatch,
  guard: SessionWriteGuard = {},
): Promise<WhatsappRow | null> {
  const row = await updateSessionColumns(
    deps.db,
    ref,
    ref.whatsappId,
    // Connected again: the problem that was noted is over.
    { ...(patch.status === 'CONNECTED' ? { problem: null } : {}), ...patch },
    { leaseNodeId: guard.leaseNodeId, keepDisconnected: guard.fromSession && patch.status !== 'DISCONNECTED' },
  );
  if (!row) return null;
  await announceSession(deps, ref);
  return row;
}

export async function announceSession(deps: Pick<Platform, 'db' | 'events'>, ref: SessionRef): Promise<void> {
  const detail = await findConnectionDetail(deps.db, { companyId: ref.companyId }, ref.whatsappId);
  if (detail) deps.events.emit('connection.session', { companyId: ref.companyId, connection: detail });
}
