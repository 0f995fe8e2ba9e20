import { companyEvent, PAGE_SIZE, type PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { SocketProvider } from '../../realtime/socket';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import { TicketsManager } from './tickets-manager';
import { useTicketsRealtime } from './use-tickets-realtime';
import { buildTicket } from '../../test/build-ticket';

const socketServer = standInSocketServer();
const noop = () => undefined;

function ticket(id: number, status: 'open' | 'pending'): PresentedTicket {
  return buildTicket(id, {
    status,
    userId: status === 'open' ? 1 : null,
    contact: { id, name: `Cliente ${id}`, number: `5511900${id}`, profilePicUrl: '', isGroup: false, email: '' },
    updatedAt: '2026-01-01T10:00:00.000Z',
  });
}

function Live() {
  useTicketsRealtime();
  return null;
}

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/tickets');
});
afterEach(() => vi.unstubAllGlobals());

describe('tickets manager count badges', { timeout: 30_000 }, () => {
  it('show the whole lists, not the loaded page, and follow live events', async () => {
    const state = { pendingTotal: 57 };
    const api = fakeApi({
      'GET /auth/me': () => buildUser(1, { name: 'Ana', queues: [{ id: 5, name: 'Vendas', color: '#338ccc' }], company: buildUserCompany({ name: 'Acme' }) }),
      'GET /tickets': (request) =>
        request.query.get('status') === 'pending'
          ? { tickets: Array.from({ length: PAGE_SIZE }, (_, i) => ticket(100 + i, 'pending')), hasMore: true }
          : { tickets: [ticket(1, 'open'), ticket(2, 'open')], hasMore: false },
      'GET /tickets/count': (request) => ({ count: request.query.get('status') === 'pending' ? state.pendingTotal : 2 }),
      'GET /tags/list': () => [],
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ToastHost>
          <SessionProvider onSessionEnd={noop}>
            <SocketProvider>
              <MemoryRouter initialEntries={['/tickets']}>
                <Live />
                <TicketsManager selectedUuid={undefined} />
              </MemoryRouter>
            </SocketProvider>
          </SessionProvider>
        </ToastHost>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('count-pending').textContent).toBe('57'));
    // A fully loaded list counts itself: no count request for it.
    expect(screen.getByTestId('count-open').textContent).toBe('2');
    expect(api.calls('GET /tickets/count').map((call) => call.query.get('status'))).toEqual(['pending']);
    expect(api.calls('GET /tickets/count')[0]!.query.get('queueIds')).toBe('[5]');

    // A new pending ticket somewhere beyond the loaded page: the count follows.
    await waitFor(() => expect(socketServer.connected(companyEvent(3, 'ticket'))).toBe(true));
    state.pendingTotal = 58;
    await socketServer.push(companyEvent(3, 'ticket'), { action: 'update', ticket: ticket(999, 'pending') });
    await waitFor(() => expect(screen.getByTestId('count-pending').textContent).toBe('58'));
  });
});
