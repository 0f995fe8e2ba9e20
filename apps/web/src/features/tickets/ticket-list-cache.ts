import type { AllTicket, PresentedTicket, PresentedTicketPage, Profile, TicketStatus } from '@atende/shared';
import type { InfiniteData } from '@tanstack/react-query';

/**
 * What one ticket list asks the server for; also the second part of its query
 * key (`['tickets', params]`), so a realtime event can tell which cached lists a
 * ticket belongs to.
 */
export interface TicketListParams {
  /** Absent: every status (the search tab). */
  status?: TicketStatus;
  searchParam?: string;
  showAll: boolean;
  queueIds: number[];
  tags?: number[];
  users?: number[];
  /** `sla`: closest to breach first (issue 35); absent: unread first, then most recently updated. */
  sortBy?: 'sla';
}

/** The signed-in user, as the visibility rules need it. */
export interface TicketViewer {
  id: number;
  profile: Profile;
  allTicket: AllTicket;
  queueIds: number[];
}

export type TicketListData = InfiniteData<PresentedTicketPage, unknown>;

export const TICKET_LIST_KEY = 'tickets';
/** `GET /tickets/count` answers (the manager's badges), refetched on live events. */
export const TICKET_COUNT_KEY = 'ticket-count';

export function ticketListKey(params: TicketListParams) {
  return [TICKET_LIST_KEY, params] as const;
}

/** The params of a cached ticket list, or null for any other query under 'tickets'. */
export function ticketListParamsOf(queryKey: readonly unknown[]): TicketListParams | null {
  if (queryKey[0] !== TICKET_LIST_KEY || queryKey.length !== 2) return null;
  const params = queryKey[1] as Partial<TicketListParams> | null;
  if (!params || typeof params !== 'object' || typeof params.showAll !== 'boolean' || !Array.isArray(params.queueIds)) return null;
  return params as TicketListParams;
}

export function isTicketListData(data: unknown): data is TicketListData {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

/**
 * Whether the server would list this ticket under these params (the rules of
 * tickets.repo listTickets): an admin with showAll sees every ticket of the
 * selected queues or without a queue; anyone else its own tickets and the
 * pending ones, of the selected queues (never beyond a user's own) or without a
 * queue; allTicket adds every pending ticket. 'maybe' when a text search decides,
 * which only the server can evaluate (it searches message contents).
 */
export function ticketMatchesList(ticket: PresentedTicket, params: TicketListParams, viewer: TicketViewer): 'yes' | 'no' | 'maybe' {
  if (params.status && ticket.status !== params.status) return 'no';
  const isAdmin = viewer.profile === 'admin';
  const inSelectedQueue = ticket.queueId === null || params.queueIds.includes(ticket.queueId);
  if (isAdmin && params.showAll) {
    if (!inSelectedQueue) return 'no';
  } else {
    const allowed = isAdmin ? params.queueIds : params.queueIds.filter((id) => viewer.queueIds.includes(id));
    const inQueues = ticket.queueId === null || allowed.includes(ticket.queueId);
    const inScope = (ticket.userId === viewer.id || ticket.status === 'pending') && inQueues;
    const allPending = viewer.allTicket === 'enabled' && ticket.status === 'pending';
    if (!inScope && !allPending) return 'no';
  }
  if (params.users?.length && (ticket.userId === null || !params.users.includes(ticket.userId))) return 'no';
  const tags = params.tags;
  if (tags?.length && !ticket.tags.some((tag) => tags.includes(tag.id))) return 'no';
  if (params.searchParam?.trim()) return 'maybe';
  return 'yes';
}

/** The server's order: tickets with unread messages first, then the most recently updated. */
function compareTickets(a: PresentedTicket, b: PresentedTicket, sortBy?: 'sla'): number {
  if (sortBy === 'sla') {
    // As the server sorts: the nearest due instant first, tickets without a target last, then by id.
    const due = (ticket: PresentedTicket) => (ticket.slaDueAt ? Date.parse(ticket.slaDueAt) : Number.POSITIVE_INFINITY);
    const order = due(a) - due(b);
    if (order !== 0 && !Number.isNaN(order)) return order;
    return a.id - b.id;
  }
  const unread = Number(b.unreadMessages > 0) - Number(a.unreadMessages > 0);
  if (unread !== 0) return unread;
  const updated = Date.parse(b.updatedAt) - Date.parse(a.updatedAt);
  if (updated !== 0 && !Number.isNaN(updated)) return updated;
  return b.id - a.id;
}

/**
 * The loaded tickets of a list, once each. Inserting and removing rows live
 * shifts the server's page offsets, so a later page can repeat a ticket we
 * already show; the first copy wins.
 */
export function flattenTickets(data: TicketListData | undefined): PresentedTicket[] {
  if (!data) return [];
  const seen = new Set<number>();
  const list: PresentedTicket[] = [];
  for (const page of data.pages) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      list.push(ticket);
    }
  }
  return list;
}

/** Puts a flat list back into the pages, each page keeping its size and the last one taking the difference. */
function repage(data: TicketListData, list: PresentedTicket[]): TicketListData {
  let start = 0;
  const pages = data.pages.map((page, index) => {
    const last = index === data.pages.length - 1;
    const tickets = last ? list.slice(start) : list.slice(start, start + page.tickets.length);
    start += tickets.length;
    return { ...page, tickets };
  });
  return { ...data, pages };
}

function hasMore(data: TicketListData): boolean {
  return data.pages.at(-1)?.hasMore ?? false;
}

/**
 * A ticket changed (update event, or a message event carrying the ticket):
 * it enters, moves within or leaves this list. A ticket with unread messages
 * goes to the top; others take their place by update time, as the server sorts.
 */
export function applyTicketUpdate(data: TicketListData, ticket: PresentedTicket, params: TicketListParams, viewer: TicketViewer): TicketListData {
  const list = flattenTickets(data);
  const index = list.findIndex((t) => t.id === ticket.id);
  const shown = list[index];
  // An event older than what the list already shows (late delivery, or replayed over a fresh page) changes nothing.
  if (shown && Date.parse(shown.updatedAt) > Date.parse(ticket.updatedAt)) return data;
  const match = ticketMatchesList(ticket, params, viewer);
  if (match === 'no') return index === -1 ? data : repage(data, list.filter((t) => t.id !== ticket.id));
  if (match === 'maybe') {
    // A search result stays where it is with its new data; only the server can add one.
    if (index === -1) return data;
    return repage(data, list.map((t) => (t.id === ticket.id ? ticket : t)));
  }
  const rest = index === -1 ? list : list.filter((t) => t.id !== ticket.id);
  const position = rest.findIndex((t) => compareTickets(ticket, t, params.sortBy) < 0);
  if (position === -1) {
    // It sorts after everything loaded: a later page brings it when there is one.
    if (hasMore(data)) return index === -1 ? data : repage(data, rest);
    return repage(data, [...rest, ticket]);
  }
  return repage(data, [...rest.slice(0, position), ticket, ...rest.slice(position)]);
}

export function removeTicket(data: TicketListData, ticketId: number): TicketListData {
  if (!data.pages.some((page) => page.tickets.some((t) => t.id === ticketId))) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((t) => t.id !== ticketId) })) };
}

/** Someone read the ticket: its unread count goes back to zero where it is shown. */
export function resetUnread(data: TicketListData, ticketId: number): TicketListData {
  if (!data.pages.some((page) => page.tickets.some((t) => t.id === ticketId && t.unreadMessages !== 0))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.map((t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t)),
    })),
  };
}

/** A contact was edited: every loaded ticket of that contact shows the new name and picture. */
export function applyContactUpdate(data: TicketListData, contact: { id: number; name: string; number: string; email?: string; profilePicUrl?: string }): TicketListData {
  if (!data.pages.some((page) => page.tickets.some((t) => t.contactId === contact.id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.map((t) =>
        t.contactId === contact.id
          ? {
              ...t,
              contact: {
                ...t.contact,
                name: contact.name,
                number: contact.number,
                email: contact.email ?? t.contact.email,
                profilePicUrl: contact.profilePicUrl ?? t.contact.profilePicUrl,
              },
            }
          : t,
      ),
    })),
  };
}

/** A deleted contact takes its tickets with it. */
export function removeContactTickets(data: TicketListData, contactId: number): TicketListData {
  if (!data.pages.some((page) => page.tickets.some((t) => t.contactId === contactId))) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((t) => t.contactId !== contactId) })) };
}

/**
 * Whether a new message deserves the notification sound: a customer's message
 * (not ours), on a ticket other than the open one, that is the user's own or
 * waiting in its queues (or without a queue). Admins hear every ticket's
 * events, but not every ticket is theirs to answer.
 */
export function shouldNotify(message: { fromMe: boolean }, ticket: PresentedTicket, viewer: TicketViewer, openTicketUuid: string | undefined): boolean {
  if (message.fromMe || ticket.uuid === openTicketUuid || ticket.status === 'closed') return false;
  return ticketMatchesList(ticket, { showAll: false, queueIds: viewer.queueIds }, viewer) === 'yes';
}
