import type { TicketDetail } from '../tickets/tickets.presenter.js';
import type { Platform } from '../../platform/platform.js';
import type { AutoAssigner } from './auto-assign.service.js';

/** A ticket an agent could be given now (the round checks the rest: its queue's mode, the bots). */
function mayWait(ticket: Pick<TicketDetail, 'status' | 'userId' | 'queueId'>): boolean {
  return ticket.status === 'pending' && ticket.userId === null && ticket.queueId !== null;
}

/**
 * The triggers of a round (issue 35): a ticket enters a queue without an agent (new,
 * returned, reopened into pending, transferred to a queue), an agent's open ticket is
 * closed, returned or transferred away (room freed), an agent's capacity or queues change,
 * a queue's settings change (auto-assignment switched on, its default raised). An agent
 * coming online is told by presence (app.ts). The sweep catches what a trigger missed.
 */
export function subscribeAutoAssignEvents({ events }: Pick<Platform, 'events'>, assigner: AutoAssigner): void {
  events.on('ticket.updated', ({ companyId, ticket, previous }) => {
    const freed = previous !== undefined && previous.userId !== null && previous.status === 'open' && (ticket.status !== 'open' || ticket.userId !== previous.userId);
    if (mayWait(ticket) || freed) assigner.request(companyId);
  });
  events.on('message.created', ({ companyId, ticket }) => {
    if (mayWait(ticket)) assigner.request(companyId);
  });
  events.on('user.saved', ({ companyId }) => assigner.request(companyId));
  events.on('queue.saved', ({ companyId, queue }) => {
    if (queue.autoAssign !== 'off') assigner.request(companyId);
  });
}
