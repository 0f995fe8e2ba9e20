import type { MessageData } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { DbOrTx } from '../../platform/db/client.js';
import type { OutgoingPayload, WhatsappRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import type { StoredMedia, UploadedFile } from '../../platform/storage/media-storage.js';
import { providerKindOf, type ChannelGateway, type ChannelProvider, type OutgoingMessage, type SentMessage } from '../connections/channel-provider.js';
import { findConnection } from '../connections/connections.repo.js';
import { findTicketDetail, setTicketLastMessage } from '../tickets/tickets.repo.js';
import { lastMessagePreview } from './message-preview.js';
import { recordMessageWebhookEvents } from './message-webhooks.js';
import type { MessageDetail } from './messages.presenter.js';
import {
  claimFailedMessage,
  claimStaleMessage,
  deleteEchoOf,
  findPendingMessage,
  giveUpStaleMessage,
  insertPendingMessages,
  listStalePendingMessages,
  loadMessageDetails,
  markSendFailed,
  type SendFailure,
  markSent,
} from './messages.repo.js';

/**
 * What an outgoing send uses: the database, the domain events (the audience sees each
 * message as stored, then as settled) and the channel of the message's connection.
 */
export type OutgoingMessagesDeps = Pick<Platform, 'db' | 'events'> & { channels: ChannelGateway };

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
export async function storePendingMessages(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, batch: PendingBatch): Promise<MessageDetail[]> {
  const ids = await deps.db.transaction((tx) => insertPendingBatch(tx, scope, batch));
  return announcePendingMessages(deps, scope, batch.ticketId, ids);
}

/**
 * The rows of `storePendingMessages`, written in the caller's transaction (the
 * automation stores its replies with the decision that made them); their ids, in order.
 */
export async function insertPendingBatch(tx: DbOrTx, scope: TenantScope, batch: PendingBatch): Promise<number[]> {
  const last = batch.items.at(-1);
  if (!last) return [];
  const inserted = await insertPendingMessages(
    tx,
    scope,
    batch.items.map(({ message, media, template, source, data }) => ({
      ticketId: batch.ticketId,
      contactId: batch.contactId,
      whatsappId: batch.whatsappId,
      userId: batch.userId,
      externalId: null,
      body: message.body || media?.name || '',
      fromMe: true,
      source: source ?? batch.source,
      ack: 0,
      read: true,
      mediaType: media?.mediaType ?? null,
      mediaPath: media?.path ?? null,
      mediaName: media?.name ?? null,
      quotedMsgId: batch.quotedMsgId ?? null,
      sendStatus: 'pending' as const,
      sendAttempts: 1,
      sendPayload: { ...message, ...(template ? { template } : {}) },
      ...(data ? { dataJson: data } : {}),
    })),
  );
  await setTicketLastMessage(tx, scope, batch.ticketId, lastMessagePreview({ body: last.message.body, media: last.media, data: last.data }));
  await recordMessageWebhookEvents(tx, scope, 'message.created', inserted);
  return inserted;
}

/** Once stored messages committed: the audience sees each of them (`message.created`). */
export async function announcePendingMessages(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, ticketId: number, ids: number[]): Promise<MessageDetail[]> {
  if (ids.length === 0) return [];
  const stored = await loadMessageDetails(deps.db, scope, ids);
  const ticket = await findTicketDetail(deps.db, scope, ticketId);
  if (ticket) for (const message of stored) deps.events.emit('message.created', { companyId: scope.companyId, ticket, message });
  return stored;
}

export interface Delivery {
  message: MessageDetail;
  /** Why the channel refused it; null when it was sent. */
  error: AppError | null;
}

/** What the channel said of the refusal, when its provider kept it (`failure` on the error). */
function sendFailureOf(error: AppError): SendFailure | undefined {
  const failure = error.extra.failure;
  return failure && typeof failure === 'object' ? (failure as SendFailure) : undefined;
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
export async function deliverPendingMessage(deps: OutgoingMessagesDeps, scope: TenantScope, messageId: number): Promise<Delivery> {
  const row = await findPendingMessage(deps.db, scope, messageId);
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
  let error: AppError | null = null;
  try {
    if (!row.sendPayload || row.whatsappId === null) throw new AppError('ERR_NO_WAPP_FOUND');
    const connection = await findConnection(deps.db, scope, row.whatsappId);
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
    const { template, ...payload } = row.sendPayload;
    // Keyed by its own row when nothing else keys it: a provider that can (the sandbox) sends a
    // message the recovery hands it again only once; a channel's status naming the key settles it
    // when its answer was lost (messages.repo `attachSentByKey`).
    const message = { ...payload, idempotencyKey: payload.idempotencyKey ?? `message-${row.id}` };
    const sent = template
      ? await sendTemplateThrough(deps, connection, message.to, template)
      : await sendThrough(deps.channels.providerFor(connection), connection, message);
    await settleSent(deps, scope, row.id, row.whatsappId, sent);
  } catch (caught) {
    error = deliveryError(caught);
    await markSendFailed(deps.db, scope, row.id, error.code, sendFailureOf(error));
  }
  const [message] = await loadMessageDetails(deps.db, scope, [row.id]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = await findTicketDetail(deps.db, scope, message.ticketId);
  if (ticket) deps.events.emit('message.updated', { companyId: scope.companyId, ticket, message });
  return { message, error };
}

/**
 * The channel accepted the message: it takes the channel's id and ack (acks only
 * move forward: a status the channel reported meanwhile is kept). A channel that
 * echoes our own send back as a message typed on the phone may have stored it
 * already under that id: the echo gives way to the row the agent sees.
 */
async function settleSent(deps: Pick<Platform, 'db'>, scope: TenantScope, messageId: number, whatsappId: number, sent: SentMessage): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await deleteEchoOf(tx, scope, whatsappId, sent.externalId, messageId);
    await markSent(tx, scope, messageId, sent);
  });
}

/** Stores, then delivers each message of a send in order; what failed is in each delivery's error. */
export async function storeAndDeliver(deps: OutgoingMessagesDeps, scope: TenantScope, batch: PendingBatch): Promise<Delivery[]> {
  const stored = await storePendingMessages(deps, scope, batch);
  const deliveries: Delivery[] = [];
  for (const message of stored) deliveries.push(await deliverPendingMessage(deps, scope, message.id));
  return deliveries;
}

/**
 * An agent sends a failed message again: it is claimed back to pending (only if
 * it is still failed, so two clicks send it once) and delivered.
 */
export async function retryFailedMessage(deps: OutgoingMessagesDeps, scope: TenantScope, messageId: number): Promise<Delivery> {
  if (!(await claimFailedMessage(deps.db, scope, messageId))) throw new AppError('ERR_MESSAGE_NOT_FAILED');
  return deliverPendingMessage(deps, scope, messageId);
}

export interface PendingRecoveryOptions {
  /** A pending message untouched this long has no send in flight (its node stopped). */
  staleMs: number;
  /** Sent later than this after it was written, a message would surprise: it is marked failed instead. */
  giveUpMs: number;
  /** Attempts (the first send included) before a message is marked failed. */
  maxAttempts: number;
}

/** `staleMs` is RECOVERY_AFTER_SECONDS in a running server (main.ts). */
export const PENDING_RECOVERY_DEFAULTS: PendingRecoveryOptions = { staleMs: 5 * 60_000, giveUpMs: 30 * 60_000, maxAttempts: 3 };

/**
 * Messages a stopped node left pending (stored, never settled): each one is
 * claimed (so two nodes never send it twice), then sent again while it is young
 * and has attempts left, or marked failed with ERR_SEND_INTERRUPTED for the agent
 * to retry. Runs at start and then periodically on the worker node.
 */
export async function recoverPendingMessages(
  deps: OutgoingMessagesDeps,
  options: PendingRecoveryOptions = PENDING_RECOVERY_DEFAULTS,
): Promise<{ resent: number; failed: number }> {
  const now = Date.now();
  const staleBefore = new Date(now - options.staleMs);
  const giveUpBefore = new Date(now - options.giveUpMs);
  const stale = await listStalePendingMessages(deps.db, staleBefore, 500);
  const result = { resent: 0, failed: 0 };
  for (const row of stale) {
    const scope: TenantScope = { companyId: row.companyId };
    // An agent deleted it while it waited: it is not sent at all.
    if (row.isDeleted || row.createdAt < giveUpBefore || row.sendAttempts >= options.maxAttempts) {
      const given = await giveUpStaleMessage(deps.db, scope, row.id, staleBefore);
      if (!given) continue;
      result.failed += 1;
      const [message] = await loadMessageDetails(deps.db, scope, [given.id]);
      const ticket = await findTicketDetail(deps.db, scope, given.ticketId);
      if (message && ticket) deps.events.emit('message.updated', { companyId: row.companyId, ticket, message });
      continue;
    }
    if (!(await claimStaleMessage(deps.db, scope, row.id, staleBefore))) continue;
    const delivery = await deliverPendingMessage(deps, scope, row.id);
    if (delivery.error) result.failed += 1;
    else result.resent += 1;
  }
  return result;
}

export interface OutgoingItem {
  message: OutgoingMessage;
  media?: StoredMedia;
  /** A Cloud API template: sent with `sendTemplate`, the message's body being its rendered text. */
  template?: OutgoingPayload['template'];
  /** Who produced this one, when it differs from its batch's (a bot's reply after a system notice). */
  source?: PendingBatch['source'];
  /** Kept on the message as its details (a forward's mark). */
  data?: MessageData;
}

/**
 * What one send becomes: each file saved to the company's storage and sent as
 * its own message, the first one carrying the text as its caption; without
 * files, one text message.
 */
export async function outgoingItems(
  deps: Pick<Platform, 'media'>,
  scope: TenantScope,
  files: UploadedFile[],
  base: { to: string; body: string; quotedExternalId?: string | null },
): Promise<OutgoingItem[]> {
  const items: OutgoingItem[] = [];
  for (const file of files) {
    const media = await deps.media.save(scope, file);
    items.push({ media, message: { ...base, body: items.length === 0 ? base.body : '', media } });
  }
  if (items.length === 0) items.push({ message: base });
  return items;
}

/** A Cloud API template, through the connection (only a Cloud API connection sends templates). */
async function sendTemplateThrough(
  deps: OutgoingMessagesDeps,
  connection: WhatsappRow,
  to: string,
  template: NonNullable<OutgoingPayload['template']>,
): Promise<SentMessage> {
  if (providerKindOf(connection.provider) !== 'cloud-api') throw new AppError('ERR_SENDING_WAPP_MSG');
  try {
    const provider = deps.channels.providerFor(connection);
    if (!provider.sendTemplate) throw new AppError('ERR_SENDING_WAPP_MSG');
    return await provider.sendTemplate(connection, to, template);
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
