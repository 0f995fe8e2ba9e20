import type { PresentedTagSummary, PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { SocketProvider } from '../../realtime/socket';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json, type FakeRequest } from '../../test/fake-api';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import { shownToasts } from '../../test/toasts';
import KanbanPage from './kanban-page';
import { buildTicket } from '../../test/build-ticket';

const socketServer = standInSocketServer();
const noop = () => undefined;

const lanes: PresentedTagSummary[] = [
  { id: 12, name: 'Proposta', color: '#22a061', kanban: 1 },
  { id: 11, name: 'Contato', color: '#cc3333', kanban: 1 },
];
const vip = { id: 30, name: 'VIP', color: '#000000' };

function ticket(id: number, tags: { id: number; name: string; color: string }[], extra: Partial<PresentedTicket> = {}): PresentedTicket {
  return buildTicket(id, { status: 'open', userId: 1, tags, ...extra });
}

/** The server's board: tickets by lane (a lane tag, or none), answered a lane at a time. */
function server(profile: 'admin' | 'user', board: PresentedTicket[]) {
  const laneIds = new Set(lanes.map((tag) => tag.id));
  const inLane = (row: PresentedTicket, lane: string) => {
    const own = row.tags.filter((t) => laneIds.has(t.id)).map((t) => String(t.id));
    return lane === 'none' ? own.length === 0 : own.includes(lane);
  };
  const api = fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Ana', profile, queues: [{ id: 5, name: 'Vendas', color: '#338ccc' }], company: buildUserCompany({}, { useKanban: true }) }),
    'GET /tags/kanban': () => ({ lista: lanes }),
    'GET /ticket/kanban': (request: FakeRequest) => {
      const found = board.filter((row) => inLane(row, request.query.get('lane') ?? ''));
      return { tickets: found, count: found.length, hasMore: false };
    },
  });
  return api;
}

/** Where the router is. */
function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderBoard() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <SocketProvider>
            <MemoryRouter initialEntries={['/kanban']}>
              <Routes>
                <Route path="*" element={<Where />} />
              </Routes>
              <KanbanPage />
            </MemoryRouter>
          </SocketProvider>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

const lane = (name: string) => screen.getAllByTestId('kanban-lane').find((element) => element.dataset.laneName === name)!;
const cardsIn = (name: string) => within(lane(name)).queryAllByTestId('kanban-card').map((card) => Number(card.dataset.ticketId));

// jsdom lays nothing out: a lane's scroll box gets a height and each card one, so the virtual lists render their cards.
const layout = { clientHeight: 2000, offsetHeight: 160, scrollHeight: 6000 } as const;
const jsdomLayout = Object.fromEntries(Object.keys(layout).map((key) => [key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)]));

beforeAll(async () => {
  for (const [key, value] of Object.entries(layout)) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(async () => {
  for (const [key, descriptor] of Object.entries(jsdomLayout)) if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
  await socketServer.stop();
});
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/kanban');
});
afterEach(() => vi.unstubAllGlobals());

describe('kanban board', { timeout: 30_000 }, () => {
  it('shows the lane without tag, then one lane per kanban tag by name, with cards that open their ticket', async () => {
    const api = server('admin', [ticket(1, []), ticket(2, [vip]), ticket(3, [{ id: 11, name: 'Contato', color: '#cc3333' }, vip])]);
    renderBoard();
    await waitFor(() => expect(screen.getAllByTestId('kanban-lane').map((element) => element.dataset.laneName)).toEqual(['Open', 'Contato', 'Proposta']));
    // A tag that is not a lane does not take a card out of the lane without tag.
    await waitFor(() => expect(cardsIn('Open')).toEqual([1, 2]));
    expect(cardsIn('Contato')).toEqual([3]);
    expect(within(lane('Proposta')).getByTestId('kanban-lane-empty').textContent).toBe('No tickets in this lane.');
    expect(within(lane('Open')).getByTestId('kanban-lane-count').textContent).toBe('2');
    // Admins load the whole company's board, one lane at a time.
    expect(api.calls('GET /ticket/kanban').map((call) => [call.query.get('lane'), call.query.get('showAll')]).sort()).toEqual([
      ['11', 'true'],
      ['12', 'true'],
      ['none', 'true'],
    ]);

    const card = within(lane('Contato')).getByTestId('kanban-card');
    expect(within(card).getByText('Ticket #3')).toBeTruthy();
    expect(within(card).getByTestId('kanban-card-contact').textContent).toBe('Cliente 3');
    expect(within(card).getByText('551190000003')).toBeTruthy();
    expect(within(card).getByTestId('kanban-card-message').textContent).toBe('Mensagem 3');
    await userEvent.click(within(card).getByTestId('kanban-card-open'));
    expect(screen.getByTestId('where').textContent).toBe('/tickets/uuid-3');
  });

  it('moves a card with the keyboard through its "move to" menu, in one request', async () => {
    const api = server('user', [ticket(1, [vip])]);
    api.on('PUT /ticket-tags/1/12', () => ticket(1, [vip, { id: 12, name: 'Proposta', color: '#22a061' }]));
    renderBoard();
    await waitFor(() => expect(cardsIn('Open')).toEqual([1]));
    // An agent's board is its own (the server decides; the client does not ask for everything).
    expect(api.calls('GET /ticket/kanban').every((call) => call.query.get('showAll') === 'false')).toBe(true);

    within(lane('Open')).getByTestId('kanban-card-move').focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Move to Contato', 'Move to Proposta']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(cardsIn('Proposta')).toEqual([1]));
    expect(cardsIn('Open')).toEqual([]);
    expect(api.calls('PUT /ticket-tags/1/12')).toHaveLength(1);
    expect(api.requests.filter((request) => request.method !== 'GET')).toHaveLength(1);
    expect(within(lane('Proposta')).getByTestId('kanban-lane-count').textContent).toBe('1');
    expect(screen.getByTestId('kanban-announcement').textContent).toBe('Ticket 1 moved to Proposta.');
  });

  it('moves a card dropped on another lane; back to the lane without tag is a DELETE', async () => {
    const api = server('admin', [ticket(4, [{ id: 11, name: 'Contato', color: '#cc3333' }])]);
    api.on('DELETE /ticket-tags/4', () => ticket(4, []));
    renderBoard();
    await waitFor(() => expect(cardsIn('Contato')).toEqual([4]));
    const types: string[] = [];
    const dataTransfer = { types, setData: (type: string) => types.push(type), effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(within(lane('Contato')).getByTestId('kanban-card'), { dataTransfer });
    fireEvent.dragOver(lane('Open'), { dataTransfer });
    fireEvent.drop(lane('Open'), { dataTransfer });
    await waitFor(() => expect(cardsIn('Open')).toEqual([4]));
    expect(cardsIn('Contato')).toEqual([]);
    expect(api.calls('DELETE /ticket-tags/4')).toHaveLength(1);
  });

  it('puts the card back and says why when the server refuses the move', async () => {
    const api = server('admin', [ticket(5, [])]);
    api.on('PUT /ticket-tags/5/11', () => json({ error: 'ERR_NO_PERMISSION' }, 403));
    renderBoard();
    await waitFor(() => expect(cardsIn('Open')).toEqual([5]));
    await userEvent.click(within(lane('Open')).getByTestId('kanban-card-move'));
    await userEvent.click(await screen.findByTestId('kanban-move-to-11'));
    await waitFor(() => expect(shownToasts().some((toast) => toast.variant === 'error')).toBe(true));
    await waitFor(() => expect(cardsIn('Open')).toEqual([5]));
    expect(cardsIn('Contato')).toEqual([]);
  });

  it('follows a move made on another board, and drops a closed ticket (company-{id}-ticket)', async () => {
    server('user', [ticket(7, []), ticket(6, [])]);
    renderBoard();
    await waitFor(() => expect(cardsIn('Open')).toEqual([7, 6]));
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    const moved = ticket(6, [{ id: 12, name: 'Proposta', color: '#22a061' }]);
    await waitFor(async () => {
      await socketServer.push('company-3-ticket', { action: 'update', ticket: moved });
      expect(cardsIn('Proposta')).toEqual([6]);
    });
    expect(cardsIn('Open')).toEqual([7]);
    await socketServer.push('company-3-ticket', { action: 'update', ticket: ticket(7, [], { status: 'closed' }) });
    await waitFor(() => expect(cardsIn('Open')).toEqual([]));
    // Another queue's ticket, not the agent's: not on its board.
    await socketServer.push('company-3-ticket', { action: 'update', ticket: ticket(8, [], { queueId: 9, userId: 2 }) });
    await socketServer.push('company-3-appMessage', { action: 'create', ticket: { ...moved, lastMessage: 'Fechado!' } });
    await waitFor(() => expect(within(lane('Proposta')).getByTestId('kanban-card-message').textContent).toBe('Fechado!'));
    expect(cardsIn('Open')).toEqual([]);
  });

  it('reloads the lanes when a lane tag is deleted or stops being a lane elsewhere, not for a plain tag', async () => {
    const api = server('admin', [ticket(9, [{ id: 11, name: 'Contato', color: '#cc3333' }])]);
    renderBoard();
    await waitFor(() => expect(cardsIn('Contato')).toEqual([9]));
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    const loads = () => api.calls('GET /ticket/kanban').length;
    const before = loads();
    // A plain tag made elsewhere changes no lane (the ticket event after it shows it was handled)...
    await waitFor(async () => {
      await socketServer.push('company-3-tag', { action: 'create', tag: { id: 40, name: 'Plain', color: '#000000', kanban: 0 } });
      await socketServer.push('company-3-ticket', { action: 'update', ticket: ticket(9, [{ id: 11, name: 'Contato', color: '#cc3333' }], { lastMessage: 'Depois' }) });
      expect(within(lane('Contato')).getByTestId('kanban-card-message').textContent).toBe('Depois');
    });
    expect(loads()).toBe(before);
    // ...the lane tag's deletion does: its cards go to the lane without tag.
    await socketServer.push('company-3-tag', { action: 'delete', tagId: 11 });
    await waitFor(() => expect(loads()).toBeGreaterThanOrEqual(before + 3));
    expect(api.calls('GET /tags/kanban').length).toBeGreaterThan(1);
  });

  it('keeps a lane of 2,000 cards light: a page at a time as it scrolls, only the cards in view rendered', async () => {
    const all = Array.from({ length: 2000 }, (_, i) => ticket(i + 1, []));
    const api = server('admin', []);
    api.on('GET /ticket/kanban', (request) => {
      if (request.query.get('lane') !== 'none') return { tickets: [], count: 0, hasMore: false };
      const page = Number(request.query.get('pageNumber'));
      return { tickets: all.slice((page - 1) * 40, page * 40), count: all.length, hasMore: page * 40 < all.length };
    });
    renderBoard();
    await waitFor(() => expect(within(lane('Open')).getByTestId('kanban-lane-count').textContent).toBe('2000'));
    const pagesAsked = () => api.calls('GET /ticket/kanban').filter((call) => call.query.get('lane') === 'none').map((call) => call.query.get('pageNumber'));
    expect(pagesAsked()).toEqual(['1']);
    const rendered = cardsIn('Open').length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(25);

    // Scrolled near the end of what is loaded: the next page, and still only a screenful of cards.
    const scroller = within(lane('Open')).getByTestId('kanban-lane-scroll');
    scroller.scrollTop = 3950;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(pagesAsked()).toEqual(['1', '2']));
    expect(cardsIn('Open').length).toBeLessThan(25);
  });
});
