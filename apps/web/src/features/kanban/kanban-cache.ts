import type { PresentedTicket } from '@atende/shared';
import type { InfiniteData } from '@tanstack/react-query';

/** A lane of the board: `none` (tickets without a kanban tag) or a kanban tag's id. */
export type LaneId = 'none' | number;

/** `GET /ticket/kanban` with a lane: a page of its cards and the lane's total. */
export interface KanbanPage {
  tickets: PresentedTicket[];
  count: number;
  hasMore: boolean;
}
export type LanePages = InfiniteData<KanbanPage>;

export const kanbanKeys = {
  all: ['kanban'] as const,
  lane: (lane: LaneId, showAll: boolean) => ['kanban', String(lane), showAll] as const,
};

/** The board shows the tickets being worked on (as the server's `GET /ticket/kanban`). */
const BOARD_STATUSES: readonly string[] = ['open', 'pending'];

/** The lanes a ticket's card belongs in, among the board's lanes: its kanban tags, or the lane without tag. */
function lanesOf(ticket: Pick<PresentedTicket, 'tags'>, laneTagIds: ReadonlySet<number>): LaneId[] {
  const lanes = ticket.tags.map((tag) => tag.id).filter((id) => laneTagIds.has(id));
  return lanes.length > 0 ? lanes : ['none'];
}

/** The lane's cards in order, each once (a card that moved while pages loaded may come twice). */
export function laneCards(data: LanePages | undefined): PresentedTicket[] {
  const seen = new Set<number>();
  const cards: PresentedTicket[] = [];
  for (const page of data?.pages ?? []) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      cards.push(ticket);
    }
  }
  return cards;
}

export function laneCount(data: LanePages | undefined): number {
  return data?.pages[0]?.count ?? 0;
}

const newerFirst = (a: Pick<PresentedTicket, 'updatedAt' | 'id'>, b: Pick<PresentedTicket, 'updatedAt' | 'id'>) =>
  b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

function withCount(data: LanePages, delta: number): LanePages {
  if (delta === 0 || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [KanbanPage, ...KanbanPage[]];
  return { ...data, pages: [{ ...first, count: Math.max(0, first.count + delta) }, ...rest] };
}

/** Takes a card out of a lane (and out of its total when it was there). */
function removeCard(data: LanePages, ticketId: number): LanePages {
  const present = data.pages.some((page) => page.tickets.some((ticket) => ticket.id === ticketId));
  if (!present) return data;
  const pages = data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((ticket) => ticket.id !== ticketId) }));
  return withCount({ ...data, pages }, -1);
}

/**
 * Puts a card in a lane at its place in the server's order (most recently
 * updated first), or replaces it where it is. Applying it twice changes nothing.
 */
function placeCard(data: LanePages, ticket: PresentedTicket): LanePages {
  const present = data.pages.some((page) => page.tickets.some((card) => card.id === ticket.id));
  const without = present ? data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((card) => card.id !== ticket.id) })) : data.pages;
  if (without.length === 0) return data;
  let placed = false;
  const pages = without.map((page, index) => {
    if (placed) return page;
    const at = page.tickets.findIndex((card) => newerFirst(ticket, card) < 0);
    if (at >= 0) {
      placed = true;
      return { ...page, tickets: [...page.tickets.slice(0, at), ticket, ...page.tickets.slice(at)] };
    }
    // Older than every loaded card: after the last one (a later page may bring it again; laneCards keeps one).
    if (index === without.length - 1) {
      placed = true;
      return { ...page, tickets: [...page.tickets, ticket] };
    }
    return page;
  });
  return withCount({ ...data, pages }, present ? 0 : 1);
}

/**
 * What a ticket's news does to one lane of the board: the card joins the lanes
 * its kanban tags name (or the lane without tag), leaves the others, and leaves
 * the board when closed, deleted or no longer the viewer's.
 */
export function applyTicketToLane(data: LanePages, lane: LaneId, ticket: PresentedTicket | null, ticketId: number, laneTagIds: ReadonlySet<number>, onBoard: boolean): LanePages {
  if (ticket && onBoard && BOARD_STATUSES.includes(ticket.status) && lanesOf(ticket, laneTagIds).includes(lane)) return placeCard(data, ticket);
  return removeCard(data, ticketId);
}
