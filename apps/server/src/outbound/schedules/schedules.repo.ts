import type { PresentedSchedule, ScheduleListQuery } from '@atende/shared';
import { asc, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, schedules, tickets, whatsapps, type ScheduleRecord } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import { inTenant } from '../../platform/db/tenant.js';

export const SCHEDULES_PAGE_SIZE = 100;

export interface ScheduleDetail extends ScheduleRecord {
  contact: { id: number; name: string; number: string };
}

export function presentSchedule(row: ScheduleDetail, media: Pick<MediaStorage, 'signedUrl'>): PresentedSchedule {
  return {
    id: row.id,
    body: row.body,
    contactId: row.contactId,
    contact: row.contact,
    sendAt: row.sendAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    status: row.status,
    reason: row.reason,
    whatsappId: row.whatsappId,
    ticketId: row.ticketId,
    userId: row.userId,
    // The spec's mediaPath is the file's name, never where it lies on disk.
    mediaPath: row.mediaPath ? row.mediaName : null,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaUrl: row.mediaPath ? media.signedUrl(row.mediaPath) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
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
