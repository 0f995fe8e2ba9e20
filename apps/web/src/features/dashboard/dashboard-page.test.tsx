import type { DashboardAnswer } from '@atende/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import { shownToasts } from '../../test/toasts';
import DashboardPage, { defaultFilter } from './dashboard-page';

const socketServer = standInSocketServer();
const admin = buildUser(1, { name: 'Ana', profile: 'admin', company: buildUserCompany() });

const answer = (supportFinished: number): DashboardAnswer => ({
  counters: {
    supportHappening: 2,
    supportPending: 1,
    supportFinished,
    leads: 5,
    avgSupportTime: 75,
    avgWaitTime: 12.4,
    firstResponseMedian: 3,
    firstResponseP90: 61,
    ratings: { 1: 1, 2: 0, 3: 4 },
    ratingResponseRate: 62.5,
  },
  attendants: [
    { id: 7, name: 'Bia', online: true, tickets: 3, rating: 2.5, avgSupportTime: 30 },
    { id: 8, name: 'Caio', online: false, tickets: 0, rating: null, avgSupportTime: 0 },
  ],
  range: { from: '2026-11-01', to: '2026-11-25', timeZone: 'America/Sao_Paulo' },
});

const routes = (requests: FakeRequest[]) => ({
  'GET /auth/me': () => admin,
  'GET /queue': () => [],
  'GET /whatsapp': () => [],
  'GET /dashboard': (request: FakeRequest) => {
    requests.push(request);
    return answer(request.query.get('days') === '7' ? 9 : 8);
  },
  'GET /dashboard/ticketsUsers': () => ({ data: [{ nome: 'Bia', quantidade: 3 }], count: 3 }),
  'GET /dashboard/ticketsDay': () => ({ data: [{ data: '2026-11-24', total: 1 }, { data: '2026-11-25', total: 2 }], count: 3 }),
});

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/dashboard');
});
afterEach(() => vi.unstubAllGlobals());

describe('dashboard page', { timeout: 30_000 }, () => {
  it('shows the counters in hours and minutes, the attendants and the charts; a period reloads them', async () => {
    const requests: FakeRequest[] = [];
    fakeApi(routes(requests));
    renderPages('/', { '/': <DashboardPage /> });
    expect((await screen.findByTestId('dashboard-counter-supportFinished')).textContent).toBe('8');
    expect(screen.getByTestId('dashboard-counter-avgSupportTime').textContent).toBe('1h 15m');
    expect(screen.getByTestId('dashboard-counter-avgWaitTime').textContent).toBe('0h 12m');
    expect(screen.getByTestId('dashboard-counter-ratings').textContent).toBe('1 · 0 · 4');
    expect(requests[0]?.query.get('date_from')).toBe(defaultFilter().from);
    const rows = await screen.findAllByTestId('dashboard-attendant');
    expect(rows.map((row) => row.dataset.name)).toEqual(['Bia', 'Caio']);
    expect(within(rows[0]!).getByTestId('dashboard-attendant-online').dataset.online).toBe('true');
    await waitFor(() => expect(screen.getByTestId('dashboard-chart-users-total').textContent).toBe('Total: 3'));
    await waitFor(() => expect(screen.getByTestId('dashboard-chart-days-total').textContent).toBe('Total: 3'));

    await userEvent.click(screen.getByTestId('dashboard-filter-type').parentElement!.querySelector('[role="combobox"]')!);
    await userEvent.click(await screen.findByRole('option', { name: 'By period' }));
    await userEvent.click(screen.getByTestId('dashboard-apply'));
    await waitFor(() => expect(shownToasts()).toEqual([{ text: 'Select a filter: a period or dates.', variant: 'error' }]));
    await userEvent.click(screen.getByTestId('dashboard-period').parentElement!.querySelector('[role="combobox"]')!);
    await userEvent.click(await screen.findByRole('option', { name: 'Last 7 days' }));
    await userEvent.click(screen.getByTestId('dashboard-apply'));
    await waitFor(() => expect(screen.getByTestId('dashboard-counter-supportFinished').textContent).toBe('9'));
    expect(requests.at(-1)?.query.get('days')).toBe('7');
  });

  it('sends a user profile to the tickets', async () => {
    fakeApi({ ...routes([]), 'GET /auth/me': () => ({ ...admin, profile: 'user' }) });
    renderPages('/', { '/': <DashboardPage />, '/tickets': <p data-testid="tickets-here">tickets</p> });
    expect(await screen.findByTestId('tickets-here')).toBeTruthy();
  });
});
