import { CAMPAIGN_MESSAGE_FIELDS, type CampaignBody, type CampaignUpdateBody } from '@atende/shared';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { loadCampaignSettings } from '../campaign-settings/campaign-settings.repo.js';
import { cancelSends, onOutboundSweep, onSendSettled, outboundRuntime, queueSends, resumeSends, sendProgress, wakeOutbound, type QueuedSend } from '../outbound.js';
import type { DbOrTx } from '../../platform/db/client.js';
import { campaigns, contactLists, contacts, fileLists, tags, ticketTags, tickets, whatsapps, type CampaignRow } from '../../platform/db/schema.js';
import { assertIdsInTenant, inTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { mediaTypeOf, type UploadedFile } from '../../platform/storage/media-storage.js';
import { allContactListItems } from '../../modules/contact-lists/contact-lists.repo.js';
import { findFileList } from '../../modules/file-lists/file-lists.service.js';
import { resolveSendAt } from '../schedules/schedules.repo.js';
import { findCampaign, loadCampaigns, lockDueCampaigns, type CampaignDetail } from './campaigns.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'campaign.saved': { companyId: number; action: 'create' | 'update'; campaign: CampaignDetail };
    'campaign.deleted': { companyId: number; campaignId: number };
  }
}

/** Spec part 2 §4: a scheduled campaign is editable until an hour before it starts. */
const EDIT_WINDOW_MS = 60 * 60 * 1000;

export async function showCampaign(services: AppServices, scope: TenantScope, id: number): Promise<CampaignDetail> {
  const campaign = await findCampaign(services.db, scope, id);
  if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return campaign;
}

async function saved(services: AppServices, scope: TenantScope, action: 'create' | 'update', id: number): Promise<CampaignDetail> {
  const campaign = await showCampaign(services, scope, id);
  services.events.emit('campaign.saved', { companyId: scope.companyId, action, campaign });
  return campaign;
}

function messagesOf(row: Pick<CampaignRow, (typeof CAMPAIGN_MESSAGE_FIELDS)[number]>): string[] {
  return CAMPAIGN_MESSAGE_FIELDS.map((field) => row[field].trim()).filter(Boolean);
}

/** The columns a body sets; `tagListId` is the form's name for `tagId`. */
function columnsOf(body: CampaignUpdateBody): Partial<typeof campaigns.$inferInsert> {
  const columns: Partial<typeof campaigns.$inferInsert> = {};
  if (body.name !== undefined) columns.name = body.name;
  for (const field of CAMPAIGN_MESSAGE_FIELDS) if (body[field] !== undefined) columns[field] = body[field];
  if (body.whatsappId !== undefined) columns.whatsappId = body.whatsappId;
  if (body.contactListId !== undefined) columns.contactListId = body.contactListId;
  const tagId = body.tagId !== undefined ? body.tagId : body.tagListId;
  if (tagId !== undefined) columns.tagId = tagId;
  if (body.confirmation !== undefined) columns.confirmation = body.confirmation;
  if (body.fileListId !== undefined) columns.fileListId = body.fileListId;
  return columns;
}

/** The body's columns, its start time read in the company's time zone when it has no offset. */
async function columnsFor(services: AppServices, ctx: RequestContext, body: CampaignUpdateBody): Promise<Partial<typeof campaigns.$inferInsert>> {
  const columns = columnsOf(body);
  if (body.scheduledAt !== undefined) columns.scheduledAt = body.scheduledAt === null ? null : await resolveSendAt(services.db, body.scheduledAt, ctx.company.timezone);
  await assertReferences(services.db, ctx, columns);
  return columns;
}

async function assertReferences(db: DbOrTx, scope: TenantScope, columns: Partial<typeof campaigns.$inferInsert>): Promise<void> {
  if (columns.whatsappId) await assertIdsInTenant(db, scope, whatsapps, [columns.whatsappId], 'ERR_NO_WAPP_FOUND');
  if (columns.contactListId) await assertIdsInTenant(db, scope, contactLists, [columns.contactListId], 'ERR_NO_CONTACT_LIST_FOUND');
  if (columns.tagId) await assertIdsInTenant(db, scope, tags, [columns.tagId], 'ERR_NO_TAG_FOUND');
  if (columns.fileListId) await assertIdsInTenant(db, scope, fileLists, [columns.fileListId], 'ERR_NO_FILE_LIST_FOUND');
}

/** INATIVA without a start time, PROGRAMADA with one (then it must be complete). */
function plannedStatus(merged: CampaignRow): 'INATIVA' | 'PROGRAMADA' {
  if (!merged.scheduledAt) return 'INATIVA';
  if (!merged.whatsappId || (!merged.contactListId && !merged.tagId) || messagesOf(merged).length === 0) throw new AppError('ERR_CAMPAIGN_INCOMPLETE');
  return 'PROGRAMADA';
}

export async function createCampaign(services: AppServices, ctx: RequestContext, body: CampaignBody): Promise<CampaignDetail> {
  const columns = await columnsFor(services, ctx, body);
  const draft = { ...columns, companyId: ctx.companyId, name: body.name } as CampaignRow;
  const status = plannedStatus({ ...draft, message1: draft.message1 ?? '', message2: draft.message2 ?? '', message3: draft.message3 ?? '', message4: draft.message4 ?? '', message5: draft.message5 ?? '' });
  const [row] = await services.db.insert(campaigns).values({ ...columns, companyId: ctx.companyId, name: body.name, status }).returning({ id: campaigns.id });
  if (!row) throw new Error('insert returned nothing');
  const campaign = await saved(services, ctx, 'create', row.id);
  await startIfDue(services, campaign);
  return campaign;
}

/** A campaign saved with a start time already passed starts now rather than at the next sweep. */
async function startIfDue(services: AppServices, campaign: CampaignRow): Promise<void> {
  if (campaign.status === 'PROGRAMADA' && campaign.scheduledAt && campaign.scheduledAt <= outboundRuntime(services).now()) await startDueCampaigns(services);
}

/** Spec part 2 §4: editable when INATIVA, or PROGRAMADA more than an hour ahead; a cancelled one only has its messages edited. */
function assertEditable(campaign: CampaignRow, columns: Partial<typeof campaigns.$inferInsert>, now: Date): void {
  if (campaign.status === 'INATIVA') return;
  if (campaign.status === 'PROGRAMADA' && campaign.scheduledAt && campaign.scheduledAt.getTime() - now.getTime() > EDIT_WINDOW_MS) return;
  if (campaign.status === 'CANCELADA' && Object.keys(columns).every((key) => (CAMPAIGN_MESSAGE_FIELDS as readonly string[]).includes(key))) return;
  throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
}

export async function updateCampaign(services: AppServices, ctx: RequestContext, id: number, body: CampaignUpdateBody): Promise<CampaignDetail> {
  const columns = await columnsFor(services, ctx, body);
  await services.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(campaigns)
      .where(inTenant(campaigns, ctx, eq(campaigns.id, id)))
      .for('update');
    if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    assertEditable(current, columns, outboundRuntime(services).now());
    const merged = { ...current, ...columns } as CampaignRow;
    const status = current.status === 'CANCELADA' ? current.status : plannedStatus(merged);
    await tx.update(campaigns).set({ ...columns, status, updatedAt: new Date() }).where(eq(campaigns.id, id));
  });
  const campaign = await saved(services, ctx, 'update', id);
  await startIfDue(services, campaign);
  return campaign;
}

export async function deleteCampaign(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  const campaign = await showCampaign(services, ctx, id);
  await services.db.transaction(async (tx) => {
    // Nothing queued for it goes out after it is gone.
    await cancelSends(tx, ctx, 'campaign', id);
    await tx.delete(campaigns).where(inTenant(campaigns, ctx, eq(campaigns.id, id)));
  });
  if (campaign.mediaPath) await services.media.remove(ctx, campaign.mediaPath).catch(() => undefined);
  services.events.emit('campaign.deleted', { companyId: ctx.companyId, campaignId: id });
}

/** `POST /campaigns/{id}/cancel`: a scheduled or running campaign stops; its queued sends are cancelled (no further sends). */
export async function cancelCampaign(services: AppServices, ctx: RequestContext, id: number): Promise<CampaignDetail> {
  await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(inTenant(campaigns, ctx, eq(campaigns.id, id))).for('update');
    if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    if (current.status !== 'EM_ANDAMENTO' && current.status !== 'PROGRAMADA') throw new AppError('ERR_CAMPAIGN_STATE');
    await cancelSends(tx, ctx, 'campaign', id);
    await tx.update(campaigns).set({ status: 'CANCELADA', updatedAt: new Date() }).where(eq(campaigns.id, id));
  });
  return saved(services, ctx, 'update', id);
}

/** `POST /campaigns/{id}/restart`: a cancelled campaign goes on with the contacts not yet sent (or starts, if it never did). */
export async function restartCampaign(services: AppServices, ctx: RequestContext, id: number): Promise<CampaignDetail> {
  const wake = await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(inTenant(campaigns, ctx, eq(campaigns.id, id))).for('update');
    if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    if (current.status !== 'CANCELADA') throw new AppError('ERR_CAMPAIGN_STATE');
    const resumed = await resumeSends(tx, ctx, 'campaign', id);
    const started = (await sendProgress(tx, ctx, 'campaign', [id])).has(id) ? null : await queueAudience(services, tx, current);
    await tx.update(campaigns).set({ status: 'EM_ANDAMENTO', completedAt: null, updatedAt: new Date() }).where(eq(campaigns.id, id));
    return [...resumed.whatsappIds, ...(started?.whatsappIds ?? [])];
  });
  await wakeOutbound(services, ctx, wake);
  const campaign = await saved(services, ctx, 'update', id);
  await finishIfDone(services, ctx, [id]);
  return campaign;
}

export async function attachCampaignMedia(services: AppServices, ctx: RequestContext, id: number, readFile: () => Promise<UploadedFile>): Promise<CampaignDetail> {
  const current = await showCampaign(services, ctx, id);
  assertEditable(current, { mediaPath: '' }, outboundRuntime(services).now());
  const file = await readFile();
  const stored = await services.media.save(ctx, file);
  await services.db
    .update(campaigns)
    .set({ mediaPath: stored.path, mediaName: stored.name, mediaMime: stored.mimeType, mediaSize: stored.size, updatedAt: new Date() })
    .where(inTenant(campaigns, ctx, eq(campaigns.id, id)));
  if (current.mediaPath) await services.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(services, ctx, 'update', id);
}

export async function removeCampaignMedia(services: AppServices, ctx: RequestContext, id: number): Promise<CampaignDetail> {
  const current = await showCampaign(services, ctx, id);
  assertEditable(current, { mediaPath: null }, outboundRuntime(services).now());
  await services.db
    .update(campaigns)
    .set({ mediaPath: null, mediaName: null, mediaMime: null, mediaSize: null, updatedAt: new Date() })
    .where(inTenant(campaigns, ctx, eq(campaigns.id, id)));
  if (current.mediaPath) await services.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(services, ctx, 'update', id);
}

// ---- Sending, through the outbound engine ----

interface Recipient {
  name: string;
  number: string;
  email: string;
  contactId: number | null;
}

/** Who a campaign sends to: its contact list's items, else the contacts of tickets carrying its tag. */
async function audienceOf(tx: DbOrTx, scope: TenantScope, campaign: CampaignRow): Promise<Recipient[]> {
  if (campaign.contactListId) {
    return (await allContactListItems(tx, scope, campaign.contactListId)).map((item) => ({ name: item.name, number: item.number, email: item.email, contactId: null }));
  }
  if (!campaign.tagId) return [];
  const tagged = tx
    .selectDistinct({ contactId: tickets.contactId })
    .from(ticketTags)
    .innerJoin(tickets, eq(tickets.id, ticketTags.ticketId))
    .where(inTenant(ticketTags, scope, eq(ticketTags.tagId, campaign.tagId)));
  const rows = await tx
    .select({ id: contacts.id, name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .where(inTenant(contacts, scope, inArray(contacts.id, tagged), eq(contacts.isGroup, false)))
    .orderBy(asc(contacts.id));
  return rows.map((row) => ({ name: row.name, number: row.number, email: row.email ?? '', contactId: row.id }));
}

/** Spec part 2 §9: {nome}, {email}, {numero} and the settings' variables, replaced before the text is stored. */
export function fillCampaignText(text: string, recipient: Recipient, variables: { key: string; value: string }[]): string {
  let filled = text.replace(/\{nome\}/gi, recipient.name).replace(/\{email\}/gi, recipient.email).replace(/\{numero\}/gi, recipient.number);
  for (const { key, value } of variables) filled = filled.split(`{${key}}`).join(value);
  return filled;
}

/** One send record per recipient, the variant chosen round-robin and recorded on it. */
async function queueAudience(services: AppServices, tx: DbOrTx, campaign: CampaignRow) {
  const scope: TenantScope = { companyId: campaign.companyId };
  const messages = messagesOf(campaign);
  if (!campaign.whatsappId || messages.length === 0) return { queued: 0, whatsappIds: [] as number[] };
  const { variables } = await loadCampaignSettings(tx, scope);
  const media = campaign.mediaPath
    ? { path: campaign.mediaPath, name: campaign.mediaName ?? 'file', mimeType: campaign.mediaMime ?? 'application/octet-stream', mediaType: mediaTypeOf(campaign.mediaMime ?? 'application/octet-stream'), size: campaign.mediaSize ?? 0 }
    : undefined;
  // The file list's files go after the text (spec part 2 §2.7), each with its option's name as caption.
  const files = campaign.fileListId ? await findFileList(tx, scope, campaign.fileListId) : null;
  const fileItems = (files?.options ?? [])
    .filter((option) => option.path)
    .map((option) => ({
      body: option.name,
      media: { path: option.path!, name: option.fileName ?? option.name, mimeType: option.mimeType ?? 'application/octet-stream', mediaType: mediaTypeOf(option.mimeType ?? 'application/octet-stream'), size: option.size ?? 0 },
    }));
  const recipients = await audienceOf(tx, scope, campaign);
  const sends: QueuedSend[] = recipients.map((recipient, index) => {
    const variant = index % messages.length;
    return {
      kind: 'campaign',
      sourceId: campaign.id,
      recipient: `number:${recipient.number}`,
      whatsappId: campaign.whatsappId!,
      contactId: recipient.contactId,
      number: recipient.number,
      items: [{ body: fillCampaignText(messages[variant]!, recipient, variables) }, ...(media ? [{ body: '', media }] : []), ...fileItems],
      details: { variant: variant + 1 },
    };
  });
  // Bounded statements for large lists.
  let queued = 0;
  for (let start = 0; start < sends.length; start += 1000) queued += (await queueSends(tx, scope, sends.slice(start, start + 1000))).queued;
  return { queued, whatsappIds: [campaign.whatsappId] };
}

/** Due campaigns (PROGRAMADA, start time passed) become EM_ANDAMENTO with their send records, in one transaction. */
export async function startDueCampaigns(services: AppServices): Promise<void> {
  const now = outboundRuntime(services).now();
  const started: { companyId: number; id: number; whatsappIds: number[] }[] = [];
  await services.db.transaction(async (tx) => {
    for (const campaign of await lockDueCampaigns(tx, now)) {
      const { whatsappIds } = await queueAudience(services, tx, campaign);
      await tx.update(campaigns).set({ status: 'EM_ANDAMENTO', updatedAt: now }).where(eq(campaigns.id, campaign.id));
      started.push({ companyId: campaign.companyId, id: campaign.id, whatsappIds });
    }
  });
  for (const { companyId, id, whatsappIds } of started) {
    await wakeOutbound(services, { companyId }, whatsappIds);
    await saved(services, { companyId }, 'update', id);
    await finishIfDone(services, { companyId }, [id]);
  }
}

/** A running campaign with nothing left to send is FINALIZADA. */
async function finishIfDone(services: AppServices, scope: TenantScope, ids: number[]): Promise<void> {
  const counts = await sendProgress(services.db, scope, 'campaign', ids);
  const done = ids.filter((id) => {
    const c = counts.get(id);
    return !c || c.queued + c.sending === 0;
  });
  if (done.length === 0) return;
  const finished = await services.db
    .update(campaigns)
    .set({ status: 'FINALIZADA', completedAt: sql`now()`, updatedAt: new Date() })
    .where(inTenant(campaigns, scope, inArray(campaigns.id, done), eq(campaigns.status, 'EM_ANDAMENTO')))
    .returning({ id: campaigns.id });
  for (const campaign of await loadCampaigns(services.db, scope, finished.map((row) => row.id))) {
    services.events.emit('campaign.saved', { companyId: scope.companyId, action: 'update', campaign });
  }
}

/** Campaigns follow their sends: each settled send updates the report live; the last one finishes the campaign. */
export function registerCampaignSending(services: AppServices): void {
  onOutboundSweep(services, () => startDueCampaigns(services));
  onSendSettled(services, 'campaign', async (_tx, settled) => {
    const byCompany = new Map<number, Set<number>>();
    for (const send of settled) byCompany.set(send.companyId, (byCompany.get(send.companyId) ?? new Set()).add(send.sourceId));
    return () => {
      void (async () => {
        for (const [companyId, ids] of byCompany) {
          const scope = { companyId };
          for (const campaign of await loadCampaigns(services.db, scope, [...ids])) services.events.emit('campaign.saved', { companyId, action: 'update', campaign });
          await finishIfDone(services, scope, [...ids]);
        }
      })().catch((error: unknown) => outboundRuntime(services).logger.error({ err: error }, 'campaign progress not published'));
    };
  });
}
