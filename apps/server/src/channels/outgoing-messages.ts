import { and, eq } from 'drizzle-orm';
import type { AppServices } from '../app.js';
import { lastMessagePreview } from '../inbound/ingest.js';
import type { MessageDetail } from '../modules/messages/messages.presenter.js';
import { loadMessageDetails } from '../modules/messages/messages.repo.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import { messages, tickets } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import type { StoredMedia, UploadedFile } from '../platform/storage/media-storage.js';
import { AppError } from '../platform/http/app-error.js';
import type { ChannelProvider, OutgoingMessage, SentMessage } from './channel-provider.js';
import type { WhatsappRow } from '../platform/db/schema.js';

export interface SentRecord {
  ticketId: number;
  contactId: number;
  whatsappId: number;
  /** The agent who sent it; null for the external API. */
  userId: number | null;
  source: 'agent' | 'system';
  body: string;
  media?: StoredMedia;
  sent: SentMessage;
}

/**
 * Stores a message the channel accepted and updates its ticket's last message,
 * then tells the ticket's audience (the same steps as an agent's send in
 * messages.service.ts; used by template sends and the external API).
 */
export async function storeSentMessage(services: AppServices, scope: TenantScope, record: SentRecord): Promise<MessageDetail> {
  const id = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        companyId: scope.companyId,
        ticketId: record.ticketId,
        contactId: record.contactId,
        whatsappId: record.whatsappId,
        userId: record.userId,
        externalId: record.sent.externalId,
        body: record.body || record.media?.name || '',
        fromMe: true,
        source: record.source,
        ack: record.sent.ack,
        read: true,
        mediaType: record.media?.mediaType ?? null,
        mediaPath: record.media?.path ?? null,
        mediaName: record.media?.name ?? null,
      })
      .returning({ id: messages.id });
    await tx
      .update(tickets)
      .set({ lastMessage: lastMessagePreview({ body: record.body, media: record.media }), updatedAt: new Date() })
      .where(and(eq(tickets.companyId, scope.companyId), eq(tickets.id, record.ticketId)));
    return row?.id;
  });
  if (id === undefined) throw new Error('message insert returned nothing');
  const [message] = await loadMessageDetails(services.db, scope, [id]);
  const ticket = await findTicketDetail(services.db, scope, record.ticketId);
  if (!message || !ticket) throw new Error('stored message not found');
  services.events.emit('message.created', { companyId: scope.companyId, ticket, message });
  return message;
}

export interface OutgoingItem {
  message: OutgoingMessage;
  media?: StoredMedia;
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

/** Sends one message; a provider failure that is not a business error becomes ERR_SENDING_WAPP_MSG. */
export async function sendThrough(provider: ChannelProvider, connection: WhatsappRow, message: OutgoingMessage): Promise<SentMessage> {
  try {
    return await provider.send(connection, message);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('ERR_SENDING_WAPP_MSG');
  }
}
