import type { ContactListItemsQuery, ContactListsQuery } from '@atende/shared';
import { asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contactListItems, contactLists, whatsapps, type ContactListItemRow, type ContactListRow, type WhatsappRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

const CONTACT_LISTS_PAGE_SIZE = 20;
const CONTACT_LIST_ITEMS_PAGE_SIZE = 40;

export type ContactListDetail = ContactListRow & { contactsCount: number };

/** `%term%` for ILIKE, with the pattern characters of the term taken literally. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// Written out: inside a subquery drizzle would name the outer column without its table.
const itemsCount = sql<number>`(select count(*)::int from contact_list_items i where i.contact_list_id = "contact_lists"."id")`;

export async function listContactLists(db: DbOrTx, scope: TenantScope, query: ContactListsQuery) {
  const search = query.searchParam.trim();
  const rows = await db
    .select({ list: contactLists, contactsCount: itemsCount })
    .from(contactLists)
    .where(inTenant(contactLists, scope, search ? ilike(contactLists.name, containing(search)) : undefined))
    .orderBy(asc(contactLists.name), asc(contactLists.id))
    .limit(CONTACT_LISTS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE);
  return {
    records: rows.slice(0, CONTACT_LISTS_PAGE_SIZE).map((row) => ({ ...row.list, contactsCount: Number(row.contactsCount) })),
    hasMore: rows.length > CONTACT_LISTS_PAGE_SIZE,
  };
}

/** Every list of the company, by name: what a campaign's list picker offers. */
export async function listAllContactLists(db: DbOrTx, scope: TenantScope): Promise<ContactListDetail[]> {
  const rows = await db
    .select({ list: contactLists, contactsCount: itemsCount })
    .from(contactLists)
    .where(inTenant(contactLists, scope))
    .orderBy(asc(contactLists.name), asc(contactLists.id));
  return rows.map((row) => ({ ...row.list, contactsCount: Number(row.contactsCount) }));
}

export async function findContactList(db: DbOrTx, scope: TenantScope, id: number): Promise<ContactListDetail | null> {
  const [row] = await db
    .select({ list: contactLists, contactsCount: itemsCount })
    .from(contactLists)
    .where(inTenant(contactLists, scope, eq(contactLists.id, id)))
    .limit(1);
  return row ? { ...row.list, contactsCount: Number(row.contactsCount) } : null;
}

export async function insertContactList(db: DbOrTx, scope: TenantScope, name: string): Promise<ContactListDetail> {
  const [row] = await db.insert(contactLists).values({ companyId: scope.companyId, name }).returning();
  if (!row) throw new Error('insert returned nothing');
  return { ...row, contactsCount: 0 };
}

export async function renameContactList(db: DbOrTx, scope: TenantScope, id: number, name: string): Promise<boolean> {
  const rows = await db
    .update(contactLists)
    .set({ name, updatedAt: new Date() })
    .where(inTenant(contactLists, scope, eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  return rows.length === 1;
}

export async function deleteContactList(db: DbOrTx, scope: TenantScope, id: number): Promise<boolean> {
  const rows = await db
    .delete(contactLists)
    .where(inTenant(contactLists, scope, eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  return rows.length === 1;
}

export async function listContactListItems(db: DbOrTx, scope: TenantScope, query: ContactListItemsQuery) {
  const search = query.searchParam.trim();
  const pattern = containing(search);
  const rows = await db
    .select()
    .from(contactListItems)
    .where(
      inTenant(contactListItems, scope, eq(contactListItems.contactListId, query.contactListId), search ? or(ilike(contactListItems.name, pattern), ilike(contactListItems.number, pattern), ilike(contactListItems.email, pattern)) : undefined),
    )
    .orderBy(asc(contactListItems.name), asc(contactListItems.id))
    .limit(CONTACT_LIST_ITEMS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * CONTACT_LIST_ITEMS_PAGE_SIZE);
  return { contacts: rows.slice(0, CONTACT_LIST_ITEMS_PAGE_SIZE), hasMore: rows.length > CONTACT_LIST_ITEMS_PAGE_SIZE };
}

/** Up to `limit` items of the company (of one list when named), by name: whaticket v6's `/contact-list-items/list`. */
export async function listCompanyContactListItems(db: DbOrTx, scope: TenantScope, contactListId: number | undefined, limit: number): Promise<ContactListItemRow[]> {
  return db
    .select()
    .from(contactListItems)
    .where(inTenant(contactListItems, scope, contactListId ? eq(contactListItems.contactListId, contactListId) : undefined))
    .orderBy(asc(contactListItems.name), asc(contactListItems.id))
    .limit(limit);
}

/** Every item of a list in a stable order: the audience a campaign sends to. */
export async function allContactListItems(db: DbOrTx, scope: TenantScope, contactListId: number): Promise<ContactListItemRow[]> {
  return db
    .select()
    .from(contactListItems)
    .where(inTenant(contactListItems, scope, eq(contactListItems.contactListId, contactListId)))
    .orderBy(asc(contactListItems.id));
}

export async function findContactListItem(db: DbOrTx, scope: TenantScope, id: number): Promise<ContactListItemRow | null> {
  const [row] = await db
    .select()
    .from(contactListItems)
    .where(inTenant(contactListItems, scope, eq(contactListItems.id, id)))
    .limit(1);
  return row ?? null;
}

export interface NewListItem {
  name: string;
  number: string;
  email: string;
}

/** Inserts the items; a number already in the list is skipped. Answers the rows inserted. */
export async function insertContactListItems(db: DbOrTx, scope: TenantScope, contactListId: number, items: NewListItem[]): Promise<ContactListItemRow[]> {
  if (items.length === 0) return [];
  const inserted: ContactListItemRow[] = [];
  // Bounded statements: 1,000 rows (5 parameters each) per insert.
  for (let start = 0; start < items.length; start += 1000) {
    const chunk = items.slice(start, start + 1000).map((item) => ({ ...item, companyId: scope.companyId, contactListId }));
    inserted.push(...(await db.insert(contactListItems).values(chunk).onConflictDoNothing().returning()));
  }
  return inserted;
}

export async function updateContactListItem(
  db: DbOrTx,
  scope: TenantScope,
  id: number,
  change: Partial<Pick<ContactListItemRow, 'name' | 'number' | 'email' | 'isWhatsappValid'>>,
): Promise<ContactListItemRow | null> {
  const [row] = await db
    .update(contactListItems)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(contactListItems, scope, eq(contactListItems.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteContactListItem(db: DbOrTx, scope: TenantScope, id: number): Promise<ContactListItemRow | null> {
  const [row] = await db
    .delete(contactListItems)
    .where(inTenant(contactListItems, scope, eq(contactListItems.id, id)))
    .returning();
  return row ?? null;
}

/** Items whose number was never checked on WhatsApp, a batch at a time. */
export async function uncheckedItems(db: DbOrTx, scope: TenantScope, contactListId: number, limit: number): Promise<ContactListItemRow[]> {
  return db
    .select()
    .from(contactListItems)
    .where(inTenant(contactListItems, scope, eq(contactListItems.contactListId, contactListId), isNull(contactListItems.isWhatsappValid)))
    .orderBy(asc(contactListItems.id))
    .limit(limit);
}

export async function markChecked(db: DbOrTx, scope: TenantScope, results: { id: number; valid: boolean }[]): Promise<void> {
  for (const valid of [true, false]) {
    const ids = results.filter((r) => r.valid === valid).map((r) => r.id);
    if (ids.length === 0) continue;
    await db
      .update(contactListItems)
      .set({ isWhatsappValid: valid, updatedAt: new Date() })
      .where(inTenant(contactListItems, scope, inArray(contactListItems.id, ids)));
  }
}

export async function checkProgress(db: DbOrTx, scope: TenantScope, contactListId: number): Promise<{ total: number; unchecked: number }> {
  const [row] = await db
    .select({ total: count(), unchecked: sql<number>`count(*) filter (where ${contactListItems.isWhatsappValid} is null)::int` })
    .from(contactListItems)
    .where(inTenant(contactListItems, scope, eq(contactListItems.contactListId, contactListId)));
  return { total: Number(row?.total ?? 0), unchecked: Number(row?.unchecked ?? 0) };
}

/** The connection numbers are checked through: the company's default connected one, else its first connected one. */
export async function checkingConnection(db: DbOrTx, scope: TenantScope): Promise<WhatsappRow | null> {
  const [connection] = await db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, scope, eq(whatsapps.status, 'CONNECTED')))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  return connection ?? null;
}
