import type { CampaignListQuery, CampaignProgress } from '@atende/shared';
import { and, asc, desc, eq, ilike, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { campaigns, contactLists, contacts, ticketTags, tickets, whatsapps, type CampaignRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { sendProgress } from '../outbound.repo.js';
import { inTenant } from '../../platform/db/tenant.js';

const CAMPAIGNS_PAGE_SIZE = 20;

export interface CampaignDetail extends CampaignRow {
  whatsapp: { id: number; name: string } | null;
  contactList: { id: number; name: string } | null;
  progress: CampaignProgress;
}

const EMPTY_PROGRESS: CampaignProgress = { valid: 0, queued: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 };

const detailColumns = { campaign: campaigns, whatsapp: { id: whatsapps.id, name: whatsapps.name }, contactList: { id: contactLists.id, name: contactLists.name } };

async function withProgress(db: DbOrTx, scope: TenantScope, rows: { campaign: CampaignRow; whatsapp: { id: number; name: string } | null; contactList: { id: number; name: string } | null }[]): Promise<CampaignDetail[]> {
  const counts = await sendProgress(db, scope, 'campaign', rows.map((row) => row.campaign.id));
  return rows.map((row) => {
    const c = counts.get(row.campaign.id);
    const progress = c ? { valid: c.total, queued: c.queued + c.sending, sent: c.sent + c.delivered, delivered: c.delivered, failed: c.failed, cancelled: c.cancelled } : EMPTY_PROGRESS;
    return { ...row.campaign, whatsapp: row.whatsapp, contactList: row.contactList, progress };
  });
}

function detailQuery(db: DbOrTx) {
  return db
    .select(detailColumns)
    .from(campaigns)
    .leftJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
    .leftJoin(contactLists, eq(contactLists.id, campaigns.contactListId));
}

export async function findCampaign(db: DbOrTx, scope: TenantScope, id: number): Promise<CampaignDetail | null> {
  const rows = await detailQuery(db).where(inTenant(campaigns, scope, eq(campaigns.id, id))).limit(1);
  const [row] = await withProgress(db, scope, rows);
  return row ?? null;
}

export async function loadCampaigns(db: DbOrTx, scope: TenantScope, ids: number[]): Promise<CampaignDetail[]> {
  if (ids.length === 0) return [];
  return withProgress(db, scope, await detailQuery(db).where(inTenant(campaigns, scope, inArray(campaigns.id, ids))));
}

/** A page of the company's campaigns, newest first; search matches the name. */
export async function listCampaigns(db: DbOrTx, scope: TenantScope, query: CampaignListQuery) {
  const search = query.searchParam.trim();
  const rows = await detailQuery(db)
    .where(inTenant(campaigns, scope, search ? ilike(campaigns.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined))
    .orderBy(desc(campaigns.id))
    .limit(CAMPAIGNS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE);
  return { records: await withProgress(db, scope, rows.slice(0, CAMPAIGNS_PAGE_SIZE)), hasMore: rows.length > CAMPAIGNS_PAGE_SIZE };
}

/** Campaigns whose start time has come, locked for the caller's transaction. */
export async function lockDueCampaigns(tx: DbOrTx, now: Date): Promise<CampaignRow[]> {
  return tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, now)))
    .orderBy(asc(campaigns.scheduledAt), asc(campaigns.id))
    .limit(20)
    .for('update', { skipLocked: true });
}

/** Columns of a campaign an insert or update writes. */
export type CampaignColumns = Partial<typeof campaigns.$inferInsert>;

export async function insertCampaign(db: DbOrTx, scope: TenantScope, values: CampaignColumns & { name: string; status: CampaignRow['status'] }): Promise<number | null> {
  const [row] = await db
    .insert(campaigns)
    .values({ ...values, companyId: scope.companyId })
    .returning({ id: campaigns.id });
  return row?.id ?? null;
}

/** The campaign, locked for the caller's transaction. */
export async function lockCampaign(tx: DbOrTx, scope: TenantScope, id: number): Promise<CampaignRow | null> {
  const [row] = await tx
    .select()
    .from(campaigns)
    .where(inTenant(campaigns, scope, eq(campaigns.id, id)))
    .for('update');
  return row ?? null;
}

/** Writes columns of a campaign the caller has found (and locked) in its company. */
export async function updateCampaignRow(tx: DbOrTx, id: number, columns: CampaignColumns): Promise<void> {
  await tx.update(campaigns).set(columns).where(eq(campaigns.id, id));
}

export async function deleteCampaignRow(tx: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await tx.delete(campaigns).where(inTenant(campaigns, scope, eq(campaigns.id, id)));
}

/** Stores (or, with null, clears) the campaign's attachment. */
export async function setCampaignMedia(db: DbOrTx, scope: TenantScope, id: number, stored: StoredMedia | null): Promise<void> {
  await db
    .update(campaigns)
    .set(
      stored
        ? { mediaPath: stored.path, mediaName: stored.name, mediaMime: stored.mimeType, mediaSize: stored.size, updatedAt: new Date() }
        : { mediaPath: null, mediaName: null, mediaMime: null, mediaSize: null, updatedAt: new Date() },
    )
    .where(inTenant(campaigns, scope, eq(campaigns.id, id)));
}

/** The contacts (not groups) of tickets carrying the tag, by id. */
export async function taggedContacts(tx: DbOrTx, scope: TenantScope, tagId: number) {
  const tagged = tx
    .selectDistinct({ contactId: tickets.contactId })
    .from(ticketTags)
    .innerJoin(tickets, eq(tickets.id, ticketTags.ticketId))
    .where(inTenant(ticketTags, scope, eq(ticketTags.tagId, tagId)));
  return tx
    .select({ id: contacts.id, name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .where(inTenant(contacts, scope, inArray(contacts.id, tagged), eq(contacts.isGroup, false)))
    .orderBy(asc(contacts.id));
}

/** These running campaigns become FINALIZADA (now); answers the ids that did. */
export async function finishCampaigns(db: DbOrTx, scope: TenantScope, ids: number[]): Promise<number[]> {
  const rows = await finishCampaignsUpdate(db, scope, ids);
  return rows.map((row) => row.id);
}

/** The statement of `finishCampaigns` (also run with the webhook events, campaigns.service.ts). */
export function finishCampaignsUpdate(db: DbOrTx, scope: TenantScope, ids: number[]) {
  return db
    .update(campaigns)
    .set({ status: 'FINALIZADA', completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(inTenant(campaigns, scope, inArray(campaigns.id, ids), eq(campaigns.status, 'EM_ANDAMENTO')))
    .returning({ id: campaigns.id, status: campaigns.status, completedAt: campaigns.completedAt, updatedAt: campaigns.updatedAt });
}
