import { PAGE_SIZE, type ContactListQuery } from '@atende/shared';
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contactExtraInfo, contacts, tickets, whatsapps, type ContactRow, type WhatsappRow } from '../../platform/db/schema.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { likeContains, phoneSearchDigits } from '../../platform/db/search.js';
import type { ContactDetail, ExtraInfoDetail } from './contacts.presenter.js';
import { inTenant } from '../../platform/db/tenant.js';

/** Case-insensitive name order, read off the `(company_id, lower(name))` index. */
const byName = [asc(sql`lower(${contacts.name})`), asc(contacts.id)];

async function extraInfoByContact(db: DbOrTx, scope: TenantScope, contactIds: number[]): Promise<Map<number, ExtraInfoDetail[]>> {
  const byContact = new Map<number, ExtraInfoDetail[]>();
  if (contactIds.length === 0) return byContact;
  const rows = await db
    .select({ contactId: contactExtraInfo.contactId, id: contactExtraInfo.id, name: contactExtraInfo.name, value: contactExtraInfo.value })
    .from(contactExtraInfo)
    .where(inTenant(contactExtraInfo, scope, inArray(contactExtraInfo.contactId, contactIds)))
    .orderBy(asc(contactExtraInfo.id));
  for (const { contactId, ...entry } of rows) {
    const list = byContact.get(contactId) ?? [];
    list.push(entry);
    byContact.set(contactId, list);
  }
  return byContact;
}

/** Rows with their extra info, loaded for all of them in one query. */
async function withExtraInfo(db: DbOrTx, scope: TenantScope, rows: ContactRow[]): Promise<ContactDetail[]> {
  const extra = await extraInfoByContact(
    db,
    scope,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, extraInfo: extra.get(row.id) ?? [] }));
}

/**
 * The contacts page: search over name, number and email (each through its
 * trigram index), optional creation days in the company's
 * time zone, ordered by name, 20 a page.
 */
export async function listContacts(db: DbOrTx, ctx: RequestContext, query: ContactListQuery) {
  const conditions: SQL[] = [inTenant(contacts, ctx)];
  const term = query.searchParam.trim().toLowerCase();
  if (term) {
    const like = likeContains(term);
    const digits = phoneSearchDigits(term);
    const matches = [sql`lower(${contacts.name}) like ${like}`, sql`lower(${contacts.email}) like ${like}`];
    if (digits) matches.push(sql`${contacts.number} like ${likeContains(digits)}`);
    const anyMatch = or(...matches);
    if (anyMatch) conditions.push(anyMatch);
  }
  const start = query.date ?? query.dateStart;
  const end = query.date ?? query.dateEnd;
  const tz = ctx.company.timezone;
  // Day bounds turned into instants, so the (company_id, created_at) index applies.
  if (start) conditions.push(sql`${contacts.createdAt} >= (${start}::date)::timestamp at time zone ${tz}`);
  if (end) conditions.push(sql`${contacts.createdAt} < (${end}::date + 1)::timestamp at time zone ${tz}`);

  const where = and(...conditions);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(...byName)
      .limit(PAGE_SIZE)
      .offset(offset),
    db.select({ value: count() }).from(contacts).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return { contacts: await withExtraInfo(db, ctx, rows), count: totalCount, hasMore: offset + rows.length < totalCount };
}

/** Every contact of the company, for pickers. */
export async function listAllContacts(db: DbOrTx, scope: TenantScope) {
  return db
    .select({ id: contacts.id, name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .where(inTenant(contacts, scope))
    .orderBy(...byName);
}

export async function findContact(db: DbOrTx, scope: TenantScope, id: number): Promise<ContactDetail | null> {
  return findContactWhere(db, scope, eq(contacts.id, id));
}

export async function findContactByNumber(db: DbOrTx, scope: TenantScope, number: string): Promise<ContactDetail | null> {
  return findContactWhere(db, scope, eq(contacts.number, number));
}

async function findContactWhere(db: DbOrTx, scope: TenantScope, condition: SQL): Promise<ContactDetail | null> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(inTenant(contacts, scope, condition))
    .limit(1);
  if (!row) return null;
  const [detail] = await withExtraInfo(db, scope, [row]);
  return detail ?? null;
}

export interface NewContact {
  name: string;
  number: string;
  email: string;
  whatsappId?: number | null;
  birthday?: string | null;
  disableBot?: boolean;
  active?: boolean;
}

/** Inserts one contact; null when the number already exists in the company (the unique index decides). */
export async function insertContact(db: DbOrTx, scope: TenantScope, contact: NewContact): Promise<ContactRow | null> {
  const [row] = await db
    .insert(contacts)
    .values({ ...contact, companyId: scope.companyId })
    .onConflictDoNothing({ target: [contacts.companyId, contacts.number] })
    .returning();
  return row ?? null;
}

const INSERT_CHUNK = 500;

/**
 * Inserts many contacts, a few hundred a statement; numbers that already exist
 * are skipped by the unique index. Answers the rows actually inserted.
 */
export async function insertContacts(db: DbOrTx, scope: TenantScope, list: NewContact[]): Promise<ContactRow[]> {
  const inserted: ContactRow[] = [];
  for (let index = 0; index < list.length; index += INSERT_CHUNK) {
    const chunk = list.slice(index, index + INSERT_CHUNK).map((contact) => ({ ...contact, companyId: scope.companyId }));
    const rows = await db
      .insert(contacts)
      .values(chunk)
      .onConflictDoNothing({ target: [contacts.companyId, contacts.number] })
      .returning();
    inserted.push(...rows);
  }
  return inserted;
}

export async function updateContactRow(
  db: DbOrTx,
  scope: TenantScope,
  id: number,
  change: Partial<Pick<ContactRow, 'name' | 'number' | 'email' | 'birthday' | 'disableBot' | 'active'>>,
): Promise<void> {
  await db
    .update(contacts)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(contacts, scope, eq(contacts.id, id)));
}

export async function replaceExtraInfo(db: DbOrTx, scope: TenantScope, contactId: number, entries: { name: string; value: string }[]): Promise<void> {
  await db.delete(contactExtraInfo).where(inTenant(contactExtraInfo, scope, eq(contactExtraInfo.contactId, contactId)));
  if (entries.length === 0) return;
  await db
    .insert(contactExtraInfo)
    .values(entries.map((entry) => ({ companyId: scope.companyId, contactId, name: entry.name, value: entry.value })));
}

export async function deleteContactRow(db: DbOrTx, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(contacts)
    .where(inTenant(contacts, scope, eq(contacts.id, id)))
    .returning({ id: contacts.id });
  return deleted.length > 0;
}

/** The contact's tickets, newest first: the ones lists may be showing. */
export async function contactTicketIds(db: DbOrTx, scope: TenantScope, contactId: number, options: { activeOnly: boolean; limit: number }): Promise<number[]> {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      inTenant(tickets, scope, eq(tickets.contactId, contactId), options.activeOnly ? inArray(tickets.status, ['open', 'pending']) : undefined),
    )
    .orderBy(desc(tickets.updatedAt))
    .limit(options.limit);
  return rows.map((r) => r.id);
}

/** The company's connected connections, oldest first: the address books an import reads. */
export async function connectedConnections(db: DbOrTx, scope: TenantScope): Promise<WhatsappRow[]> {
  return db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, scope, eq(whatsapps.status, 'CONNECTED')))
    .orderBy(asc(whatsapps.id));
}
