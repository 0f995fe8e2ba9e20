import { recordMessageWebhookEvents } from './message-webhooks.js';
import { fillMessageVariables } from '@atende/shared';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { stripUnsafeText } from '../../platform/text/unsafe-text.js';
import { findConnection } from '../connections/connections.repo.js';
import { clearUnreadMessages, findTicketDetail } from '../tickets/tickets.repo.js';
import type { TicketDetail } from '../tickets/tickets.presenter.js';
import { showTicket, type TicketsDeps } from '../tickets/tickets.service.js';
import { loadSetting } from '../settings/settings.repo.js';
import { showSticker } from '../stickers/stickers.service.js';
import { assertKnownVariables } from './message-variables.js';
import type { MessageDetail } from './messages.presenter.js';
import { findQuotedMessage, loadMessageDetails, markMessageDeleted, markTicketMessagesRead, pageConversation } from './messages.repo.js';
import { outgoingItems, retryFailedMessage, storeAndDeliver, type Delivery, type OutgoingMessagesDeps } from './outgoing-messages.js';

/**
 * The messages module's ports: the tickets' (who may open a conversation; the database's
 * raw executor for the pages it presents), the media storage (attachments, signed URLs)
 * and the channel of the ticket's connection.
 */
export type MessagesDeps = TicketsDeps & OutgoingMessagesDeps & Pick<Platform, 'media'>;

async function connectionOf(deps: Pick<Platform, 'db'>, ctx: TenantScope, ticket: TicketDetail): Promise<WhatsappRow> {
  if (ticket.whatsappId === null) throw new AppError('ERR_NO_WAPP_FOUND');
  const connection = await findConnection(deps.db, ctx, ticket.whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
}

/**
 * A page of the conversation. Opening a ticket (its first page) marks its
 * messages read and resets the unread count.
 */
export async function listMessages(deps: MessagesDeps, ctx: RequestContext, ticketId: number, pageNumber: number) {
  let ticket = await showTicket(deps, ctx, ticketId);
  if (pageNumber === 1 && ticket.unreadMessages > 0) {
    const unread = await deps.db.transaction(async (tx) => {
      const externalIds = await markTicketMessagesRead(tx, ctx, ticketId);
      await clearUnreadMessages(tx, ctx, ticketId);
      return externalIds;
    });
    ticket = { ...ticket, unreadMessages: 0 };
    deps.events.emit('ticket.read', { companyId: ctx.companyId, ticket });
    // Read receipts are a courtesy: a channel that cannot send them must not fail the page.
    connectionOf(deps, ctx, ticket)
      .then((connection) => deps.channels.providerFor(connection).markRead(connection, ticket.contact.number, unread))
      .catch(() => undefined);
  }
  const page = await pageConversation(deps.database.sql, ctx, ticket, pageNumber);
  return { ticket, messages: page.messages, hasMore: page.hasMore };
}

export interface SendInput {
  body: string;
  quotedMsgId?: number | null;
  sign?: boolean;
  files?: { data: Buffer; fileName: string; mimeType: string }[];
  /** A saved sticker of the company (or the agent's own), sent after the text. */
  stickerId?: number | null;
  /** v6's `forceMediaType: 'sticker'`: the uploaded images go as stickers. */
  asSticker?: boolean;
}

/** A saved sticker's file as a send's media (the sticker is looked up in the caller's company: another's is 404). */
async function stickerMedia(deps: MessagesDeps, ctx: RequestContext, stickerId: number): Promise<StoredMedia> {
  const sticker = await showSticker(deps, ctx, stickerId);
  const size = await deps.media.size(sticker.path);
  if (size === null) throw new AppError('ERR_MEDIA_MISSING');
  return { path: sticker.path, name: sticker.name, mimeType: sticker.mimetype, mediaType: 'image', size };
}

/**
 * Stores the agent's messages as pending, then sends each through the ticket's
 * channel and settles it (only open tickets accept messages). When the channel
 * refuses one, the messages stay (failed, with the reason, for a retry) and the
 * channel's error is answered with them in `messages`.
 */
export async function sendMessage(deps: MessagesDeps, ctx: RequestContext, ticketId: number, input: SendInput): Promise<MessageDetail[]> {
  const ticket = await showTicket(deps, ctx, ticketId);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN');
  const files = input.files ?? [];
  const text = input.body.trim();
  const sticker = input.stickerId ? await stickerMedia(deps, ctx, input.stickerId) : null;
  if (!text && files.length === 0 && !sticker) throw new AppError('ERR_EMPTY_MESSAGE', undefined, { fields: { body: ['Required'] } });

  const connection = await connectionOf(deps, ctx, ticket);
  let quotedExternalId: string | null = null;
  if (input.quotedMsgId) {
    const quoted = await findQuotedMessage(deps.db, ctx, input.quotedMsgId);
    if (!quoted || quoted.contactId !== ticket.contactId) throw new AppError('ERR_FETCH_WAPP_MSG');
    quotedExternalId = quoted.externalId;
  }
  // The agent's text goes through the variables like every text a customer gets: a quick message
  // inserted in it (by this web app or any other client) is filled here, for the ticket's contact.
  // Only an unknown {{...}} is refused; a {word} the agent typed is plain text.
  assertKnownVariables({ body: text }, { typed: true });
  const language = text.includes('{') ? await loadSetting(deps.db, ctx, 'language') : undefined;
  const rendered = fillMessageVariables(text, { contact: ticket.contact, protocol: ticket.id, now: new Date(), timeZone: ctx.company.timezone, ...(language ? { language } : {}) });
  const signed = input.sign && rendered ? `*${ctx.user.name}:*\n${rendered}` : rendered;

  // With files, the first one carries the caption; the body of the others is their name.
  const items = text || files.length > 0 ? await outgoingItems(deps, ctx, files, { to: ticket.contact.number, body: signed, quotedExternalId }) : [];
  if (input.asSticker) {
    for (const item of items) if (item.media?.mediaType === 'image') Object.assign(item, { message: { ...item.message, body: '', sticker: true }, data: { sticker: true } });
  }
  if (sticker) {
    const quote = items.length === 0 ? { quotedExternalId } : {};
    items.push({ message: { to: ticket.contact.number, body: '', media: sticker, sticker: true, ...quote }, media: sticker, data: { sticker: true } });
  }
  const deliveries = await storeAndDeliver(deps, ctx, {
    ticketId,
    contactId: ticket.contactId,
    whatsappId: connection.id,
    userId: ctx.user.id,
    source: 'agent',
    quotedMsgId: input.quotedMsgId ?? null,
    items,
  });
  const failure = deliveries.find((d) => d.error)?.error;
  if (failure) throw new SendFailed(failure, deliveries.map((d) => d.message));
  return deliveries.map((d) => d.message);
}

/** The channel refused a stored message: its error, with the messages as stored (failed ones marked). */
export class SendFailed extends Error {
  constructor(
    readonly error: AppError,
    readonly messages: MessageDetail[],
  ) {
    super(error.code);
  }
}

/** An agent sends one of its ticket's failed messages again (`POST /messages/:messageId/retry`). */
export async function retryMessage(deps: MessagesDeps, ctx: RequestContext, messageId: number): Promise<Delivery> {
  const [message] = await loadMessageDetails(deps.db, ctx, [messageId]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  // Only who may open the ticket may retry its messages.
  await showTicket(deps, ctx, message.ticketId);
  if (!message.fromMe || message.sendStatus !== 'failed' || message.isDeleted) throw new AppError('ERR_MESSAGE_NOT_FAILED');
  return retryFailedMessage(deps, ctx, messageId);
}

/** Only one's own side of the conversation can be deleted (spec part 1 §5), for everyone. */
export async function deleteMessage(deps: MessagesDeps, ctx: RequestContext, messageId: number): Promise<MessageDetail> {
  const [message] = await loadMessageDetails(deps.db, ctx, [messageId]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = await showTicket(deps, ctx, message.ticketId);
  const own = message.fromMe && (message.userId === ctx.user.id || ctx.user.profile === 'admin');
  if (!own) throw new AppError('ERR_NO_PERMISSION');
  if (message.isDeleted) return message;
  if (message.externalId && ticket.whatsappId !== null) {
    const connection = await connectionOf(deps, ctx, ticket);
    try {
      await deps.channels.providerFor(connection).deleteMessage(connection, ticket.contact.number, message.externalId);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  }
  await deps.db.transaction(async (tx) => {
    await markMessageDeleted(tx, ctx, messageId);
    await recordMessageWebhookEvents(tx, ctx, 'message.updated', [messageId]);
  });
  const [updated] = await loadMessageDetails(deps.db, ctx, [messageId]);
  if (!updated) throw new AppError('ERR_NO_MESSAGE_FOUND');
  deps.events.emit('message.updated', { companyId: ctx.companyId, ticket, message: updated });
  return updated;
}

export interface AutomaticMessage {
  body: string;
  media?: StoredMedia | null;
  /** Decision 9: 'bot' for chatbot, integration and AI answers; 'system' for automatic notices. */
  source: 'bot' | 'system';
  /** The agent an automatic message speaks for (the greeting on accept). */
  userId?: number | null;
}

/**
 * Stores, then sends, a message the product writes by itself into a ticket of any
 * status (the rating request goes to a closed one) through the ticket's channel,
 * marked with its source so it is shown but never counted as an agent reply. A
 * refused send stays as a failed message and its error is thrown.
 */
export async function sendAutomaticMessage(deps: OutgoingMessagesDeps, scope: TenantScope, ticketId: number, input: AutomaticMessage): Promise<MessageDetail> {
  const ticket = await findTicketDetail(deps.db, scope, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const connection = await connectionOf(deps, scope, ticket);
  const media = input.media ?? undefined;
  const [delivery] = await storeAndDeliver(deps, scope, {
    ticketId,
    contactId: ticket.contactId,
    whatsappId: connection.id,
    userId: input.userId ?? null,
    source: input.source,
    // A bot's or an integration's answer is a peer's text: what PostgreSQL cannot store is removed, never the message.
    items: [{ message: { to: ticket.contact.number, body: stripUnsafeText(input.body), media }, media }],
  });
  if (!delivery) throw new AppError('ERR_CREATING_MESSAGE');
  // Stored either way (a failed one waits for an agent's retry); the caller logs the refusal.
  if (delivery.error) throw delivery.error;
  return delivery.message;
}
