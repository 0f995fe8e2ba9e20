import type { PresentedUser } from '@atende/shared';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { ToastHost } from '../../components/toast';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from '../../api/session';
import { setupI18n } from '../../i18n';
import { SocketProvider } from '../../realtime/socket';
import { buildUser, buildUserCompany, type UserOverrides } from '../../test/build-user';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import UsersPage from './users-page';
import { useOwnUserEvents } from './users-queries';

/**
 * The real session and socket provider against a real Socket.IO server standing
 * in for ours: it pushes `company-{id}-user` the way the server does.
 */
let http: HttpServer;
let io: Server;
let port = 0;
let connected: ServerSocket | null = null;

beforeAll(async () => {
  http = createServer();
  io = new Server(http);
  io.on('connection', (socket) => {
    connected = socket;
    // As our server does once the socket is in its rooms.
    socket.emit('ready');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(async () => {
  await io.close();
});

const vendas = { id: 11, name: 'Vendas', color: '#2f7dd1' };

function record(id: number, name: string, extra: UserOverrides = {}): PresentedUser {
  return buildUser(id, { name, email: `${name.toLowerCase()}@example.com`, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...extra });
}

let api: FakeApi;
function signedInAs(self: PresentedUser, people: PresentedUser[]) {
  const company = buildUserCompany({ name: 'Empresa' });
  api = fakeApi({
    'GET /auth/me': (): PresentedUser => ({ ...self, company: { ...company, plan: { ...company.plan, users: 0 } } }),
    'GET /users': () => ({ users: people, count: people.length, hasMore: false }),
    'GET /tickets': () => ({ tickets: [], hasMore: false }),
  });
}

beforeEach(async () => {
  connected = null;
  vi.stubGlobal('location', new URL(`http://127.0.0.1:${port}/users`));
  localStorage.setItem('token', 'test-token');
  localStorage.setItem('i18nextLng', 'en');
  await setupI18n().changeLanguage('en');
});

const noop = () => undefined;

function renderLive(children: ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <SocketProvider>
            <MemoryRouter initialEntries={['/users']}>{children}</MemoryRouter>
          </SocketProvider>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

/** Pushes an event as our server does (one socket delivers in order). */
async function push(event: string, payload: unknown) {
  await waitFor(() => expect(connected).not.toBeNull());
  await act(async () => {
    connected!.emit(event, payload);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
}

/**
 * The page listens a moment after the socket is ready, and nothing tells the
 * server when: the first (idempotent) event is pushed again until it shows.
 */
async function pushUntil(event: string, payload: unknown, shown: () => void) {
  await waitFor(async () => {
    await push(event, payload);
    shown();
  });
}

const ids = () => screen.getAllByTestId('user-row').map((row) => row.dataset.userId);

describe('users, live', { timeout: 20_000 }, () => {
  it('adds, updates and removes rows from company-{id}-user, and keeps the count', async () => {
    const admin = record(1, 'Admin', { profile: 'admin' });
    signedInAs(admin, [admin]);
    renderLive(<UsersPage />);
    await waitFor(() => expect(ids()).toEqual(['1']));
    await pushUntil('company-3-user', { action: 'create', user: record(2, 'Bia') }, () => expect(ids()).toEqual(['2', '1']));
    expect(screen.getByTestId('users-count').textContent).toBe('2 users');
    await push('company-3-user', { action: 'update', user: record(2, 'Bia', { queues: [vendas], online: true }) });
    await waitFor(() => expect(within(screen.getAllByTestId('user-row')[0]!).getByTestId('user-online').dataset.online).toBe('true'));
    expect(within(screen.getAllByTestId('user-row')[0]!).getAllByText('Vendas').length).toBeGreaterThan(0);
    await push('company-3-user', { action: 'delete', userId: 2 });
    await waitFor(() => expect(ids()).toEqual(['1']));
    expect(screen.getByTestId('users-count').textContent).toBe('1 user');
  });

  it("an admin's change of one's own queues reaches the session and refetches the ticket lists, without a new login", async () => {
    const agent = record(2, 'Agente', { queues: [vendas] });
    signedInAs(agent, [agent]);
    function Probe() {
      useOwnUserEvents();
      const { user, api: client } = useSession();
      useQuery({ queryKey: ['tickets', 'open'], queryFn: () => client.get('/tickets', { status: 'open' }), enabled: Boolean(user) });
      return (
        <>
          <div data-testid="my-name">{user?.name}</div>
          <div data-testid="my-queues">{user ? user.queues.map((q) => q.name).join(',') || 'none' : ''}</div>
        </>
      );
    }
    renderLive(<Probe />);
    await waitFor(() => expect(screen.getByTestId('my-queues').textContent).toBe('Vendas'));
    await waitFor(() => expect(api.calls('GET /tickets')).toHaveLength(1));
    // Its presence changing is an update of the user too: the session follows, the lists are not refetched.
    await pushUntil('company-3-user', { action: 'update', user: { ...agent, name: 'Agente Ana', online: true } }, () => expect(screen.getByTestId('my-name').textContent).toBe('Agente Ana'));
    expect(api.calls('GET /tickets')).toHaveLength(1);
    await push('company-3-user', { action: 'update', user: { ...agent, name: 'Agente Ana', queues: [] } });
    await waitFor(() => expect(screen.getByTestId('my-queues').textContent).toBe('none'));
    await waitFor(() => expect(api.calls('GET /tickets')).toHaveLength(2));
  });
});
