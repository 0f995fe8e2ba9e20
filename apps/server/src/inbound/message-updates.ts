import { recordMessageWebhookEvents } from '../modules/messages/message-webhooks.js';
import type { MessageData } from '@atende/shared';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Platform } from '../platform/platform.js';
import type { OutboundReports } from './inbound-reactions.js';
import { attachSentByKey, failedWith, loadMessageDetails, type SendFailure } from '../modules/messages/messages.repo.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import { contacts, messages, outboundSends } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import type { StoredMedia } from '../platform/storage/media-storage.js';
import { stripUnsafeText } from '../platform/text/unsafe-text.js';
import { inTenant } from '../platform/db/tenant.js';

/** What applying a channel's report about a message uses. */
export type MessageUpdatesDeps = Pick<Platform, 'db' | 'events'>;
/** Delivery reports also settle the outbound engine's sends (schedules, campaigns). */
export type DeliveryReportsDeps = MessageUpdatesDeps & { outboundReports: OutboundReports };

/** A change a channel reports about a message it knows by its own id. */
export interface MessageRef {
  companyId: number;
  whatsappId: number;
  externalId: string;
}

async function publishUpdate(services: MessageUpdatesDeps, scope: TenantScope, messageId: number): Promise<void> {
  const [message] = await loadMessageDetails(services.db, scope, [messageId]);
  if (!message) return;
  const ticket = await findTicketDetail(services.db, scope, message.ticketId);
  if (ticket) services.events.emit('message.updated', { companyId: scope.companyId, ticket, message });
}

/** A message whose file the channel is still fetching. */
function mediaPending() {
  return sql`${messages.dataJson} -> 'media' ->> 'status' = 'pending'`;
}

function byRef(ref: MessageRef) {
  return inTenant(messages, ref, eq(messages.whatsappId, ref.whatsappId), eq(messages.externalId, ref.externalId));
}

/**
 * Whether a channel id names a message or a schedule's or campaign's send stored
 * here. A status the channel reports before our send stored the id it answered
 * (both race) finds nothing yet; the caller tries it again a little later.
 */
export async function isKnownSend(services: MessageUpdatesDeps, ref: MessageRef): Promise<boolean> {
  const [message] = await services.db.select({ id: messages.id }).from(messages).where(byRef(ref)).limit(1);
  if (message) return true;
  const [send] = await services.db
    .select({ id: outboundSends.id })
    .from(outboundSends)
    .where(inTenant(outboundSends, ref, eq(outboundSends.whatsappId, ref.whatsappId), eq(outboundSends.externalId, ref.externalId)))
    .limit(1);
  return Boolean(send);
}

/**
 * A channel's positive status (sent, delivered, read) for an id nothing here has, naming the send
 * it belongs to by our own key (the Cloud API's `biz_opaque_callback_data`): the process that sent
 * it stopped, or got no answer, before storing the id, and would otherwise report it failed
 * (ERR_SEND_INTERRUPTED) or send it again. The message takes the id and counts as sent, the
 * outbound send (campaign, schedule) it belongs to is settled by it, then the ack applies.
 * Answers whether the key named a send of ours.
 */
export async function confirmSendByKey(services: DeliveryReportsDeps, ref: MessageRef, key: string, ack: number): Promise<boolean> {
  const messageId = await attachSentByKey(services.db, ref, key);
  const outbound = await services.outboundReports.confirmByKey(ref, key);
  if (messageId === null && !outbound) return false;
  if (!(await applyAck(services, ref, ack)) && messageId !== null) await publishUpdate(services, ref, messageId);
  return true;
}

/** Acks only move forward (ARCHITECTURE §3.5): a late "delivered" never undoes "read". Returns whether it changed. */
export async function applyAck(services: DeliveryReportsDeps, ref: MessageRef, ack: number): Promise<boolean> {
  // A schedule's or campaign's send learns it was delivered (it may have no message row).
  await services.outboundReports.applyAck(ref, ack);
  const row = await services.db.transaction(async (tx) => {
    const [updated] = await tx
    .update(messages)
    .set({
      ack,
      // Delivered or read proves a "failed" reported out of order wrong.
      ...(ack >= 2 ? { sendStatus: sql`case when ${messages.sendStatus} = 'failed' then 'sent' else ${messages.sendStatus} end`, sendError: sql`case when ${messages.sendStatus} = 'failed' then null else ${messages.sendError} end` } : {}),
      updatedAt: new Date(),
    })
    .where(and(byRef(ref), lt(messages.ack, ack)))
    .returning({ id: messages.id });
    if (updated) await recordMessageWebhookEvents(tx, { companyId: ref.companyId }, 'message.updated', [updated.id]);
    return updated;
  });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/** What the channel bills for a sent message (Cloud API statuses' conversation and pricing), kept on it; not announced. */
export async function applyBilling(services: Pick<Platform, 'db'>, ref: MessageRef, billing: NonNullable<MessageData['billing']>): Promise<void> {
  await services.db
    .update(messages)
    .set({ dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || jsonb_build_object('billing', coalesce(${messages.dataJson} -> 'billing', '{}'::jsonb) || ${JSON.stringify(billing)}::jsonb)` })
    .where(and(byRef(ref), eq(messages.fromMe, true)));
}

/** The sender edited the message: new text (cleaned like an inbound message's), and the edited mark. */
export async function applyEdit(services: MessageUpdatesDeps, ref: MessageRef, body: string): Promise<boolean> {
  const row = await services.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(messages)
      .set({ body: stripUnsafeText(body), isEdited: true, updatedAt: new Date() })
      .where(byRef(ref))
      .returning({ id: messages.id });
    if (updated) await recordMessageWebhookEvents(tx, { companyId: ref.companyId }, 'message.updated', [updated.id]);
    return updated;
  });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/** The sender deleted the message for everyone: kept, marked deleted. */
export async function applyRevoke(services: MessageUpdatesDeps, ref: MessageRef): Promise<boolean> {
  const row = await services.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(messages)
      .set({ isDeleted: true, updatedAt: new Date() })
      .where(byRef(ref))
      .returning({ id: messages.id });
    if (updated) await recordMessageWebhookEvents(tx, { companyId: ref.companyId }, 'message.updated', [updated.id]);
    return updated;
  });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/**
 * A customer's reaction to a message: one per person, the latest wins, an empty
 * emoji removes it. Answers false when the channel's message is not stored here.
 */
export async function applyReaction(services: MessageUpdatesDeps, ref: MessageRef, from: string, emoji: string): Promise<boolean> {
  const text = stripUnsafeText(emoji).slice(0, 32);
  const added = text ? sql`jsonb_build_array(jsonb_build_object('from', ${from}::text, 'emoji', ${text}::text))` : sql`'[]'::jsonb`;
  const [row] = await services.db
    .update(messages)
    .set({
      dataJson: sql`jsonb_set(coalesce(${messages.dataJson}, '{}'::jsonb), '{reactions}',
        coalesce((select jsonb_agg(r) from jsonb_array_elements(coalesce(${messages.dataJson} -> 'reactions', '[]'::jsonb)) r where r ->> 'from' <> ${from}::text), '[]'::jsonb) || ${added})`,
      updatedAt: new Date(),
    })
    .where(byRef(ref))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/**
 * The channel reported that a message we sent failed after accepting it: marked
 * failed with our error code (shown translated, with Retry) and the channel's own
 * words kept. Answers whether a message changed.
 */
export async function applySendFailure(services: DeliveryReportsDeps, ref: MessageRef, code: string, failure: SendFailure): Promise<boolean> {
  await services.outboundReports.applyFailure(ref, code);
  const [row] = await services.db
    .update(messages)
    .set(failedWith(code, failure))
    // A message already delivered or read did not fail (statuses can arrive out of order).
    .where(and(byRef(ref), eq(messages.fromMe, true), lt(messages.ack, 2)))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/** Whether a stored message still waits for its file (a webhook delivered twice queues its download twice). */
export async function hasPendingMedia(services: Pick<Platform, 'db'>, ref: MessageRef): Promise<boolean> {
  const [row] = await services.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(byRef(ref), mediaPending()))
    .limit(1);
  return Boolean(row);
}

/** A media message stored while its file was fetched: the file arrived (media) or will not (reason). */
export async function settlePendingMedia(services: MessageUpdatesDeps, ref: MessageRef, outcome: { media: StoredMedia } | { reason: string }): Promise<boolean> {
  const fields =
    'media' in outcome
      ? {
          mediaType: outcome.media.mediaType,
          mediaPath: outcome.media.path,
          mediaName: outcome.media.name,
          dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) - 'media'`,
        }
      : { dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || jsonb_build_object('media', jsonb_build_object('status', 'unavailable', 'reason', ${outcome.reason}::text))` };
  const [row] = await services.db
    .update(messages)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(byRef(ref), mediaPending()))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/** A poll's key that decrypts its votes, its options and whether we created it; null when no poll has that id. */
export async function pollKeyOf(services: Pick<Platform, 'db'>, ref: MessageRef): Promise<{ secret: string; options: string[]; fromMe: boolean } | null> {
  const [row] = await services.db.select({ data: messages.dataJson, fromMe: messages.fromMe }).from(messages).where(byRef(ref)).limit(1);
  const poll = row?.data?.poll;
  const secret = row?.data?.pollSecret;
  return poll && secret ? { secret, options: poll.options.map((option) => option.name), fromMe: row.fromMe } : null;
}

/**
 * A vote on a poll (WhatsApp Web, decrypted by the channel): the voter's choice replaces their
 * earlier one (an empty choice withdraws it) and the poll's counts are recomputed from every
 * voter's current choice. Answers whether the poll is stored here.
 */
export async function applyPollVote(services: MessageUpdatesDeps, ref: MessageRef, voter: string, choice: string[]): Promise<boolean> {
  const messageId = await services.db.transaction(async (tx) => {
    const [row] = await tx.select({ id: messages.id, data: messages.dataJson }).from(messages).where(byRef(ref)).limit(1).for('update');
    const data = row?.data;
    if (!row || !data?.poll) return null;
    const votes = { ...(data.pollVotes ?? {}) };
    if (choice.length > 0) votes[voter] = choice;
    else delete votes[voter];
    const chosen = Object.values(votes);
    const poll = { ...data.poll, options: data.poll.options.map((option) => ({ name: option.name, votes: chosen.filter((names) => names.includes(option.name)).length })), voters: chosen.length };
    await tx.update(messages).set({ dataJson: { ...data, poll, pollVotes: votes }, updatedAt: new Date() }).where(eq(messages.id, row.id));
    return row.id;
  });
  if (messageId === null) return false;
  await publishUpdate(services, ref, messageId);
  return true;
}

/** A live location message moved to a later position: its text (the map link), position and live part. */
function movedTo(body: string, data: MessageData) {
  return {
    body: stripUnsafeText(body),
    dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || ${JSON.stringify({ location: data.location, live: data.live })}::jsonb`,
    updatedAt: new Date(),
  };
}

/** How long after it started a live location can still be moving (WhatsApp offers up to 8 hours). */
const LIVE_LOCATION_HOURS = 12;

/**
 * A live location's later position. WhatsApp Web sends each update as a message of its own with
 * a growing sequence number: it moves the chat's live location message of the same sender (one
 * started within the last hours, with a lower sequence) instead of adding a line. Answers whether
 * one was moved.
 */
export async function applyLiveLocation(
  services: MessageUpdatesDeps,
  chat: { companyId: number; whatsappId: number; number: string; senderName?: string | null },
  body: string,
  data: MessageData,
): Promise<boolean> {
  if (!data.live || !data.location) return false;
  const messageId = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(
        and(
          inTenant(messages, chat, eq(messages.whatsappId, chat.whatsappId), eq(messages.fromMe, false)),
          eq(contacts.number, chat.number),
          sql`${messages.dataJson} ? 'live'`,
          sql`(${messages.dataJson} -> 'live' ->> 'sequence')::bigint < ${data.live?.sequence ?? 0}`,
          sql`${messages.createdAt} > now() - make_interval(hours => ${LIVE_LOCATION_HOURS})`,
          sql`coalesce(${messages.senderName}, '') = ${chat.senderName ?? ''}`,
        ),
      )
      .orderBy(sql`${messages.id} desc`)
      .limit(1)
      .for('update', { of: messages });
    if (!row) return null;
    await tx
      .update(messages)
      .set(movedTo(body, data))
      .where(eq(messages.id, row.id));
    return row.id;
  });
  if (messageId === null) return false;
  await publishUpdate(services, chat, messageId);
  return true;
}

/** A live location's later position for a message known by its id (an update WhatsApp sends as such). */
export async function moveLiveLocation(services: MessageUpdatesDeps, ref: MessageRef, body: string, data: MessageData): Promise<boolean> {
  if (!data.live || !data.location) return false;
  const [row] = await services.db
    .update(messages)
    .set(movedTo(body, data))
    .where(and(byRef(ref), sql`${messages.dataJson} ? 'live'`, sql`(${messages.dataJson} -> 'live' ->> 'sequence')::bigint < ${data.live.sequence}`))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}
