import { CAMPAIGN_MESSAGE_FIELDS, type CampaignBody, type CampaignListQuery, type CampaignUpdateBody } from '@atende/shared';
import { loadCampaignSettings } from '../campaign-settings/campaign-settings.repo.js';
import { wakeOutbound, type OutboundEngine, type QueuedSend, type SettledSend } from '../outbound-engine.js';
import { cancelSends, listSends, queueSends, resumeSends, sendProgress } from '../outbound.repo.js';
import { sql } from 'drizzle-orm';
import { presentCampaign } from './campaigns.presenter.js';
import type { DbOrTx } from '../../platform/db/client.js';
import { isoTimestampSql } from '../../platform/db/json-sql.js';
import { changeWithWebhookEvents, webhookListens } from '../../modules/webhooks/webhook-outbox.js';
import { contactLists, fileLists, tags, whatsapps, type CampaignRow, type OutboundSendRow } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { mediaTypeOf, type UploadedFile } from '../../platform/storage/media-storage.js';
import { allContactListItems } from '../../modules/contact-lists/contact-lists.repo.js';
import { findFileList } from '../../modules/file-lists/file-lists.repo.js';
import { resolveSendAt } from '../schedules/schedules.repo.js';
import { assertKnownVariables } from '../../modules/messages/message-variables.js';
import {
  deleteCampaignRow,
  findCampaign,
  finishCampaigns,
  finishCampaignsUpdate,
  insertCampaign,
  listCampaigns,
  loadCampaigns,
  lockCampaign,
  lockDueCampaigns,
  setCampaignMedia,
  taggedContacts,
  updateCampaignRow,
  type CampaignColumns,
  type CampaignDetail,
} from './campaigns.repo.js';

/** What campaigns use: the database, events, media, and the outbound engine they send through. */
export type CampaignsDeps = Pick<Platform, 'db' | 'events' | 'media' | 'jobs'> & { outbound: OutboundEngine };

/** Spec part 2 §4: a scheduled campaign is editable until an hour before it starts. */
const EDIT_WINDOW_MS = 60 * 60 * 1000;

export async function listCampaignPage(deps: CampaignsDeps, ctx: RequestContext, query: CampaignListQuery) {
  return listCampaigns(deps.db, ctx, query);
}

async function showCampaign(deps: CampaignsDeps, scope: TenantScope, id: number): Promise<CampaignDetail> {
  const campaign = await findCampaign(deps.db, scope, id);
  if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return campaign;
}

/** The report: the campaign and its failed sends (the first 100) with their reasons. */
export async function showCampaignReport(deps: CampaignsDeps, ctx: RequestContext, id: number): Promise<{ campaign: CampaignDetail; failed: OutboundSendRow[] }> {
  const campaign = await showCampaign(deps, ctx, id);
  const failed = await listSends(deps.db, ctx, 'campaign', campaign.id, { states: ['failed'], limit: 100 });
  return { campaign, failed };
}

async function saved(deps: CampaignsDeps, scope: TenantScope, action: 'create' | 'update', id: number): Promise<CampaignDetail> {
  const campaign = await showCampaign(deps, scope, id);
  deps.events.emit('campaign.saved', { companyId: scope.companyId, action, campaign });
  return campaign;
}

function messagesOf(row: Pick<CampaignRow, (typeof CAMPAIGN_MESSAGE_FIELDS)[number]>): string[] {
  return CAMPAIGN_MESSAGE_FIELDS.map((field) => row[field].trim()).filter(Boolean);
}

/** The columns a body sets; `tagListId` is the form's name for `tagId`. */
function columnsOf(body: CampaignUpdateBody): CampaignColumns {
  const columns: CampaignColumns = {};
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
async function columnsFor(deps: CampaignsDeps, ctx: RequestContext, body: CampaignUpdateBody): Promise<CampaignColumns> {
  const columns = columnsOf(body);
  if (body.scheduledAt !== undefined) columns.scheduledAt = body.scheduledAt === null ? null : await resolveSendAt(deps.db, body.scheduledAt, ctx.company.timezone);
  await assertReferences(deps.db, ctx, columns);
  return columns;
}

async function assertReferences(db: DbOrTx, scope: TenantScope, columns: CampaignColumns): Promise<void> {
  if (columns.whatsappId) await assertIdsInTenant(db, scope, whatsapps, [columns.whatsappId], 'ERR_NO_WAPP_FOUND');
  if (columns.contactListId) await assertIdsInTenant(db, scope, contactLists, [columns.contactListId], 'ERR_NO_CONTACT_LIST_FOUND');
  if (columns.tagId) await assertIdsInTenant(db, scope, tags, [columns.tagId], 'ERR_NO_TAG_FOUND');
  if (columns.fileListId) await assertIdsInTenant(db, scope, fileLists, [columns.fileListId], 'ERR_NO_FILE_LIST_FOUND');
}

type CampaignTexts = Partial<Record<(typeof CAMPAIGN_MESSAGE_FIELDS)[number], string>>;

/**
 * A campaign's messages may use the message variables a campaign has (no protocol:
 * it sends without a ticket) and the keys of the campaign settings' variables;
 * messages resent as `stored` has them are not checked again.
 */
async function assertCampaignVariables(db: DbOrTx, scope: TenantScope, texts: CampaignTexts, stored: CampaignTexts = {}): Promise<void> {
  const pick = (from: CampaignTexts) => Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((field) => [field, from[field]]));
  if (CAMPAIGN_MESSAGE_FIELDS.every((field) => !texts[field] || texts[field] === stored[field])) return;
  const { variables } = await loadCampaignSettings(db, scope);
  assertKnownVariables(pick(texts), { kind: 'campaign', customKeys: variables.map((variable) => variable.key) }, pick(stored));
}

/** INATIVA without a start time, PROGRAMADA with one (then it must be complete). */
function plannedStatus(merged: CampaignRow): 'INATIVA' | 'PROGRAMADA' {
  if (!merged.scheduledAt) return 'INATIVA';
  if (!merged.whatsappId || (!merged.contactListId && !merged.tagId) || messagesOf(merged).length === 0) throw new AppError('ERR_CAMPAIGN_INCOMPLETE');
  return 'PROGRAMADA';
}

export async function createCampaign(deps: CampaignsDeps, ctx: RequestContext, body: CampaignBody): Promise<CampaignDetail> {
  const columns = await columnsFor(deps, ctx, body);
  await assertCampaignVariables(deps.db, ctx, columns);
  const draft = { ...columns, companyId: ctx.companyId, name: body.name } as CampaignRow;
  const status = plannedStatus({ ...draft, message1: draft.message1 ?? '', message2: draft.message2 ?? '', message3: draft.message3 ?? '', message4: draft.message4 ?? '', message5: draft.message5 ?? '' });
  const id = await insertCampaign(deps.db, ctx, { ...columns, name: body.name, status });
  if (id === null) throw new Error('insert returned nothing');
  const campaign = await saved(deps, ctx, 'create', id);
  await startIfDue(deps, campaign);
  return campaign;
}

/** A campaign saved with a start time already passed starts now rather than at the next sweep. */
async function startIfDue(deps: CampaignsDeps, campaign: CampaignRow): Promise<void> {
  if (campaign.status === 'PROGRAMADA' && campaign.scheduledAt && campaign.scheduledAt <= deps.outbound.runtime.now()) await startDueCampaigns(deps);
}

/** Spec part 2 §4: editable when INATIVA, or PROGRAMADA more than an hour ahead; a cancelled one only has its messages edited. */
function assertEditable(campaign: CampaignRow, columns: CampaignColumns, now: Date): void {
  if (campaign.status === 'INATIVA') return;
  if (campaign.status === 'PROGRAMADA' && campaign.scheduledAt && campaign.scheduledAt.getTime() - now.getTime() > EDIT_WINDOW_MS) return;
  if (campaign.status === 'CANCELADA' && Object.keys(columns).every((key) => (CAMPAIGN_MESSAGE_FIELDS as readonly string[]).includes(key))) return;
  throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
}

export async function updateCampaign(deps: CampaignsDeps, ctx: RequestContext, id: number, body: CampaignUpdateBody): Promise<CampaignDetail> {
  const columns = await columnsFor(deps, ctx, body);
  await deps.db.transaction(async (tx) => {
    const current = await lockCampaign(tx, ctx, id);
    if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    assertEditable(current, columns, deps.outbound.runtime.now());
    await assertCampaignVariables(tx, ctx, columns, current);
    const merged = { ...current, ...columns } as CampaignRow;
    const status = current.status === 'CANCELADA' ? current.status : plannedStatus(merged);
    await updateCampaignRow(tx, id, { ...columns, status, updatedAt: new Date() });
  });
  const campaign = await saved(deps, ctx, 'update', id);
  await startIfDue(deps, campaign);
  return campaign;
}

export async function deleteCampaign(deps: CampaignsDeps, ctx: RequestContext, id: number): Promise<void> {
  const campaign = await showCampaign(deps, ctx, id);
  await deps.db.transaction(async (tx) => {
    // Nothing queued for it goes out after it is gone.
    await cancelSends(tx, ctx, 'campaign', id);
    await deleteCampaignRow(tx, ctx, id);
  });
  if (campaign.mediaPath) await deps.media.remove(ctx, campaign.mediaPath).catch(() => undefined);
  deps.events.emit('campaign.deleted', { companyId: ctx.companyId, campaignId: id });
}

/** `POST /campaigns/{id}/cancel`: a scheduled or running campaign stops; its queued sends are cancelled (no further sends). */
export async function cancelCampaign(deps: CampaignsDeps, ctx: RequestContext, id: number): Promise<CampaignDetail> {
  await deps.db.transaction(async (tx) => {
    const current = await lockCampaign(tx, ctx, id);
    if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    if (current.status !== 'EM_ANDAMENTO' && current.status !== 'PROGRAMADA') throw new AppError('ERR_CAMPAIGN_STATE');
    await cancelSends(tx, ctx, 'campaign', id);
    await updateCampaignRow(tx, id, { status: 'CANCELADA', updatedAt: new Date() });
  });
  return saved(deps, ctx, 'update', id);
}

/** `POST /campaigns/{id}/restart`: a cancelled campaign goes on with the contacts not yet sent (or starts, if it never did). */
export async function restartCampaign(deps: CampaignsDeps, ctx: RequestContext, id: number): Promise<CampaignDetail> {
  const wake = await deps.db.transaction(async (tx) => {
    const current = await lockCampaign(tx, ctx, id);
    if (!current) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    if (current.status !== 'CANCELADA') throw new AppError('ERR_CAMPAIGN_STATE');
    const resumed = await resumeSends(tx, ctx, 'campaign', id);
    const started = (await sendProgress(tx, ctx, 'campaign', [id])).has(id) ? null : await queueAudience(deps, tx, current);
    await updateCampaignRow(tx, id, { status: 'EM_ANDAMENTO', completedAt: null, updatedAt: new Date() });
    return [...resumed.whatsappIds, ...(started?.whatsappIds ?? [])];
  });
  await wakeOutbound(deps, ctx, wake);
  const campaign = await saved(deps, ctx, 'update', id);
  await finishIfDone(deps, ctx, [id]);
  return campaign;
}

export async function attachCampaignMedia(deps: CampaignsDeps, ctx: RequestContext, id: number, readFile: () => Promise<UploadedFile>): Promise<CampaignDetail> {
  const current = await showCampaign(deps, ctx, id);
  assertEditable(current, { mediaPath: '' }, deps.outbound.runtime.now());
  const file = await readFile();
  const stored = await deps.media.save(ctx, file);
  await setCampaignMedia(deps.db, ctx, id, stored);
  if (current.mediaPath) await deps.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(deps, ctx, 'update', id);
}

export async function removeCampaignMedia(deps: CampaignsDeps, ctx: RequestContext, id: number): Promise<CampaignDetail> {
  const current = await showCampaign(deps, ctx, id);
  assertEditable(current, { mediaPath: null }, deps.outbound.runtime.now());
  await setCampaignMedia(deps.db, ctx, id, null);
  if (current.mediaPath) await deps.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(deps, ctx, 'update', id);
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
  const rows = await taggedContacts(tx, scope, campaign.tagId);
  return rows.map((row) => ({ name: row.name, number: row.number, email: row.email ?? '', contactId: row.id }));
}

/** One send record per recipient, the variant chosen round-robin and recorded on it. */
async function queueAudience(deps: CampaignsDeps, tx: DbOrTx, campaign: CampaignRow) {
  const scope: TenantScope = { companyId: campaign.companyId };
  const messages = messagesOf(campaign);
  if (!campaign.whatsappId || messages.length === 0) return { queued: 0, whatsappIds: [] as number[] };
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
      // The message is filled when it goes out (outbound-dispatch.ts): the clock of that moment, the settings' variables then.
      items: [{ body: messages[variant]!, template: { contact: { name: recipient.name, number: recipient.number, email: recipient.email } } }, ...(media ? [{ body: '', media }] : []), ...fileItems],
      details: { variant: variant + 1 },
    };
  });
  // Bounded statements for large lists.
  let queued = 0;
  for (let start = 0; start < sends.length; start += 1000) queued += (await queueSends(tx, scope, sends.slice(start, start + 1000))).queued;
  return { queued, whatsappIds: [campaign.whatsappId] };
}

/** Due campaigns (PROGRAMADA, start time passed) become EM_ANDAMENTO with their send records, in one transaction. */
export async function startDueCampaigns(deps: CampaignsDeps): Promise<void> {
  const now = deps.outbound.runtime.now();
  const started: { companyId: number; id: number; whatsappIds: number[] }[] = [];
  await deps.db.transaction(async (tx) => {
    for (const campaign of await lockDueCampaigns(tx, now)) {
      const { whatsappIds } = await queueAudience(deps, tx, campaign);
      await updateCampaignRow(tx, campaign.id, { status: 'EM_ANDAMENTO', updatedAt: now });
      started.push({ companyId: campaign.companyId, id: campaign.id, whatsappIds });
    }
  });
  for (const { companyId, id, whatsappIds } of started) {
    await wakeOutbound(deps, { companyId }, whatsappIds);
    await saved(deps, { companyId }, 'update', id);
    await finishIfDone(deps, { companyId }, [id]);
  }
}

/** Left out of the webhook's campaign: a signed link would expire while the delivery waits. */
const UNSIGNED_MEDIA = { signedUrl: () => '' };

/**
 * The finish and its `campaign.finished` webhook events (issue 34) in one statement: no
 * transaction of its own (the finish runs beside the outbound engine's). Each event carries
 * the campaign as the API shows it, read just before, with its status and times as written.
 */
async function finishWithWebhookEvents(deps: CampaignsDeps, scope: TenantScope, ids: number[]): Promise<number[]> {
  const before = await loadCampaigns(deps.db, scope, ids);
  return changeWithWebhookEvents(deps.db, {
    companyId: scope.companyId,
    event: 'campaign.finished',
    orderingPrefix: 'campaign:',
    change: finishCampaignsUpdate(deps.db, scope, ids).getSQL(),
    presented: new Map(before.map((campaign) => [campaign.id, { ...presentCampaign(campaign, UNSIGNED_MEDIA), mediaUrl: null }])),
    overlay: sql.raw(
      `jsonb_build_object('status', r.status, 'completedAt', ${isoTimestampSql('r.completed_at')}, 'updatedAt', ${isoTimestampSql('r.updated_at')})`,
    ),
  });
}

/** A running campaign with nothing left to send is FINALIZADA. */
async function finishIfDone(deps: CampaignsDeps, scope: TenantScope, ids: number[]): Promise<void> {
  const counts = await sendProgress(deps.db, scope, 'campaign', ids);
  const done = ids.filter((id) => {
    const c = counts.get(id);
    return !c || c.queued + c.sending === 0;
  });
  if (done.length === 0) return;
  const finished = (await webhookListens(deps.db, scope.companyId, 'campaign.finished'))
    ? await finishWithWebhookEvents(deps, scope, done)
    : await finishCampaigns(deps.db, scope, done);
  for (const campaign of await loadCampaigns(deps.db, scope, finished)) {
    deps.events.emit('campaign.saved', { companyId: scope.companyId, action: 'update', campaign });
  }
}

/**
 * Campaigns follow their sends: after the settle's commit each settled send updates
 * the report live, and the last one finishes the campaign.
 */
export async function followCampaignSends(deps: CampaignsDeps, settled: SettledSend[]): Promise<() => void> {
  const byCompany = new Map<number, Set<number>>();
  for (const send of settled) byCompany.set(send.companyId, (byCompany.get(send.companyId) ?? new Set()).add(send.sourceId));
  return () => {
    void (async () => {
      for (const [companyId, ids] of byCompany) {
        const scope = { companyId };
        for (const campaign of await loadCampaigns(deps.db, scope, [...ids])) deps.events.emit('campaign.saved', { companyId, action: 'update', campaign });
        await finishIfDone(deps, scope, [...ids]);
      }
    })().catch((error: unknown) => deps.outbound.runtime.logger.error({ err: error }, 'campaign progress not published'));
  };
}
