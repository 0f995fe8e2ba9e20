import { slaStateAt, type PresentedTicket } from '@atende/shared';
import type { TicketRow } from '../../platform/db/schema.js';

export interface TicketDetail extends TicketRow {
  contact: { id: number; name: string; number: string; profilePicUrl: string; isGroup: boolean; email: string };
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  /** `pix`, `pixMessage`: the connection's Pix key and its text, which agents send from the ticket (whaticket v6). */
  whatsapp: { id: number; name: string; status: string; provider: string; pix: string; pixMessage: string } | null;
  tags: { id: number; name: string; color: string }[];
}

export function presentTicket(ticket: TicketDetail): PresentedTicket {
  return {
    id: ticket.id,
    uuid: ticket.uuid,
    status: ticket.status,
    userId: ticket.userId,
    user: ticket.user,
    queueId: ticket.queueId,
    queue: ticket.queue,
    whatsappId: ticket.whatsappId,
    whatsapp: ticket.whatsapp,
    contactId: ticket.contactId,
    contact: ticket.contact,
    isGroup: ticket.isGroup,
    chatbot: ticket.chatbot,
    unreadMessages: ticket.unreadMessages,
    lastMessage: ticket.lastMessage,
    useIntegration: ticket.useIntegration,
    promptId: ticket.promptId,
    integrationId: ticket.integrationId,
    tags: ticket.tags,
    ticketUsers: ticket.user ? [{ ticketId: ticket.id, userId: ticket.user.id, queueId: ticket.queueId, user: ticket.user, queue: ticket.queue }] : [],
    companyId: ticket.companyId,
    /** The protocol number shown to customers ({{protocol}}): the ticket id. */
    code: String(ticket.id),
    slaDueAt: ticket.slaDueAt?.toISOString() ?? null,
    slaWarnAt: ticket.slaDueAt ? (ticket.slaWarnAt?.toISOString() ?? null) : null,
    slaState: slaStateAt(ticket.slaDueAt, ticket.slaDueAt ? ticket.slaWarnAt : null, new Date()),
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
  };
}
