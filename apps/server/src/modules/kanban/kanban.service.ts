import { KANBAN_BOARD_PAGE_SIZE, KANBAN_LANE_PAGE_SIZE, type KanbanQuery } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { findTag } from '../tags/tags.repo.js';
import { findTicketDetail, lockTicket } from '../tickets/tickets.repo.js';
import type { TicketDetail } from '../tickets/tickets.presenter.js';
import { recordTicketWebhookEvent, showTicket, type TicketsDeps } from '../tickets/tickets.service.js';
import { attachTag, listKanbanTickets, removeKanbanTags } from './kanban.repo.js';

/** Moving a card reads the ticket as its page does (tickets.service) and tells everyone who sees it. */
export type KanbanDeps = TicketsDeps;

/**
 * The kanban board (spec part 2 §2.4): lanes are the company's tags marked
 * kanban, plus one for tickets without such a tag. A card is in the lane of its
 * kanban tag; tags that are not lanes never move.
 */
export async function listKanban(deps: Pick<Platform, 'db' | 'database'>, ctx: RequestContext, query: KanbanQuery) {
  requireFeature(ctx, 'useKanban');
  if (typeof query.lane === 'number') {
    const tag = await findTag(deps.db, ctx, query.lane);
    if (!tag || tag.kanban !== 1) throw new AppError('ERR_NO_TAG_FOUND');
  }
  return listKanbanTickets(deps.database, ctx, {
    showAll: query.showAll,
    queueIds: query.queueIds,
    lane: query.lane,
    pageNumber: query.pageNumber,
    pageSize: query.lane === undefined ? KANBAN_BOARD_PAGE_SIZE : KANBAN_LANE_PAGE_SIZE,
  });
}

/**
 * Changes a ticket's lane in one transaction, under the ticket's row lock (two
 * agents moving the same card end with one lane, never both): `tagId` undefined
 * takes the card to the lane without tag. Everyone who may see the ticket hears
 * of it (`company-{id}-ticket`, action update), the boards included.
 */
async function changeLane(deps: KanbanDeps, ctx: RequestContext, ticketId: number, tagId: number | undefined): Promise<TicketDetail> {
  requireFeature(ctx, 'useKanban');
  const previous = await showTicket(deps, ctx, ticketId);
  const tag = tagId === undefined ? null : await findTag(deps.db, ctx, tagId);
  if (tagId !== undefined && !tag) throw new AppError('ERR_NO_TAG_FOUND');
  await deps.db.transaction(async (tx) => {
    if (!(await lockTicket(tx, ctx, ticketId))) throw new AppError('ERR_NO_TICKET_FOUND');
    // Attaching a tag that is not a lane leaves the card where it is.
    if (tag === null || tag.kanban === 1) await removeKanbanTags(tx, ctx, ticketId, tag?.id);
    if (tag) await attachTag(tx, ctx, ticketId, tag.id);
    await recordTicketWebhookEvent(tx, ctx, 'ticket.updated', ticketId);
  });
  const ticket = await findTicketDetail(deps.db, ctx, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  deps.events.emit('ticket.updated', { companyId: ctx.companyId, ticket, previous });
  await announceTicketCounts(deps, ctx, previous, ticket);
  return ticket;
}

/** The tags the move took off or put on count one ticket less or more: the tags page hears it (`company-{id}-tag`). */
async function announceTicketCounts(deps: Pick<Platform, 'db' | 'events'>, ctx: RequestContext, before: TicketDetail, after: TicketDetail): Promise<void> {
  const had = new Set(before.tags.map((tag) => tag.id));
  const has = new Set(after.tags.map((tag) => tag.id));
  const changed = [...had, ...has].filter((id) => had.has(id) !== has.has(id));
  for (const id of changed) {
    const tag = await findTag(deps.db, ctx, id);
    if (tag) deps.events.emit('tag.saved', { companyId: ctx.companyId, action: 'update', tag });
  }
}

/** `PUT /ticket-tags/{ticketId}/{tagId}`: attaches the tag; a lane's tag replaces the card's lane tag. */
export function moveTicketToTag(deps: KanbanDeps, ctx: RequestContext, ticketId: number, tagId: number): Promise<TicketDetail> {
  return changeLane(deps, ctx, ticketId, tagId);
}

/** `DELETE /ticket-tags/{ticketId}`: removes the card's lane tags (the lane without tag); other tags stay. */
export function removeTicketFromLanes(deps: KanbanDeps, ctx: RequestContext, ticketId: number): Promise<TicketDetail> {
  return changeLane(deps, ctx, ticketId, undefined);
}
