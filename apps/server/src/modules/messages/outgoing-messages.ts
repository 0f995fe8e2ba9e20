import { and, asc, eq, lte, ne, sql } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { lastMessagePreview } from './message-preview.js';
import type { MessageDetail } from './messages.presenter.js';
import { loadMessageDetails } from './messages.repo.js';
import { findTicketDetail } from '../tickets/tickets.repo.js';
import { messages, tickets, whatsapps } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { StoredMedia, UploadedFile } from '../../platform/storage/media-storage.js';
import { AppError } from '../../platform/http/app-error.js';
import { providerKindOf, type ChannelProvider, type OutgoingMessage, type SentMessage } from '../connections/channel-provider.js';
import type { OutgoingPayload, WhatsappRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';

/** Messages of one send, all going to one ticket's contact through one connection. */
export interface PendingBatch {
  ticketId: number;
  contactId: number;
  whatsappId: number;
  userId: number | null;
  source: 'agent' | 'bot' | 'system';
  quotedMsgId?: number | null;
  items: OutgoingItem[];
}

/**
 * First step of every outgoing send (ARCHITECTURE §3.14): the messages are rows,
 * pending (ack 0) with what the channel will get, before anything reaches the
 * channel; the ticket's last message is updated and the audience sees them at once.
 */
export async function storePendingMessages(services: AppServices, scope: TenantScope, batch: PendingBatch): Promise<MessageDetail[]> {
  const last = batch.items.at(-1);
  if (!last) return [];
  const ids = await services.db.transaction(async (tx) => {
    const rows = await tx
      .insert(messages)
      .values(
        batch.items.map(({ message, media, template }) => ({
          companyId: scope.companyId,
          ticketId: batch.ticketId,
          contactId: batch.contactId,
          whatsappId: batch.whatsappId,
          userId: batch.userId,
          externalId: null,
          body: message.body || media?.name || '',
          fromMe: true,
          source: batch.source,
          ack: 0,
          read: true,
          mediaType: media?.mediaType ?? null,
          mediaPath: media?.path ?? null,
          mediaName: media?.name ?? null,
          quotedMsgId: batch.quotedMsgId ?? null,
          sendStatus: 'pending' as const,
          sendAttempts: 1,
          sendPayload: { ...message, ...(template ? { template } : {}) },
        })),
      )
      .returning({ id: messages.id });
    await tx
      .update(tickets)
      .set({ lastMessage: lastMessagePreview({ body: last.message.body, media: last.media }), updatedAt: new Date() })
      .where(inTenant(tickets, scope, eq(tickets.id, batch.ticketId)));
    return rows.map((row) => row.id).sort((a, b) => a - b);
  });
  const stored = await loadMessageDetails(services.db, scope, ids);
  const ticket = await findTicketDetail(services.db, scope, batch.ticketId);
  if (ticket) for (const message of stored) services.events.emit('message.created', { companyId: scope.companyId, ticket, message });
  return stored;
}

export interface Delivery {
  message: MessageDetail;
  /** Why the channel refused it; null when it was sent. */
  error: AppError | null;
}

function deliveryError(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError('ERR_SENDING_WAPP_MSG');
}

/**
 * Second step: hands a pending message (claimed by the caller: just stored,
 * retried or recovered) to its connection's channel and settles the row with the
 * channel's id and ack, or marks it failed with the error code. Either way the
 * audience gets the message's update.
 */
export async function deliverPendingMessage(services: AppServices, scope: TenantScope, messageId: number): Promise<Delivery> {
  const [row] = await services.db
    .select()
    .from(messages)
    .where(inTenant(messages, scope, eq(messages.id, messageId), eq(messages.sendStatus, 'pending')))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
  let error: AppError | null = null;
  try {
    if (!row.sendPayload || row.whatsappId === null) throw new AppError('ERR_NO_WAPP_FOUND');
    const [connection] = await services.db
      .select()
      .from(whatsapps)
      .where(inTenant(whatsapps, scope, eq(whatsapps.id, row.whatsappId)))
      .limit(1);
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
    const { template, ...message } = row.sendPayload;
    const sent = template
      ? await sendTemplateThrough(services, connection, message.to, template)
      : await sendThrough(services.channels.providerFor(connection), connection, message);
    await settleSent(services, scope, row.id, row.whatsappId, sent);
  } catch (caught) {
    error = deliveryError(caught);
    await services.db
      .update(messages)
      .set({ sendStatus: 'failed', sendError: error.code, updatedAt: new Date() })
      .where(inTenant(messages, scope, eq(messages.id, row.id), eq(messages.sendStatus, 'pending')));
  }
  const [message] = await loadMessageDetails(services.db, scope, [row.id]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = await findTicketDetail(services.db, scope, message.ticketId);
  if (ticket) services.events.emit('message.updated', { companyId: scope.companyId, ticket, message });
  return { message, error };
}

/**
 * The channel accepted the message: it takes the channel's id and ack (acks only
 * move forward: a status the channel reported meanwhile is kept). A channel that
 * echoes our own send back as a message typed on the phone may have stored it
 * already under that id: the echo gives way to the row the agent sees.
 */
async function settleSent(services: AppServices, scope: TenantScope, messageId: number, whatsappId: number, sent: SentMessage): Promise<void> {
  await services.db.transaction(async (tx) => {
    await tx
      .delete(messages)
      .where(
        inTenant(messages, scope, eq(messages.whatsappId, whatsappId), eq(messages.externalId, sent.externalId), eq(messages.source, 'phone'), ne(messages.id, messageId)),
      );
    await tx
      .update(messages)
      .set({
        externalId: sent.externalId,
        ack: sql`greatest(${messages.ack}, ${sent.ack})`,
        sendStatus: 'sent',
        sendError: null,
        ...(sent.data ? { dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || ${JSON.stringify(sent.data)}::jsonb` } : {}),
        updatedAt: new Date(),
      })
      .where(inTenant(messages, scope, eq(messages.id, messageId)));
  });
}

/** Stores, then delivers each message of a send in order; what failed is in each delivery's error. */
export async function storeAndDeliver(services: AppServices, scope: TenantScope, batch: PendingBatch): Promise<Delivery[]> {
  const stored = await storePendingMessages(services, scope, batch);
  const deliveries: Delivery[] = [];
  for (const message of stored) deliveries.push(await deliverPendingMessage(services, scope, message.id));
  return deliveries;
}

/**
 * An agent sends a failed message again: it is claimed back to pending (only if
 * it is still failed, so two clicks send it once) and delivered.
 */
export async function retryFailedMessage(services: AppServices, scope: TenantScope, messageId: number): Promise<Delivery> {
  const [claimed] = await services.db
    .update(messages)
    .set({ sendStatus: 'pending', sendError: null, sendAttempts: sql`${messages.sendAttempts} + 1`, updatedAt: new Date() })
    .where(inTenant(messages, scope, eq(messages.id, messageId), eq(messages.sendStatus, 'failed'), eq(messages.isDeleted, false)))
    .returning({ id: messages.id });
  if (!claimed) throw new AppError('ERR_MESSAGE_NOT_FAILED');
  return deliverPendingMessage(services, scope, messageId);
}

export interface PendingRecoveryOptions {
  /** A pending message untouched this long has no send in flight (its node stopped). */
  staleMs: number;
  /** Sent later than this after it was written, a message would surprise: it is marked failed instead. */
  giveUpMs: number;
  /** Attempts (the first send included) before a message is marked failed. */
  maxAttempts: number;
}

export const PENDING_RECOVERY_DEFAULTS: PendingRecoveryOptions = { staleMs: 5 * 60_000, giveUpMs: 30 * 60_000, maxAttempts: 3 };

/**
 * Messages a stopped node left pending (stored, never settled): each one is
 * claimed (so two nodes never send it twice), then sent again while it is young
 * and has attempts left, or marked failed with ERR_SEND_INTERRUPTED for the agent
 * to retry. Runs at start and then periodically on the worker node.
 */
export async function recoverPendingMessages(
  services: AppServices,
  options: PendingRecoveryOptions = PENDING_RECOVERY_DEFAULTS,
): Promise<{ resent: number; failed: number }> {
  const now = Date.now();
  const staleBefore = new Date(now - options.staleMs);
  const giveUpBefore = new Date(now - options.giveUpMs);
  const stale = await services.db
    .select({ id: messages.id, companyId: messages.companyId, createdAt: messages.createdAt, sendAttempts: messages.sendAttempts, isDeleted: messages.isDeleted })
    .from(messages)
    // Messages of the outbound engine (a key in their payload) are re-checked by it (outbound/outbound.ts).
    .where(and(eq(messages.sendStatus, 'pending'), lte(messages.updatedAt, staleBefore), sql`${messages.sendPayload} ->> 'idempotencyKey' is null`))
    .orderBy(asc(messages.id))
    .limit(500);
  const result = { resent: 0, failed: 0 };
  for (const row of stale) {
    const scope: TenantScope = { companyId: row.companyId };
    const stillStale = inTenant(messages, row, eq(messages.id, row.id), eq(messages.sendStatus, 'pending'), lte(messages.updatedAt, staleBefore));
    // An agent deleted it while it waited: it is not sent at all.
    if (row.isDeleted || row.createdAt < giveUpBefore || row.sendAttempts >= options.maxAttempts) {
      const [given] = await services.db
        .update(messages)
        .set({ sendStatus: 'failed', sendError: 'ERR_SEND_INTERRUPTED', updatedAt: new Date() })
        .where(stillStale)
        .returning({ id: messages.id, ticketId: messages.ticketId });
      if (!given) continue;
      result.failed += 1;
      const [message] = await loadMessageDetails(services.db, scope, [given.id]);
      const ticket = await findTicketDetail(services.db, scope, given.ticketId);
      if (message && ticket) services.events.emit('message.updated', { companyId: row.companyId, ticket, message });
      continue;
    }
    const [claimed] = await services.db
      .update(messages)
      .set({ sendAttempts: sql`${messages.sendAttempts} + 1`, updatedAt: new Date() })
      .where(stillStale)
      .returning({ id: messages.id });
    if (!claimed) continue;
    const delivery = await deliverPendingMessage(services, scope, claimed.id);
    if (delivery.error) result.failed += 1;
    else result.resent += 1;
  }
  return result;
}

/** Runs the recovery now and every `intervalMs`; the returned function stops it. */
export function startPendingRecovery(
  services: AppServices,
  onError: (error: unknown) => void,
  intervalMs = 60_000,
  options: PendingRecoveryOptions = PENDING_RECOVERY_DEFAULTS,
): () => void {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running) return;
    running = recoverPendingMessages(services, options)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface OutgoingItem {
  message: OutgoingMessage;
  media?: StoredMedia;
  /** A Cloud API template: sent with `sendTemplate`, the message's body being its rendered text. */
  template?: OutgoingPayload['template'];
}

/**
 * What one send becomes: each file saved to the company's storage and sent as
 * its own message, the first one carrying the text as its caption; without
 * files, one text message.
 */
export async function outgoingItems(
  services: Pick<AppServices, 'media'>,
  scope: TenantScope,
  files: UploadedFile[],
  base: { to: string; body: string; quotedExternalId?: string | null },
): Promise<OutgoingItem[]> {
  const items: OutgoingItem[] = [];
  for (const file of files) {
    const media = await services.media.save(scope, file);
    items.push({ media, message: { ...base, body: items.length === 0 ? base.body : '', media } });
  }
  if (items.length === 0) items.push({ message: base });
  return items;
}

/** A Cloud API template, through the connection (only a Cloud API connection sends templates). */
async function sendTemplateThrough(
  services: AppServices,
  connection: WhatsappRow,
  to: string,
  template: NonNullable<OutgoingPayload['template']>,
): Promise<SentMessage> {
  if (providerKindOf(connection.provider) !== 'cloud-api') throw new AppError('ERR_SENDING_WAPP_MSG');
  try {
    return await services.channels.cloudApi().provider.sendTemplate(connection, to, template);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('ERR_SENDING_WAPP_MSG');
  }
}

/** Sends one message; a provider failure that is not a business error becomes ERR_SENDING_WAPP_MSG. */
export async function sendThrough(provider: ChannelProvider, connection: WhatsappRow, message: OutgoingMessage): Promise<SentMessage> {
  try {
    return await provider.send(connection, message);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('ERR_SENDING_WAPP_MSG');
  }
}
