import type { ConnectionProblem, ConnectionStatus } from '@atende/shared';
import type { WhatsappRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { sql } from 'drizzle-orm';
import { isoTimestampSql } from '../../platform/db/json-sql.js';
import { changeWithWebhookEvents, webhookListens } from '../webhooks/webhook-outbox.js';
import { presentConnection } from './connections.presenter.js';
import { findConnection, findConnectionDetail, sessionColumnsUpdate, updateSessionColumns } from './connections.repo.js';

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
  // Connected again: the problem that was noted is over.
  const columns = { ...(patch.status === 'CONNECTED' ? { problem: null } : {}), ...patch };
  const conditions = { leaseNodeId: guard.leaseNodeId, keepDisconnected: guard.fromSession && patch.status !== 'DISCONNECTED' };
  // A status change is a `connection.updated` webhook event (issue 34); QR codes and retries alone are not.
  const heard = patch.status !== undefined && (await webhookListens(deps.db, ref.companyId, 'connection.updated'));
  const row = heard
    ? await writeWithWebhookEvent(deps, ref, columns, conditions)
    : await updateSessionColumns(deps.db, ref, ref.whatsappId, columns, conditions);
  if (!row) return null;
  await announceSession(deps, ref);
  return row;
}

/**
 * The session write and its `connection.updated` event in one statement (no transaction:
 * these writes run beside other transactions, and a nested one hung PGlite). The event
 * carries the connection as `GET /whatsapp/:id` shows it to every user, read just before,
 * with the session's columns as written.
 */
async function writeWithWebhookEvent(
  deps: Pick<Platform, 'db'>,
  ref: SessionRef,
  columns: Parameters<typeof sessionColumnsUpdate>[3],
  conditions: Parameters<typeof sessionColumnsUpdate>[4],
): Promise<WhatsappRow | null> {
  const before = await findConnectionDetail(deps.db, { companyId: ref.companyId }, ref.whatsappId);
  if (!before) return null;
  const [changed] = await changeWithWebhookEvents(deps.db, {
    companyId: ref.companyId,
    event: 'connection.updated',
    orderingPrefix: 'connection:',
    change: sessionColumnsUpdate(deps.db, ref, ref.whatsappId, columns, conditions).getSQL(),
    presented: new Map([[ref.whatsappId, presentConnection(before)]]),
    overlay: sql.raw(
      `jsonb_build_object('status', r.status, 'number', r.number, 'retries', r.retries, 'problem', r.problem, 'updatedAt', ${isoTimestampSql('r.updated_at')})`,
    ),
  });
  return changed === undefined ? null : findConnection(deps.db, { companyId: ref.companyId }, ref.whatsappId);
}

export async function announceSession(deps: Pick<Platform, 'db' | 'events'>, ref: SessionRef): Promise<void> {
  const detail = await findConnectionDetail(deps.db, { companyId: ref.companyId }, ref.whatsappId);
  if (detail) deps.events.emit('connection.session', { companyId: ref.companyId, connection: detail });
}
