import { companyEvent, type PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ToastHost } from '../../components/toast';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { TopBar } from '../../app/layout/top-bar';
import { AppThemeProvider } from '../../app/theme';
import { LiveAnnouncerProvider } from '../../components/live-announcer';
import { setupI18n } from '../../i18n';
import { SocketProvider } from '../../realtime/socket';
import { buildQueue } from '../../test/build-queue';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import { buildTicket } from '../../test/build-ticket';

const socketServer = standInSocketServer();
const noop = () => undefined;

function ticket(id: number, extra: Partial<PresentedTicket> = {}): PresentedTicket {
  return buildTicket(id, { unreadMessages: 1, ...extra });
}

/** The server: pending and own-unread tickets (as lists of one page) and their whole counts. */
function server(state: { pending: PresentedTicket[]; unread: PresentedTicket[]; pendingCount?: number }, profile: 'user' | 'admin' = 'user') {
  const which = (request: FakeRequest) => (request.query.get('status') === 'pending' ? state.pending : state.unread);
  return fakeApi({
    'GET /queue': () => [buildQueue(5, { name: 'Vendas', color: '#338ccc' }), buildQueue(6, { name: 'Suporte', color: '#cc3333' })],
    'GET /auth/me': () => buildUser(1, { name: 'Ana', profile, allTicket: 'enabled', queues: [{ id: 5, name: 'Vendas', color: '#338ccc' }], company: buildUserCompany({ name: 'Acme' }) }),
    'GET /tickets': (request) => {
      const tickets = which(request);
      const whole = request.query.get('status') === 'pending' ? (state.pendingCount ?? tickets.length) : tickets.length;
      return { tickets, hasMore: whole > tickets.length };
    },
    'GET /tickets/count': (request) => ({ count: request.query.get('status') === 'pending' ? (state.pendingCount ?? state.pending.length) : state.unread.length }),
  });
}

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderTopBar(path = '/') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <AppThemeProvider>
          <SessionProvider onSessionEnd={noop}>
            <SocketProvider>
              <MemoryRouter initialEntries={[path]}>
                <Routes>
                  <Route path="*" element={<Where />} />
                </Routes>
                <LiveAnnouncerProvider>
                  <TopBar onToggleMenu={noop} />
                </LiveAnnouncerProvider>
              </MemoryRouter>
            </SocketProvider>
          </SessionProvider>
        </AppThemeProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

/** The browser's Notification API, standing in for the desktop. */
function desktop(permission: NotificationPermission) {
  const shown: { title: string; body?: string }[] = [];
  const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
  class FakeNotification {
    static permission = permission;
    static requestPermission = requestPermission;
    onclick: (() => void) | null = null;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body });
    }
    close() {}
  }
  vi.stubGlobal('Notification', FakeNotification);
  return { shown, requestPermission };
}

const hideTab = (hidden: boolean) => Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
const bellCount = () => screen.getByTestId('notifications-count').querySelector('.MuiBadge-badge')?.textContent;
const items = () => within(screen.getByTestId('notifications-popover')).queryAllByTestId('notification-item').map((item) => item.dataset.ticketUuid);

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/');
  hideTab(false);
  document.title = 'Atende';
});
afterEach(() => vi.unstubAllGlobals());

describe('notifications popover', { timeout: 30_000 }, () => {
  it('counts every ticket that needs the user on the bell and in the tab title, lists them newest first, and opens one', async () => {
    desktop('granted');
    const api = server({ pending: [ticket(2), ticket(7)], unread: [ticket(5, { status: 'open', userId: 1, unreadMessages: 3 })], pendingCount: 30 });
    renderTopBar();
    await waitFor(() => expect(bellCount()).toBe('31'));
    expect(document.title).toBe('(31) Atende');
    // Only the list longer than its page asks for its whole count.
    expect(api.calls('GET /tickets/count').map((call) => call.query.get('status'))).toEqual(['pending']);
    // The lists the server's visibility rules give: pending, and the user's open ones with unread messages.
    expect(api.calls('GET /tickets').map((call) => [call.query.get('status'), call.query.get('withUnreadMessages')]).sort()).toEqual([
      ['open', 'true'],
      ['pending', null],
    ]);

    fireEvent.click(await screen.findByTestId('notifications-button'));
    await waitFor(() => expect(items()).toEqual(['uuid-7', 'uuid-5', 'uuid-2']));
    const popover = screen.getByTestId('notifications-popover');
    expect(within(popover).getByText('3 unread')).toBeTruthy();
    expect(within(popover).getAllByText('Waiting')).toHaveLength(2);
    expect(within(popover).getByText('And 28 more in the tickets list.')).toBeTruthy();

    fireEvent.click(within(popover).getAllByTestId('notification-item')[1]!);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/tickets/uuid-5'));
  });

  it("asks for the user's own queues, and an admin's for every queue of the company, as the tickets manager does", async () => {
    desktop('granted');
    const userApi = server({ pending: [ticket(2)], unread: [] });
    renderTopBar();
    await waitFor(() => expect(bellCount()).toBe('1'));
    expect(userApi.calls('GET /tickets').map((call) => call.query.get('queueIds'))).toEqual(['[5]', '[5]']);
    expect(userApi.calls('GET /queue')).toHaveLength(0);
    cleanup();

    const adminApi = server({ pending: [ticket(2)], unread: [] }, 'admin');
    renderTopBar();
    await waitFor(() => expect(bellCount()).toBe('1'));
    expect(adminApi.calls('GET /tickets').map((call) => call.query.get('queueIds'))).toEqual(['[5,6]', '[5,6]']);
    // Both lists fit on a page: they count themselves.
    expect(adminApi.calls('GET /tickets/count')).toHaveLength(0);
  });

  it('shows the empty state and clears the title count', async () => {
    desktop('granted');
    server({ pending: [], unread: [] });
    renderTopBar();
    fireEvent.click(await screen.findByTestId('notifications-button'));
    await waitFor(() => expect(screen.getByTestId('notifications-popover-empty').textContent).toBe('No ticket needs you right now.'));
    expect(document.title).toBe('Atende');
  });

  it('follows live events, and a customer message in a hidden tab shows a desktop notification', async () => {
    const { shown } = desktop('granted');
    const state = { pending: [ticket(2)], unread: [] as PresentedTicket[] };
    server(state);
    renderTopBar();
    await waitFor(() => expect(bellCount()).toBe('1'));
    await waitFor(() => expect(socketServer.connected(companyEvent(3, 'appMessage'))).toBe(true));

    // A new customer writes: a pending ticket, while the tab is visible (no desktop notification).
    const fresh = ticket(9, { lastMessage: 'Olá, preciso de ajuda' });
    state.pending = [ticket(2), fresh];
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 90, fromMe: false, body: 'Olá, preciso de ajuda' }, ticket: fresh });
    await waitFor(() => expect(bellCount()).toBe('2'));
    expect(document.title).toBe('(2) Atende');
    expect(shown).toEqual([]);

    // The same in a hidden tab: the desktop tells.
    hideTab(true);
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 91, fromMe: false, body: 'Alguém aí?' }, ticket: fresh });
    expect(shown).toEqual([{ title: 'New message from Cliente 9', body: 'Alguém aí?' }]);
    // Announced again (its provider delivered it twice): the screens apply it, nobody is told twice.
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 91, fromMe: false, body: 'Alguém aí?' }, ticket: fresh });
    expect(shown).toHaveLength(1);
    // The agent's own message never notifies.
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 92, fromMe: true, body: 'Oi!' }, ticket: fresh });
    expect(shown).toHaveLength(1);

    // Accepted elsewhere: a ticket event, and the ticket leaves the bell.
    state.pending = [ticket(2)];
    await socketServer.push(companyEvent(3, 'ticket'), { action: 'update', ticket: { ...fresh, status: 'open', userId: 4 } });
    await waitFor(() => expect(bellCount()).toBe('1'));
    expect(document.title).toBe('(1) Atende');
  });

  it("names the bell by its visible count first, and reads customers' new messages out in the polite live region", async () => {
    desktop('granted');
    const open = ticket(4, { status: 'open', userId: 1, unreadMessages: 0 });
    const state = { pending: [ticket(2)], unread: [] as PresentedTicket[] };
    server(state);
    // The agent has ticket 4's conversation open.
    renderTopBar('/tickets/uuid-4');
    await waitFor(() => expect(bellCount()).toBe('1'));
    const bell = screen.getByTestId('notifications-button');
    // WCAG 2.5.3: the accessible name starts with the badge's visible text.
    expect(bell.getAttribute('aria-label')).toBe('1 notification');
    await waitFor(() => expect(socketServer.connected(companyEvent(3, 'appMessage'))).toBe(true));
    const region = screen.getByTestId('live-region');
    expect(region.getAttribute('role')).toBe('status');
    expect(region.getAttribute('aria-live')).toBe('polite');

    // A new customer: a ticket waiting.
    const fresh = ticket(9);
    state.pending = [ticket(2), fresh];
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 90, fromMe: false, body: 'Olá, preciso de ajuda' }, ticket: fresh });
    await waitFor(() => expect(region.textContent).toBe('New ticket waiting, from Cliente 9: Olá, preciso de ajuda'));
    await waitFor(() => expect(bell.getAttribute('aria-label')).toBe('2 notifications'));

    // A message in the conversation on screen: no sound, but read out (a screen reader does not see it arrive).
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 91, fromMe: false, body: 'Chegou?' }, ticket: open });
    await waitFor(() => expect(region.textContent).toBe('New message from Cliente 4: Chegou?'));

    // The agent's own message is not announced.
    await socketServer.push(companyEvent(3, 'appMessage'), { action: 'create', message: { id: 92, fromMe: true, body: 'Sim!' }, ticket: open });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(region.textContent).toBe('New message from Cliente 4: Chegou?');
  });

  it('asks for the desktop permission from a click in the popover', async () => {
    const { requestPermission } = desktop('default');
    server({ pending: [], unread: [] });
    renderTopBar();
    fireEvent.click(await screen.findByTestId('notifications-button'));
    fireEvent.click(await screen.findByTestId('enable-desktop-notifications'));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId('enable-desktop-notifications')).toBeNull());
  });
});
