import type { PresentedTicket } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildTicket } from '../../test/build-ticket';
import {
  applyContactUpdate,
  applyTicketUpdate,
  flattenTickets,
  removeContactTickets,
  removeTicket,
  resetUnread,
  shouldNotify,
  ticketListParamsOf,
  ticketMatchesList,
  type TicketListData,
  type TicketListParams,
  type TicketViewer,
} from './ticket-list-cache';

function ticket(id: number, overrides: Partial<PresentedTicket> = {}): PresentedTicket {
  return buildTicket(id, {
    queueId: 1,
    queue: { id: 1, name: 'Vendas', color: '#f00' },
    whatsapp: { id: 1, name: 'Sandbox', status: 'CONNECTED', provider: 'sandbox', pix: '', pixMessage: '' },
    contact: { id, name: `Contact ${id}`, number: '5511999990000', profilePicUrl: '', isGroup: false, email: '' },
    lastMessage: 'Olá',
    companyId: 1,
    createdAt: '2025-05-20T10:00:00.000Z',
    // Higher ids are more recent unless a test says otherwise.
    updatedAt: new Date(Date.UTC(2025, 4, 20, 10, id)).toISOString(),
    ...overrides,
  });
}

function listOf(pages: PresentedTicket[][], hasMore = false): TicketListData {
  return {
    pages: pages.map((tickets, i) => ({ tickets, hasMore: i < pages.length - 1 || hasMore })),
    pageParams: pages.map((_, i) => i + 1),
  };
}

const ids = (data: TicketListData) => flattenTickets(data).map((t) => t.id);

const agent: TicketViewer = { id: 7, profile: 'user', allTicket: 'desabled', queueIds: [1, 2] };
const admin: TicketViewer = { id: 1, profile: 'admin', allTicket: 'desabled', queueIds: [] };
const pending: TicketListParams = { status: 'pending', showAll: false, queueIds: [1, 2] };
const open: TicketListParams = { status: 'open', showAll: false, queueIds: [1, 2] };

describe('applyTicketUpdate', () => {
  it('adds a new pending ticket of a selected queue in update order, after the unread ones', () => {
    const data = listOf([[ticket(5, { unreadMessages: 2 }), ticket(4), ticket(2)]]);
    const next = applyTicketUpdate(data, ticket(3), pending, agent);
    expect(ids(next)).toEqual([5, 4, 3, 2]);
  });

  it('moves a ticket with a new unread message to the top', () => {
    const data = listOf([[ticket(9), ticket(8)], [ticket(3), ticket(2)]]);
    const updated = ticket(2, { unreadMessages: 1, lastMessage: 'Oi?', updatedAt: '2025-05-20T11:00:00.000Z' });
    const next = applyTicketUpdate(data, updated, pending, agent);
    expect(ids(next)).toEqual([2, 9, 8, 3]);
    expect(flattenTickets(next)[0]?.lastMessage).toBe('Oi?');
    // Page sizes are kept so the next page number still follows on.
    expect(next.pages.map((p) => p.tickets.length)).toEqual([2, 2]);
  });

  it('replaces the shown ticket with the new data', () => {
    const data = listOf([[ticket(3), ticket(2)]]);
    const next = applyTicketUpdate(data, ticket(3, { tags: [{ id: 4, name: 'VIP', color: '#0f0' }] }), pending, agent);
    expect(flattenTickets(next)[0]?.tags).toEqual([{ id: 4, name: 'VIP', color: '#0f0' }]);
    expect(ids(next)).toEqual([3, 2]);
  });

  it('moves an accepted ticket from the pending list to the open list', () => {
    const accepted = ticket(3, { status: 'open', userId: 7, user: { id: 7, name: 'Ana' } });
    expect(ids(applyTicketUpdate(listOf([[ticket(3), ticket(2)]]), accepted, pending, agent))).toEqual([2]);
    expect(ids(applyTicketUpdate(listOf([[ticket(1, { status: 'open', userId: 7 })]]), accepted, open, agent))).toEqual([3, 1]);
  });

  it('removes a ticket whose queue is no longer among the selected queues', () => {
    const data = listOf([[ticket(3), ticket(2)]]);
    const transferred = ticket(3, { queueId: 2, queue: { id: 2, name: 'Suporte', color: '#00f' } });
    expect(ids(applyTicketUpdate(data, transferred, { ...pending, queueIds: [1] }, agent))).toEqual([2]);
    expect(ids(applyTicketUpdate(data, transferred, pending, agent))).toEqual([3, 2]);
  });

  it('never shows a non-admin a queue outside its own, even when selected', () => {
    const other = ticket(3, { queueId: 9 });
    expect(ids(applyTicketUpdate(listOf([[]]), other, { ...pending, queueIds: [1, 9] }, agent))).toEqual([]);
  });

  it('shows tickets without a queue to everyone', () => {
    expect(ids(applyTicketUpdate(listOf([[]]), ticket(3, { queueId: null, queue: null }), { ...pending, queueIds: [] }, agent))).toEqual([3]);
  });

  it("drops another agent's open ticket unless the admin shows all", () => {
    const someoneElses = ticket(3, { status: 'open', userId: 8 });
    expect(ids(applyTicketUpdate(listOf([[ticket(3, { status: 'open', userId: 7 })]]), someoneElses, open, agent))).toEqual([]);
    const adminOpen: TicketListParams = { status: 'open', showAll: false, queueIds: [1] };
    expect(ids(applyTicketUpdate(listOf([[]]), someoneElses, adminOpen, admin))).toEqual([]);
    expect(ids(applyTicketUpdate(listOf([[]]), someoneElses, { ...adminOpen, showAll: true }, admin))).toEqual([3]);
    // showAll still honours the queue selection.
    expect(ids(applyTicketUpdate(listOf([[]]), someoneElses, { ...adminOpen, showAll: true, queueIds: [2] }, admin))).toEqual([]);
  });

  it('shows every pending ticket to a user with allTicket enabled', () => {
    const elsewhere = ticket(3, { queueId: 9 });
    expect(ids(applyTicketUpdate(listOf([[]]), elsewhere, pending, { ...agent, allTicket: 'enabled' }))).toEqual([3]);
  });

  it('ignores an event older than the ticket the list shows', () => {
    const data = listOf([[ticket(3, { unreadMessages: 2, updatedAt: '2025-05-20T12:00:00.000Z' })]]);
    expect(applyTicketUpdate(data, ticket(3, { unreadMessages: 1, updatedAt: '2025-05-20T11:00:00.000Z' }), pending, agent)).toBe(data);
    expect(applyTicketUpdate(data, ticket(3, { status: 'open', userId: 7, updatedAt: '2025-05-20T11:00:00.000Z' }), pending, agent)).toBe(data);
  });

  it('does not append a ticket that sorts after the loaded part of a longer list', () => {
    const old = ticket(1, { updatedAt: '2020-01-01T00:00:00.000Z' });
    expect(ids(applyTicketUpdate(listOf([[ticket(5), ticket(4)]], true), old, pending, agent))).toEqual([5, 4]);
    expect(ids(applyTicketUpdate(listOf([[ticket(5), ticket(4)]], false), old, pending, agent))).toEqual([5, 4, 1]);
  });

  it('keeps search results in place and never adds to them (the server decides a text match)', () => {
    const search: TicketListParams = { showAll: false, queueIds: [1, 2], searchParam: 'maria' };
    const data = listOf([[ticket(5), ticket(4)]]);
    expect(ids(applyTicketUpdate(data, ticket(6), search, agent))).toEqual([5, 4]);
    const next = applyTicketUpdate(data, ticket(4, { unreadMessages: 3 }), search, agent);
    expect(ids(next)).toEqual([5, 4]);
    expect(flattenTickets(next)[1]?.unreadMessages).toBe(3);
  });

  it('applies the tag and user filters of the search tab', () => {
    const search: TicketListParams = { showAll: false, queueIds: [1, 2], tags: [4] };
    const tagged = ticket(6, { tags: [{ id: 4, name: 'VIP', color: '#0f0' }] });
    expect(ids(applyTicketUpdate(listOf([[]]), tagged, search, agent))).toEqual([6]);
    expect(ids(applyTicketUpdate(listOf([[tagged]]), ticket(6), search, agent))).toEqual([]);
    expect(ticketMatchesList(ticket(6, { userId: 8, status: 'open' }), { showAll: true, queueIds: [1], users: [7] }, admin)).toBe('no');
  });
});

describe('removeTicket and resetUnread', () => {
  it('removes a deleted ticket from every page', () => {
    expect(ids(removeTicket(listOf([[ticket(5)], [ticket(4), ticket(3)]]), 4))).toEqual([5, 3]);
  });

  it('zeroes the unread count of a ticket that was read, in place', () => {
    const data = listOf([[ticket(5, { unreadMessages: 2 }), ticket(4, { unreadMessages: 1 })]]);
    const next = resetUnread(data, 4);
    expect(flattenTickets(next).map((t) => [t.id, t.unreadMessages])).toEqual([
      [5, 2],
      [4, 0],
    ]);
    expect(resetUnread(next, 4)).toBe(next);
  });
});

describe('contact events', () => {
  it("shows a contact's new name on each of its tickets", () => {
    const data = listOf([[ticket(5, { contactId: 3 }), ticket(4)]]);
    const next = applyContactUpdate(data, { id: 3, name: 'Maria Souza', number: '5511999990003' });
    expect(flattenTickets(next).map((t) => t.contact.name)).toEqual(['Maria Souza', 'Contact 4']);
  });

  it("removes a deleted contact's tickets", () => {
    expect(ids(removeContactTickets(listOf([[ticket(5, { contactId: 3 }), ticket(4)]]), 3))).toEqual([4]);
  });
});

describe('flattenTickets', () => {
  it('shows a ticket once when a later page repeats it', () => {
    expect(ids(listOf([[ticket(5), ticket(4)], [ticket(4), ticket(3)]]))).toEqual([5, 4, 3]);
  });
});

describe('ticketListParamsOf', () => {
  it('reads the params of ticket list keys only', () => {
    expect(ticketListParamsOf(['tickets', pending])).toEqual(pending);
    expect(ticketListParamsOf(['tickets'])).toBeNull();
    expect(ticketListParamsOf(['ticket', 'uuid-1'])).toBeNull();
    expect(ticketListParamsOf(['tickets', { something: 'else' }])).toBeNull();
  });
});

describe('shouldNotify', () => {
  it("sounds for a customer's message on another ticket of mine or waiting in my queues", () => {
    expect(shouldNotify({ fromMe: false }, ticket(3), agent, 'uuid-9')).toBe(true);
    expect(shouldNotify({ fromMe: false }, ticket(3, { status: 'open', userId: 7 }), agent, undefined)).toBe(true);
  });

  it('stays silent for my own messages, the open ticket, and tickets that are not mine to answer', () => {
    expect(shouldNotify({ fromMe: true }, ticket(3), agent, undefined)).toBe(false);
    expect(shouldNotify({ fromMe: false }, ticket(3), agent, 'uuid-3')).toBe(false);
    expect(shouldNotify({ fromMe: false }, ticket(3, { status: 'open', userId: 8 }), agent, undefined)).toBe(false);
    expect(shouldNotify({ fromMe: false }, ticket(3, { queueId: 9 }), agent, undefined)).toBe(false);
    expect(shouldNotify({ fromMe: false }, ticket(3, { status: 'open', userId: 8 }), admin, undefined)).toBe(false);
  });
});
