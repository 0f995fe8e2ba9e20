import { and, eq } from 'drizzle-orm';
import type { AppServices } from '../app.js';
import { lastMessagePreview } from '../inbound/ingest.js';
import type { MessageDetail } from '../modules/messages/messages.presenter.js';
import { loadMessageDetails } from '../modules/messages/messages.repo.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import { messages, tickets } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import type { StoredMedia } from '../platform/storage/media-storage.js';
import type { SentMessage } from './channel-provider.js';

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
