import { AUDIT_ACTIONS, type AuditAction, type AuditField, type SettingKey } from '@atende/shared';
import type { DbOrTx } from '../db/client.js';
import { auditLogs } from '../db/schema.js';
import type { RequestClient, RequestContext } from '../http/context.js';

/**
 * The audit log's one writer (issue 35; docs/architecture.md, "Audit log"). Services call
 * `recordAudit(tx, ctx, entry)` inside the transaction of the change, so the entry exists
 * exactly when the change does. Entries are never updated (a trigger refuses it) and only
 * the retention sweep deletes them (`modules/audit-logs/`).
 */

/** Who acted, when there is no session to read it from (a sign-in, a password reset, the system). */
export interface AuditActor {
  /** The company the entry belongs to; null: a platform-level entry only super users read. */
  companyId: number | null;
  userId: number | null;
  userName: string | null;
  apiKeyId?: number | null;
  client?: RequestClient | null;
}

/**
 * What changed: a field's value before and after, or `{ changed: true }` for a secret or long
 * value. Only fields the web can name (`AUDIT_FIELDS`), a setting's key or an uploaded file's.
 */
export type AuditChanges = Partial<Record<AuditField | SettingKey | `upload.${string}`, unknown>>;

export interface AuditEntry {
  action: AuditAction;
  entityId?: number | string | null;
  changes?: AuditChanges | null;
  /** Overrides the actor's company: the company a super user acted on, or null for the platform's own entries. */
  companyId?: number | null;
}

function actorOf(by: RequestContext | AuditActor): AuditActor {
  if (!('user' in by)) return by;
  return { companyId: by.companyId, userId: by.user.id, userName: by.user.name, apiKeyId: by.apiKeyId ?? null, client: by.client ?? null };
}

export async function recordAudit(db: DbOrTx, by: RequestContext | AuditActor, entry: AuditEntry): Promise<void> {
  const actor = actorOf(by);
  const changes = entry.changes && Object.keys(entry.changes).length > 0 ? entry.changes : null;
  await db.insert(auditLogs).values({
    companyId: entry.companyId === undefined ? actor.companyId : entry.companyId,
    userId: actor.userId,
    userName: actor.userName,
    apiKeyId: actor.apiKeyId ?? null,
    action: entry.action,
    entity: AUDIT_ACTIONS[entry.action],
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    ip: actor.client?.ip ?? null,
    userAgent: actor.client?.userAgent ?? null,
    changes,
  });
}

/** Longer texts are recorded as changed, not copied (a greeting, a prompt, a template). */
const MAX_RECORDED_TEXT = 200;

function recordable(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && value.length > MAX_RECORDED_TEXT) return `${value.slice(0, MAX_RECORDED_TEXT)}…`;
  return value ?? null;
}

/** A list or record too long to copy (a week of opening hours): recorded as changed. */
function bulky(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && JSON.stringify(value).length > MAX_RECORDED_TEXT;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(recordable(a)) === JSON.stringify(recordable(b));
}

/**
 * The fields of `fields` whose value differs between `before` and `after`, as
 * `{ field: { from, to } }`; the `secret` ones (tokens, passwords, keys) as
 * `{ field: { changed: true } }`, never their values.
 */
export function changedFields<T extends object>(before: T, after: T, fields: readonly (keyof T & AuditField)[], secret: readonly (keyof T & AuditField)[] = []): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (same(before[field], after[field])) continue;
    const hidden = secret.includes(field) || bulky(before[field]) || bulky(after[field]);
    changes[field] = hidden ? { changed: true } : { from: recordable(before[field]), to: recordable(after[field]) };
  }
  return changes;
}

/** The recorded values of a new or deleted record's `fields` (secrets left out). */
export function recordedFields<T extends object>(row: T, fields: readonly (keyof T & AuditField)[]): AuditChanges {
  return Object.fromEntries(fields.filter((field) => !bulky(row[field])).map((field) => [field, recordable(row[field])]));
}
