import { rooms } from '../../platform/realtime/rooms.js';
import type { RequestContext } from '../../platform/http/context.js';
import { presentMessage } from '../messages/messages.presenter.js';
import type { MessageDetail } from '../messages/messages.presenter.js';
import type { Platform } from '../../platform/platform.js';
import { presentTicket, type TicketDetail } from './tickets.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    /** `previous` lets the users who could see the ticket before a transfer drop it. */
    'ticket.updated': { companyId: number; ticket: TicketDetail; previous?: TicketDetail };
    /**
     * An agent's change of a ticket was written (accept, transfer, close, reopen), once per
     * change: the automation answers it (greeting, transfer notice, rating), awaited by
     * the request (`events.publish`).
     */
    'ticket.changedByAgent': { ctx: RequestContext; previous: TicketDetail; ticket: TicketDetail };
    'ticket.deleted': { companyId: number; ticket: TicketDetail };
    'ticket.read': { companyId: number; ticket: TicketDetail };
    'message.created': { companyId: number; ticket: TicketDetail; message: MessageDetail };
    'message.updated': { companyId: number; ticket: TicketDetail; message: MessageDetail };
    /**
     * A provider delivered again a message already stored (inbound/ingest-queue.ts): the
     * process that stored it may have died before publishing it, so it is announced again
     * as created. Only for the screens: nothing with side effects listens to it.
     */
    'message.redelivered': { companyId: number; ticket: TicketDetail; message: MessageDetail };
  }
}

/**
 * The rooms whose users may see a ticket (tickets.repo canSeeTicket): admins,
 * the assignee, the queue's users (or everyone when it has no queue), users
 * with allTicket while it is pending, and whoever has it open.
 */
function ticketRooms(ticket: Pick<TicketDetail, 'id' | 'companyId' | 'userId' | 'queueId' | 'status'>): string[] {
  const { companyId } = ticket;
  const list = [rooms.admins(companyId), rooms.chatBox(companyId, ticket.id)];
  list.push(ticket.queueId === null ? rooms.company(companyId) : rooms.queue(companyId, ticket.queueId));
  if (ticket.userId !== null) list.push(rooms.user(companyId, ticket.userId));
  if (ticket.status === 'pending') list.push(rooms.allTicket(companyId));
  return list;
}

/** The ticket's status, assignee or queue changed: the lists that showed it no longer do. */
function movedBetweenLists(previous: TicketDetail, ticket: TicketDetail): boolean {
  return previous.status !== ticket.status || previous.userId !== ticket.userId || previous.queueId !== ticket.queueId;
}

/** Tickets and their messages to the ticket's audience (`company-{id}-ticket`, `company-{id}-appMessage`). */
export function subscribeTicketEvents({ events, publisher, media }: Pick<Platform, 'events' | 'publisher' | 'media'>): void {
  events.on('ticket.updated', ({ companyId, ticket, previous }) => {
    // A ticket that changed tab or hands leaves the lists it was in first (whaticket v6's client
    // removes a ticket from a tab only so); the update that follows puts it where it now belongs.
    if (previous && movedBetweenLists(previous, ticket)) {
      publisher.toRooms(companyId, ticketRooms(previous), 'ticket', { action: 'delete', ticketId: ticket.id, moved: true });
    }
    const audience = new Set([...ticketRooms(ticket), ...(previous ? ticketRooms(previous) : [])]);
    publisher.toRooms(companyId, [...audience], 'ticket', { action: 'update', ticket: presentTicket(ticket) });
  });
  events.on('ticket.deleted', ({ companyId, ticket }) => {
    publisher.toRooms(companyId, ticketRooms(ticket), 'ticket', { action: 'delete', ticketId: ticket.id });
  });
  events.on('ticket.read', ({ companyId, ticket }) => {
    publisher.toRooms(companyId, ticketRooms(ticket), 'ticket', { action: 'updateUnread', ticketId: ticket.id });
  });
  for (const name of ['message.created', 'message.redelivered', 'message.updated'] as const) {
    events.on(name, ({ companyId, ticket, message }) => {
      publisher.toRooms(companyId, ticketRooms(ticket), 'appMessage', {
        action: name === 'message.updated' ? 'update' : 'create',
        message: presentMessage(message, media),
        ticket: presentTicket(ticket),
        contact: ticket.contact,
      });
    });
  }
}
