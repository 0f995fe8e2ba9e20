import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../components/toast';
import { MemoryRouter, useLocation } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../api/session';
import { setupI18n } from '../i18n';
import { SocketProvider } from '../realtime/socket';
import { buildUser, buildUserCompany } from '../test/build-user';
import { fakeApi, json } from '../test/fake-api';
import { standInSocketServer } from '../test/stand-in-socket-server';
import { AppRoutes } from './routes';

const socketServer = standInSocketServer();
const EXPIRED_ON = '2026-01-10T12:00:00.000Z';
const plan = { id: 1, name: 'Pro', users: 5, connections: 1, queues: 1, value: 99, useCampaigns: true, useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true };
const overdueAdmin = buildUser(1, { name: 'Ana', email: 'ana@acme.com', profile: 'admin', language: 'en', company: buildUserCompany({ name: 'Acme', dueDate: EXPIRED_ON, plan }) });
const invoices = [{ id: 9, detail: 'Pro', value: 99, dueDate: EXPIRED_ON, status: 'expired', paidAt: null, createdAt: EXPIRED_ON }];

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderApp(path: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <SocketProvider>
            <MemoryRouter initialEntries={[path]}>
              <AppRoutes />
              <Where />
            </MemoryRouter>
          </SocketProvider>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

const expiredAnswer = () => json({ error: 'ERR_SUBSCRIPTION_EXPIRED', message: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: EXPIRED_ON }, 402);
const billingRoutes = {
  'GET /invoices/all': () => new Response(JSON.stringify(invoices), { headers: { 'content-type': 'application/json', 'x-has-more': 'false' } }),
  'GET /version': () => ({ version: '6.0.0' }),
  'GET /subscription': () => ({ companyId: 3, name: 'Acme', email: 'ana@acme.com', plan: { id: 1, name: 'Pro', value: 99 }, recurrence: 'MENSAL', dueDate: EXPIRED_ON, trialExpiration: null, trialDaysLeft: null, paymentsEnabled: true, mailEnabled: true }),
};

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(async () => {
  localStorage.setItem('i18nextLng', 'en');
  await setupI18n().changeLanguage('en');
});

async function signInExpired() {
  await userEvent.type(await screen.findByTestId('login-email', {}, { timeout: 5000 }), 'ana@acme.com');
  await userEvent.type(screen.getByTestId('login-password'), 'Secret123');
  await userEvent.click(screen.getByTestId('login-submit'));
  expect((await screen.findByTestId('login-error')).textContent).toContain('Your subscription expired on 10/01/2026');
}

describe('an overdue company (spec part 1 §2 login; part 2 §2.17)', { timeout: 30_000 }, () => {
  it('login refused with 402 offers Pay now: an admin signs in again for billing and lands on /financeiro', async () => {
    socketServer.point('/login');
    const api = fakeApi({
      'POST /auth/login': (request) => ((request.body as { billing?: boolean }).billing ? { token: 'billing-token', user: overdueAdmin } : expiredAnswer()),
      ...billingRoutes,
    });
    renderApp('/login');
    await signInExpired();
    await userEvent.click(screen.getByTestId('login-pay'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/financeiro'));
    expect(await screen.findByTestId('invoice-pay-9')).toBeTruthy();
    expect(screen.getByTestId('overdue-banner').textContent).toBe('Your subscription expired on 10/01/2026. Pay the open invoice to restore access to every area.');
    expect(api.calls('POST /auth/login').map((r) => r.body)).toEqual([
      { email: 'ana@acme.com', password: 'Secret123' },
      { email: 'ana@acme.com', password: 'Secret123', billing: true },
    ]);
    // Only the billing pages are in the menu (a drawer on jsdom's narrow screen), and nothing the server would refuse is asked for.
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(await screen.findByTestId('menu-financeiro')).toBeTruthy();
    expect(screen.getByTestId('menu-subscription')).toBeTruthy();
    expect(screen.queryByTestId('menu-tickets')).toBeNull();
    expect(api.unhandled.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('a user refused again (not an admin) keeps the expired message', async () => {
    socketServer.point('/login');
    const api = fakeApi({ 'POST /auth/login': expiredAnswer });
    renderApp('/login');
    await signInExpired();
    await userEvent.click(screen.getByTestId('login-pay'));
    await waitFor(() => expect(screen.queryByTestId('login-pay')).toBeNull());
    expect(screen.getByTestId('login-error').textContent).toContain('Your subscription expired on 10/01/2026');
    expect(screen.getByTestId('where').textContent).toBe('/login');
    expect(api.calls('POST /auth/login')).toHaveLength(2);
  });

  it('sends every other private page to /financeiro without loading it; /subscription stays open', async () => {
    localStorage.setItem('token', 'billing-token');
    socketServer.point('/tickets');
    const api = fakeApi({
      'GET /auth/me': () => overdueAdmin,
      ...billingRoutes,
    });
    renderApp('/tickets');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/financeiro'));
    expect(await screen.findByTestId('invoice-pay-9')).toBeTruthy();
    expect(screen.getByTestId('overdue-banner')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(await screen.findByTestId('menu-subscription'));
    expect(await screen.findByTestId('trial-days')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/subscription');
    expect(api.unhandled.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});
