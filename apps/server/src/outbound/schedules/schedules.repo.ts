import type { ScheduleListQuery } from '@atende/shared';
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, schedules, tickets, whatsapps, type ScheduleRecord } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { inTenant } from '../../platform/db/tenant.js';

const SCHEDULES_PAGE_SIZE = 100;

export interface ScheduleDetail extends ScheduleRecord {
  contact: { id: number; name: string; number: string };
}

const detailColumns = { schedule: schedules, contact: { id: contacts.id, name: contacts.name, number: contacts.number } };

export async function loadSchedules(db: DbOrTx, scope: TenantScope, ids: number[]): Promise<ScheduleDetail[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(detailColumns)
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .where(inTenant(schedules, scope, inArray(schedules.id, ids)))
    .orderBy(asc(schedules.sendAt), asc(schedules.id));
  return rows.map((row) => ({ ...row.schedule, contact: row.contact }));
}

export async function findSchedule(db: DbOrTx, scope: TenantScope, id: number): Promise<ScheduleDetail | null> {
  const [row] = await loadSchedules(db, scope, [id]);
  return row ?? null;
}

/** A page of the company's schedules, newest send time first; search matches the body or the contact's name. */
export async function listSchedules(db: DbOrTx, scope: TenantScope, query: ScheduleListQuery) {
  const search = query.searchParam.trim().toLowerCase();
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select(detailColumns)
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .where(
      inTenant(schedules, scope, query.contactId ? eq(schedules.contactId, query.contactId) : undefined, search ? or(ilike(schedules.body, pattern), ilike(contacts.name, pattern)) : undefined),
    )
    .orderBy(desc(schedules.sendAt), desc(schedules.id))
    .limit(SCHEDULES_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * SCHEDULES_PAGE_SIZE);
  return { rows: rows.slice(0, SCHEDULES_PAGE_SIZE).map((row) => ({ ...row.schedule, contact: row.contact })), hasMore: rows.length > SCHEDULES_PAGE_SIZE };
}

/**
 * Reads a send time: with an offset (or Z) it is that instant; without one it is a
 * wall-clock time in the company's time zone (PostgreSQL converts it).
 */
export async function resolveSendAt(db: DbOrTx, value: string, timeZone: string): Promise<Date> {
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(value)) return new Date(value);
  const result = (await db.execute(sql`select (${value}::timestamp at time zone ${timeZone}) as at`)) as unknown as { rows: { at: string | Date }[] };
  const at = result.rows[0]?.at;
  return at instanceof Date ? at : new Date(String(at));
}

/**
 * Where a schedule goes: the connection of the contact's most recent ticket that
 * has one, else the company's default connection, else none.
 */
export async function connectionForContact(db: DbOrTx, scope: TenantScope, contactId: number): Promise<number | null> {
  const [ticket] = await db
    .select({ whatsappId: tickets.whatsappId })
    .from(tickets)
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(inTenant(tickets, scope, eq(tickets.contactId, contactId), isNotNull(tickets.whatsappId)))
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(1);
  if (ticket?.whatsappId) return ticket.whatsappId;
  const [fallback] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(inTenant(whatsapps, scope))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  return fallback?.id ?? null;
}

export async function contactExists(db: DbOrTx, scope: TenantScope, contactId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(inTenant(contacts, scope, eq(contacts.id, contactId)))
    .limit(1);
  return Boolean(row);
}

export async function insertSchedule(db: DbOrTx, scope: TenantScope, values: { body: string; contactId: number; userId: number; sendAt: Date }): Promise<number | null> {
  const [row] = await db
    .insert(schedules)
    .values({ companyId: scope.companyId, ...values })
    .returning({ id: schedules.id });
  return row?.id ?? null;
}

/** Not sent, waiting (PENDENTE) or failed (ERRO): the only schedules an edit may change. */
function unsent(scope: TenantScope, id: number) {
  return inTenant(schedules, scope, eq(schedules.id, id), isNull(schedules.sentAt), inArray(schedules.status, ['PENDENTE', 'ERRO']));
}

/** An edit of a schedule not yet sent: it is PENDENTE again without a reason. Answers whether one changed. */
export async function updateUnsentSchedule(
  tx: DbOrTx,
  scope: TenantScope,
  id: number,
  columns: { body?: string; contactId?: number; sendAt?: Date },
): Promise<boolean> {
  const [row] = await tx
    .update(schedules)
    .set({ ...columns, status: 'PENDENTE', reason: null, updatedAt: new Date() })
    .where(unsent(scope, id))
    .returning({ id: schedules.id });
  return Boolean(row);
}

export async function deleteScheduleRow(tx: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await tx.delete(schedules).where(inTenant(schedules, scope, eq(schedules.id, id)));
}

/** Stores the image of a schedule not yet sent; answers whether one changed. */
export async function attachUnsentScheduleMedia(db: DbOrTx, scope: TenantScope, id: number, stored: StoredMedia): Promise<boolean> {
  const [row] = await db
    .update(schedules)
    .set({ mediaPath: stored.path, mediaName: stored.name, mediaMime: stored.mimeType, mediaSize: stored.size, updatedAt: new Date() })
    .where(unsent(scope, id))
    .returning({ id: schedules.id });
  return Boolean(row);
}

export async function clearScheduleMedia(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db
    .update(schedules)
    .set({ mediaPath: null, mediaName: null, mediaMime: null, mediaSize: null, updatedAt: new Date() })
    .where(inTenant(schedules, scope, eq(schedules.id, id)));
}

/**
 * PENDENTE schedules whose time has come (any company but one the whaticket importer has
 * not finished), with their contact's number, locked for the caller's transaction.
 */
export async function lockDueSchedules(tx: DbOrTx, now: Date): Promise<{ schedule: ScheduleRecord; number: string }[]> {
  return tx
    .select({ schedule: schedules, number: contacts.number })
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .where(and(eq(schedules.status, 'PENDENTE'), lte(schedules.sendAt, now), sql`not exists (select 1 from companies c where c.id = ${schedules.companyId} and c.importing)`))
    .orderBy(asc(schedules.sendAt), asc(schedules.id))
    .limit(500)
    .for('update', { of: schedules, skipLocked: true });
}

/** A locked due schedule's new state: AGENDADA with its connection, or ERRO with a reason. */
export async function markDueSchedule(
  tx: DbOrTx,
  id: number,
  change: { status: 'AGENDADA'; whatsappId: number } | { status: 'ERRO'; reason: string },
  now: Date,
): Promise<void> {
  await tx
    .update(schedules)
    .set({ reason: null, ...change, updatedAt: now })
    .where(eq(schedules.id, id));
}

/**
 * A schedule follows its send: sent → ENVIADA with sentAt (kept if set) and the
 * ticket; failed → ERRO with the reason unless it was already sent. Answers whether
 * it changed.
 */
export async function settleSchedule(
  tx: DbOrTx,
  send: { companyId: number; sourceId: number; ticketId: number | null; reason: string | null },
  sent: boolean,
  now: Date,
): Promise<boolean> {
  const [row] = await tx
    .update(schedules)
    .set(
      sent
        ? { status: 'ENVIADA', reason: null, sentAt: sql`coalesce(${schedules.sentAt}, ${now.toISOString()}::timestamptz)`, ticketId: send.ticketId, updatedAt: now }
        : { status: 'ERRO', reason: send.reason ?? 'ERR_SENDING_WAPP_MSG', updatedAt: now },
    )
    .where(inTenant(schedules, send, eq(schedules.id, send.sourceId), sent ? undefined : isNull(schedules.sentAt)))
    .returning({ id: schedules.id });
  return Boolean(row);
}
