import type { CampaignListQuery, CampaignProgress, PresentedCampaign } from '@atende/shared';
import { and, asc, desc, eq, ilike, inArray, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { campaigns, contactLists, whatsapps, type CampaignRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import { sendProgress } from '../outbound.js';
import { inTenant } from '../../platform/db/tenant.js';

export const CAMPAIGNS_PAGE_SIZE = 20;

export interface CampaignDetail extends CampaignRow {
  whatsapp: { id: number; name: string } | null;
  contactList: { id: number; name: string } | null;
  progress: CampaignProgress;
}

const EMPTY_PROGRESS: CampaignProgress = { valid: 0, queued: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 };

export function presentCampaign(row: CampaignDetail, media: Pick<MediaStorage, 'signedUrl'>): PresentedCampaign {
  return {
    id: row.id,
    name: row.name,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    message4: row.message4,
    message5: row.message5,
    status: row.status,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    whatsappId: row.whatsappId,
    whatsapp: row.whatsapp,
    contactListId: row.contactListId,
    contactList: row.contactList,
    tagId: row.tagId,
    fileListId: row.fileListId,
    confirmation: row.confirmation,
    mediaPath: row.mediaPath ? row.mediaName : null,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaUrl: row.mediaPath ? media.signedUrl(row.mediaPath) : null,
    progress: row.progress,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

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
