import { unknownMessageVariables } from '@atende/shared';
import { eq, sql } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { messages, tickets, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { formatMessage } from './message-variables.js';
import { outgoingItems, retryFailedMessage, storeAndDeliver, type Delivery } from './outgoing-messages.js';
import { findTicketDetail } from '../tickets/tickets.repo.js';
import { showTicket } from '../tickets/tickets.service.js';
import type { TicketDetail } from '../tickets/tickets.presenter.js';
import type { MessageDetail } from './messages.presenter.js';
import { loadMessageDetails, pageConversation } from './messages.repo.js';
import { stripUnsafeText } from '../../platform/text/unsafe-text.js';
import { inTenant } from '../../platform/db/tenant.js';

async function connectionOf(services: AppServices, ctx: TenantScope, ticket: TicketDetail): Promise<WhatsappRow> {
  if (ticket.whatsappId === null) throw new AppError('ERR_NO_WAPP_FOUND');
  const [connection] = await services.db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, ctx, eq(whatsapps.id, ticket.whatsappId)))
    .limit(1);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
}

/**
 * A page of the conversation. Opening a ticket (its first page) marks its
 * messages read and resets the unread count.
 */
export async function listMessages(services: AppServices, ctx: RequestContext, ticketId: number, pageNumber: number) {
  let ticket = await showTicket(services, ctx, ticketId);
  if (pageNumber === 1 && ticket.unreadMessages > 0) {
    const unread = await services.db.transaction(async (tx) => {
      const rows = await tx
        .update(messages)
        .set({ read: true })
        .where(inTenant(messages, ctx, eq(messages.ticketId, ticketId), eq(messages.read, false)))
        .returning({ externalId: messages.externalId });
      await tx.update(tickets).set({ unreadMessages: 0 }).where(inTenant(tickets, ctx, eq(tickets.id, ticketId)));
      return rows.flatMap((r) => (r.externalId ? [r.externalId] : []));
    });
    ticket = { ...ticket, unreadMessages: 0 };
    services.events.emit('ticket.read', { companyId: ctx.companyId, ticket });
    // Read receipts are a courtesy: a channel that cannot send them must not fail the page.
    connectionOf(services, ctx, ticket)
      .then((connection) => services.channels.providerFor(connection).markRead(connection, ticket.contact.number, unread))
      .catch(() => undefined);
  }
  const page = await pageConversation(services.database.sql, ctx, ticket, pageNumber);
  return { ticket, messages: page.messages, hasMore: page.hasMore };
}

export interface SendInput {
  body: string;
  quotedMsgId?: number | null;
  sign?: boolean;
  files?: { data: Buffer; fileName: string; mimeType: string }[];
}

/**
 * Stores the agent's messages as pending, then sends each through the ticket's
 * channel and settles it (only open tickets accept messages). When the channel
 * refuses one, the messages stay (failed, with the reason, for a retry) and the
 * channel's error is answered with them in `messages`.
 */
export async function sendMessage(services: AppServices, ctx: RequestContext, ticketId: number, input: SendInput): Promise<MessageDetail[]> {
  const ticket = await showTicket(services, ctx, ticketId);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN');
  const files = input.files ?? [];
  const text = input.body.trim();
  if (!text && files.length === 0) throw new AppError('ERR_EMPTY_MESSAGE', undefined, { fields: { body: ['Required'] } });

  const connection = await connectionOf(services, ctx, ticket);
  let quotedExternalId: string | null = null;
  if (input.quotedMsgId) {
    const [quoted] = await services.db
      .select({ externalId: messages.externalId, contactId: messages.contactId })
      .from(messages)
      .where(inTenant(messages, ctx, eq(messages.id, input.quotedMsgId)))
      .limit(1);
    if (!quoted || quoted.contactId !== ticket.contactId) throw new AppError('ERR_FETCH_WAPP_MSG');
    quotedExternalId = quoted.externalId;
  }
  // The same variables as the automatic texts (quick messages carry them); an unknown one would reach the customer raw.
  const unknown = unknownMessageVariables(text);
  if (unknown.length > 0) throw new AppError('ERR_UNKNOWN_MESSAGE_VARIABLE', undefined, { fields: { body: unknown.map((name) => `{{${name}}}`) } });
  const rendered = formatMessage(text, { contactName: ticket.contact.name, protocol: ticket.id, now: new Date(), timeZone: ctx.company.timezone });
  const signed = input.sign && rendered ? `*${ctx.user.name}:*\n${rendered}` : rendered;

  // With files, the first one carries the caption; the body of the others is their name.
  const items = await outgoingItems(services, ctx, files, { to: ticket.contact.number, body: signed, quotedExternalId });
  const deliveries = await storeAndDeliver(services, ctx, {
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
export async function retryMessage(services: AppServices, ctx: RequestContext, messageId: number): Promise<Delivery> {
  const [message] = await loadMessageDetails(services.db, ctx, [messageId]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  // Only who may open the ticket may retry its messages.
  await showTicket(services, ctx, message.ticketId);
  if (!message.fromMe || message.sendStatus !== 'failed' || message.isDeleted) throw new AppError('ERR_MESSAGE_NOT_FAILED');
  return retryFailedMessage(services, ctx, messageId);
}

/** Only one's own side of the conversation can be deleted (spec part 1 §5), for everyone. */
export async function deleteMessage(services: AppServices, ctx: RequestContext, messageId: number): Promise<MessageDetail> {
  const [message] = await loadMessageDetails(services.db, ctx, [messageId]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = await showTicket(services, ctx, message.ticketId);
  const own = message.fromMe && (message.userId === ctx.user.id || ctx.user.profile === 'admin');
  if (!own) throw new AppError('ERR_NO_PERMISSION');
  if (message.isDeleted) return message;
  if (message.externalId && ticket.whatsappId !== null) {
    const connection = await connectionOf(services, ctx, ticket);
    try {
      await services.channels.providerFor(connection).deleteMessage(connection, ticket.contact.number, message.externalId);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  }
  await services.db
    .update(messages)
    .set({ isDeleted: true, updatedAt: sql`now()` })
    .where(inTenant(messages, ctx, eq(messages.id, messageId)));
  const [updated] = await loadMessageDetails(services.db, ctx, [messageId]);
  if (!updated) throw new AppError('ERR_NO_MESSAGE_FOUND');
  services.events.emit('message.updated', { companyId: ctx.companyId, ticket, message: updated });
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
export async function sendAutomaticMessage(services: AppServices, scope: TenantScope, ticketId: number, input: AutomaticMessage): Promise<MessageDetail> {
  const ticket = await findTicketDetail(services.db, scope, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const connection = await connectionOf(services, scope, ticket);
  const media = input.media ?? undefined;
  const [delivery] = await storeAndDeliver(services, scope, {
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
