import type { PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter, Route, Routes, useLocation, useParams } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json, type FakeRequest } from '../../test/fake-api';
import { shownToasts } from '../../test/toasts';
import { TicketsManager } from './tickets-manager';
import { buildTicket } from '../../test/build-ticket';

const noop = () => undefined;

function ticket(id: number, status: PresentedTicket['status'], userId: number | null): PresentedTicket {
  return buildTicket(id, { status, userId, updatedAt: '2026-01-01T10:00:00.000Z' });
}

/** Where the router is. */
function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function Manager() {
  return <TicketsManager selectedUuid={useParams().ticketId} />;
}

/** The tickets manager at /tickets, with the session, toasts and router it runs in. */
function renderManager() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <MemoryRouter initialEntries={['/tickets']}>
            <Routes>
              <Route
                path="/tickets/:ticketId?"
                element={
                  <>
                    <Where />
                    <Manager />
                  </>
                }
              />
            </Routes>
          </MemoryRouter>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

// jsdom lays nothing out: the list's scroll box and its rows get a size, so the virtual list renders its rows.
const layout = { clientHeight: 2000, offsetHeight: 108, scrollHeight: 2000 } as const;
const jsdomLayout = Object.fromEntries(Object.keys(layout).map((key) => [key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)]));

beforeAll(() => {
  for (const [key, value] of Object.entries(layout)) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
afterAll(() => {
  for (const [key, descriptor] of Object.entries(jsdomLayout)) if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
});
beforeEach(() => localStorage.setItem('token', 'test-token'));
afterEach(() => vi.unstubAllGlobals());

describe('tickets manager', { timeout: 30_000 }, () => {
  it('follows an accepted ticket from the Waiting tab to the In progress tab', async () => {
    // The server's tickets: one waiting ticket that the PUT assigns to the agent.
    const rows = new Map<number, PresentedTicket>([[7, ticket(7, 'pending', null)]]);
    const api = fakeApi({
      'GET /auth/me': () => buildUser(1, { name: 'Ana', queues: [{ id: 5, name: 'Vendas', color: '#338ccc' }], company: buildUserCompany() }),
      'GET /tickets': (request: FakeRequest) => ({ tickets: [...rows.values()].filter((row) => row.status === request.query.get('status')), hasMore: false }),
      'PUT /tickets/7': (request: FakeRequest) => {
        const body = request.body as { status: PresentedTicket['status']; userId: number };
        const updated = { ...rows.get(7)!, status: body.status, userId: body.userId };
        rows.set(7, updated);
        return updated;
      },
    });
    const user = userEvent.setup();
    renderManager();

    await waitFor(() => expect(screen.getByTestId('count-pending').textContent).toBe('1'));
    await user.click(screen.getByTestId('subtab-pending'));
    const waiting = await screen.findByTestId('ticket-item');
    expect(waiting.dataset.status).toBe('pending');

    await user.click(within(waiting).getByTestId('ticket-accept'));

    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/tickets/uuid-7'));
    expect(api.calls('PUT /tickets/7').map((call) => call.body)).toEqual([
      { status: 'open', userId: 1, queueId: 5, expected: { status: 'pending', userId: null, queueId: 5 } },
    ]);
    // The list follows the ticket: In progress is the shown tab, with the accepted ticket in it.
    await waitFor(() => expect(screen.getByTestId('subtab-open').getAttribute('aria-selected')).toBe('true'));
    expect(screen.getByTestId('subtab-pending').getAttribute('aria-selected')).toBe('false');
    await waitFor(() => expect(screen.getByTestId('ticket-item').dataset.status).toBe('open'));
    expect(screen.getByTestId('ticket-item').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('count-pending').textContent).toBe('0');
    expect(api.unhandled).toEqual([]);
  });

  it('an accept that lost the race (409) names the winner in a toast and shows the ticket as the winner left it', async () => {
    const rows = new Map<number, PresentedTicket>([[7, ticket(7, 'pending', null)]]);
    const api = fakeApi({
      'GET /auth/me': () => buildUser(1, { name: 'Bruno', queues: [{ id: 5, name: 'Vendas', color: '#338ccc' }], company: buildUserCompany() }),
      'GET /tickets': (request: FakeRequest) => ({ tickets: [...rows.values()].filter((row) => row.status === request.query.get('status')), hasMore: false }),
      // Ana accepted it a moment before: the server refuses Bruno's accept.
      'PUT /tickets/7': () => {
        const taken = { ...rows.get(7)!, status: 'open' as const, userId: 2, user: { id: 2, name: 'Ana' } };
        rows.set(7, taken);
        return json({ error: 'ERR_TICKET_ALREADY_ACCEPTED', userName: 'Ana', ticket: taken }, 409);
      },
    });
    const user = userEvent.setup();
    renderManager();

    await waitFor(() => expect(screen.getByTestId('count-pending').textContent).toBe('1'));
    await user.click(screen.getByTestId('subtab-pending'));
    await user.click(within(await screen.findByTestId('ticket-item')).getByTestId('ticket-accept'));

    await waitFor(() => expect(shownToasts()).toEqual([{ text: 'Ticket already accepted by Ana', variant: 'error' }]));
    // Bruno stays on the list, which no longer offers the ticket as waiting.
    expect(screen.getByTestId('where').textContent).toBe('/tickets');
    await waitFor(() => expect(screen.getByTestId('count-pending').textContent).toBe('0'));
    expect(screen.queryByTestId('ticket-item')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });
});
