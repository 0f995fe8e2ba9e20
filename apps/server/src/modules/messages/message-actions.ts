import { recordMessageWebhookEvents } from './message-webhooks.js';
import path from 'node:path';
import { MESSAGE_EDIT_WINDOW_MINUTES, type MessageData } from '@atende/shared';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { contacts } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { mediaTypeOf, type MediaType, type StoredMedia } from '../../platform/storage/media-storage.js';
import type { ChannelMessageRef, ChannelProvider } from '../connections/channel-provider.js';
import { findConnection } from '../connections/connections.repo.js';
import type { TicketDetail } from '../tickets/tickets.presenter.js';
import { findActiveTicket, findTicketDetail } from '../tickets/tickets.repo.js';
import { createTicket, showTicket } from '../tickets/tickets.service.js';
import type { MessageDetail } from './messages.presenter.js';
import { lastMessagePreview } from './message-preview.js';
import { countCompanyMessages, loadMessageDetails, refreshEditedPreview, saveEditedBody, saveOwnReaction } from './messages.repo.js';
import type { MessagesDeps } from './messages.service.js';
import { storeAndDeliver, type OutgoingItem } from './outgoing-messages.js';

/**
 * What an agent does to a message already in a conversation (issue 32): edit one of our texts,
 * react to any message, forward messages to other contacts. Each goes through the channel of the
 * message's connection first and is stored only once the channel took it; the audience sees the
 * change as a message update.
 */

/** A message of the caller's company, in a ticket the caller may open; another company's is 404. */
async function visibleMessage(deps: MessagesDeps, ctx: RequestContext, messageId: number): Promise<{ message: MessageDetail; ticket: TicketDetail }> {
  const [message] = await loadMessageDetails(deps.db, ctx, [messageId]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = await showTicket(deps, ctx, message.ticketId);
  return { message, ticket };
}

/** The connection the message went through (or came in by). */
async function connectionOfMessage(deps: MessagesDeps, ctx: RequestContext, message: MessageDetail): Promise<WhatsappRow> {
  const connection = message.whatsappId === null ? null : await findConnection(deps.db, ctx, message.whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
}

/** The channel's copy of a message: a message the channel never took (pending, failed) has none. */
function channelRef(message: MessageDetail, ticket: TicketDetail): ChannelMessageRef {
  if (!message.externalId || message.sendStatus === 'pending' || message.sendStatus === 'failed') throw new AppError('ERR_MESSAGE_NOT_SENT');
  return { to: ticket.contact.number, externalId: message.externalId, fromMe: message.fromMe };
}

/** A provider's failure that is not one of our codes becomes `fallback`. */
async function throughChannel(run: () => Promise<void>, fallback: 'ERR_EDITING_WAPP_MSG' | 'ERR_SENDING_WAPP_MSG'): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(fallback);
  }
}

async function updated(deps: MessagesDeps, ctx: RequestContext, ticket: TicketDetail, messageId: number): Promise<MessageDetail> {
  const [message] = await loadMessageDetails(deps.db, ctx, [messageId]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  deps.events.emit('message.updated', { companyId: ctx.companyId, ticket, message });
  return message;
}

/** What of a message is text an agent may rewrite: no file, no card, poll, location or call. */
function isPlainText(message: MessageDetail): boolean {
  const data: MessageData = message.dataJson ?? {};
  return (message.mediaType === null || message.mediaType === 'chat') && !message.mediaPath && !data.poll && !data.order && !data.event && !data.location && !data.contacts && !data.reaction;
}

/**
 * `POST /messages/edit/:messageId` (and `PUT /messages/:id`): a new text for one of our sent texts,
 * as WhatsApp allows it: by its author (or an admin, as for delete), within 15 minutes of sending,
 * not deleted. The channel edits it first (WhatsApp Web's edit; the Cloud API cannot: 400
 * ERR_EDIT_NOT_SUPPORTED), then the message takes the new text and the edited mark. The previous
 * text is not kept (the spec asks only for the edited mark).
 */
export async function editMessage(deps: MessagesDeps, ctx: RequestContext, messageId: number, body: string): Promise<MessageDetail> {
  const { message, ticket } = await visibleMessage(deps, ctx, messageId);
  if (!message.fromMe) throw new AppError('ERR_MESSAGE_NOT_EDITABLE');
  if (message.userId !== ctx.user.id && ctx.user.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
  if (message.isDeleted) throw new AppError('ERR_MESSAGE_DELETED');
  if (!isPlainText(message)) throw new AppError('ERR_MESSAGE_NOT_EDITABLE');
  if (Date.now() - message.createdAt.getTime() > MESSAGE_EDIT_WINDOW_MINUTES * 60_000) throw new AppError('ERR_EDIT_WINDOW_EXPIRED');
  const target = channelRef(message, ticket);
  const text = body.trim();
  if (text === message.body && message.isEdited) return message;
  const connection = await connectionOfMessage(deps, ctx, message);
  const provider: ChannelProvider = deps.channels.providerFor(connection);
  const edit = provider.editMessage?.bind(provider);
  if (!edit) throw new AppError('ERR_EDIT_NOT_SUPPORTED');
  await throughChannel(() => edit(connection, target, text), 'ERR_EDITING_WAPP_MSG');
  const saved = await deps.db.transaction(async (tx) => {
    if (!(await saveEditedBody(tx, ctx, messageId, text))) return false;
    await recordMessageWebhookEvents(tx, ctx, 'message.updated', [messageId]);
    return true;
  });
  if (!saved) throw new AppError('ERR_MESSAGE_DELETED');
  // The ticket lists show the new text when it was the conversation's last message.
  if (await refreshEditedPreview(deps.db, ctx, ticket.id, messageId, lastMessagePreview({ body: text }))) {
    const fresh = await findTicketDetail(deps.db, ctx, ticket.id);
    if (fresh) deps.events.emit('ticket.updated', { companyId: ctx.companyId, ticket: fresh });
  }
  return updated(deps, ctx, ticket, messageId);
}

/**
 * `POST /messages/:messageId/reactions`: our account's reaction to a message of the conversation
 * ('' takes it back), sent through the channel, then kept on the message with the customers' ones.
 * WhatsApp has one reaction per account, so agents share it: the latest wins.
 */
export async function reactToMessage(deps: MessagesDeps, ctx: RequestContext, messageId: number, emoji: string): Promise<MessageDetail> {
  const { message, ticket } = await visibleMessage(deps, ctx, messageId);
  if (message.isDeleted) throw new AppError('ERR_MESSAGE_DELETED');
  const target = channelRef(message, ticket);
  const connection = await connectionOfMessage(deps, ctx, message);
  const provider = deps.channels.providerFor(connection);
  const react = provider.react?.bind(provider);
  if (!react) throw new AppError('ERR_SENDING_WAPP_MSG');
  await throughChannel(() => react(connection, target, emoji), 'ERR_SENDING_WAPP_MSG');
  if (!(await saveOwnReaction(deps.db, ctx, messageId, emoji))) throw new AppError('ERR_MESSAGE_DELETED');
  return updated(deps, ctx, ticket, messageId);
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.3gp': 'video/3gpp',
  '.mov': 'video/quicktime',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.pdf': 'application/pdf',
};
const DEFAULT_MIME: Record<MediaType, string> = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/ogg', application: 'application/octet-stream' };

/** A stored message's file as a send's media: the same file (message files are never removed), its type from the send or the name. */
async function storedMediaOf(deps: MessagesDeps, message: MessageDetail): Promise<StoredMedia | undefined> {
  if (!message.mediaPath) return undefined;
  const name = message.mediaName ?? path.basename(message.mediaPath);
  const stored = message.sendPayload?.media;
  const kind: MediaType = message.mediaType === 'image' || message.mediaType === 'video' || message.mediaType === 'audio' ? message.mediaType : 'application';
  const guessed = MIME_BY_EXTENSION[path.extname(name).toLowerCase()];
  const mimeType = stored?.mimeType ?? (guessed && mediaTypeOf(guessed) === kind ? guessed : DEFAULT_MIME[kind]);
  const size = await deps.media.size(message.mediaPath);
  if (size === null) throw new AppError('ERR_MEDIA_MISSING');
  return { path: message.mediaPath, name, mimeType, mediaType: mediaTypeOf(mimeType), size };
}

/**
 * The contact's ticket a forward goes into, by the rules of an agent's send: the contact's active
 * ticket on that connection when there is one (it must be open and one the agent may open, as for
 * `POST /messages/:ticketId`), else a new ticket open with the agent, as `POST /tickets` makes it,
 * in the source ticket's queue: the agent could open that ticket, and the forward continues it.
 */
async function forwardTicket(deps: MessagesDeps, ctx: RequestContext, contactId: number, source: TicketDetail): Promise<TicketDetail> {
  const existing = await findActiveTicket(deps.db, ctx, contactId, source.whatsappId);
  if (existing) {
    const ticket = await showTicket(deps, ctx, existing.id);
    if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN', undefined, { ticketId: ticket.id });
    return ticket;
  }
  return createTicket(deps, ctx, { contactId, queueId: source.queueId, whatsappId: source.whatsappId, status: 'open', inheritedQueue: true });
}

export interface ForwardInput {
  messageIds: number[];
  contactIds: number[];
  sign: boolean;
}

/** Forwarding stopped at a contact: its error, and what was forwarded before it. */
export class ForwardFailed extends Error {
  constructor(
    readonly error: AppError,
    readonly messages: MessageDetail[],
  ) {
    super(error.code);
  }
}

/**
 * `POST /message/forward`: each message, in the order they were written, to each contact, as the
 * agent's send into that contact's ticket (see `forwardTicket`), marked forwarded; a file is sent
 * again from storage. Every message and contact is checked first (another company's id is 404, a
 * message the agent may not open 403, a deleted one ERR_MESSAGE_DELETED), then the contacts are
 * served one after another; the first refusal stops there and is answered with what was sent.
 */
export async function forwardMessages(deps: MessagesDeps, ctx: RequestContext, input: ForwardInput): Promise<MessageDetail[]> {
  const messageIds = [...new Set(input.messageIds)];
  const contactIds = [...new Set(input.contactIds)];
  await assertIdsInTenant(deps.db, ctx, contacts, contactIds, 'ERR_NO_CONTACT_FOUND');
  const sources: { message: MessageDetail; ticket: TicketDetail }[] = [];
  for (const id of messageIds) {
    const source = await visibleMessage(deps, ctx, id);
    if (source.message.isDeleted) throw new AppError('ERR_MESSAGE_DELETED');
    sources.push(source);
  }
  sources.sort((a, b) => a.message.createdAt.getTime() - b.message.createdAt.getTime() || a.message.id - b.message.id);
  const first = sources[0];
  if (!first) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const media = new Map<number, StoredMedia | undefined>();
  for (const { message } of sources) media.set(message.id, await storedMediaOf(deps, message));

  const sent: MessageDetail[] = [];
  for (const contactId of contactIds) {
    try {
      const ticket = await forwardTicket(deps, ctx, contactId, first.ticket);
      if (ticket.whatsappId === null) throw new AppError('ERR_NO_WAPP_FOUND');
      const items: OutgoingItem[] = sources.map(({ message }) => {
        const file = media.get(message.id);
        const text = file && message.body === message.mediaName ? '' : message.body;
        const body = input.sign && text ? `*${ctx.user.name}:*\n${text}` : text;
        if (!body && !file) throw new AppError('ERR_EMPTY_MESSAGE');
        return { message: { to: ticket.contact.number, body, media: file, forwarded: true }, media: file, data: { forwarded: 'forwarded' } };
      });
      const deliveries = await storeAndDeliver(deps, ctx, { ticketId: ticket.id, contactId: ticket.contactId, whatsappId: ticket.whatsappId, userId: ctx.user.id, source: 'agent', items });
      sent.push(...deliveries.map((delivery) => delivery.message));
      const failure = deliveries.find((delivery) => delivery.error)?.error;
      if (failure) throw failure;
    } catch (error) {
      if (error instanceof AppError) throw new ForwardFailed(error, sent);
      throw error;
    }
  }
  return sent;
}

/** `GET /messages-allMe` (v6's dashboard): the company's messages from one day to another (its time zone), ours or the customers'. */
export async function countMessages(deps: Pick<MessagesDeps, 'db'>, ctx: RequestContext, query: { fromMe?: boolean; dateStart: string; dateEnd: string }): Promise<number> {
  return countCompanyMessages(deps.db, ctx, { ...query, fromMe: query.fromMe, timeZone: ctx.company.timezone });
}
