import type { PresentedHolidayPeriod } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { draftErrors, HolidayPeriodsPanel } from './holiday-periods-panel';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
afterEach(() => vi.unstubAllGlobals());

const period: PresentedHolidayPeriod = {
  id: 5,
  whatsappId: 7,
  companyId: 3,
  startDate: '2024-12-24',
  endDate: '2024-12-26',
  message: 'Estamos em recesso',
  active: true,
  repeatIntervalHours: 24,
  createdAt: '2024-12-01T10:00:00.000Z',
  updatedAt: '2024-12-01T10:00:00.000Z',
};

/** The connection's periods answer GETs; every write answers `period`. */
function server(list: PresentedHolidayPeriod[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ url, method, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      return Response.json(method === 'GET' ? list : period);
    }),
  );
  return { writes: () => calls.filter((call) => call.method !== 'GET') };
}

function wrap(children: React.ReactNode) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>{children}</SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

describe('holiday periods of a connection', { timeout: 30_000 }, () => {
  it('the form refuses missing days, an end before the start and hours out of 1–720', () => {
    expect(draftErrors({ id: null, startDate: '', endDate: '', message: '', repeatIntervalHours: '24' })).toEqual({ startDate: 'validation.required', endDate: 'validation.required' });
    expect(draftErrors({ id: null, startDate: '2024-12-26', endDate: '2024-12-24', message: '', repeatIntervalHours: '0' })).toEqual({ endDate: 'validation.endBeforeStart', repeatIntervalHours: 'validation.invalidValue' });
    expect(draftErrors({ id: null, startDate: '2024-12-24', endDate: '2024-12-24', message: '', repeatIntervalHours: '12' })).toEqual({});
  });

  it('asks to save a new connection first', () => {
    server([]);
    wrap(<HolidayPeriodsPanel connectionId={null} />);
    expect(screen.getByText('Save the connection before adding holidays.')).toBeTruthy();
  });

  it('lists the periods, adds one, switches one off and deletes one', async () => {
    const { writes } = server([period]);
    wrap(<HolidayPeriodsPanel connectionId={7} />);
    expect(await screen.findByText('2024-12-24 to 2024-12-26')).toBeTruthy();
    expect(screen.getByText('Estamos em recesso')).toBeTruthy();

    await userEvent.click(screen.getByTestId('holiday-save'));
    expect(screen.getAllByText('Required')).toHaveLength(2);
    expect(writes()).toHaveLength(0);
    fireEvent.change(screen.getByTestId('holiday-startDate'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByTestId('holiday-endDate'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByTestId('holiday-message'), { target: { value: 'Feliz ano novo' } });
    await userEvent.click(screen.getByTestId('holiday-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ url: '/whatsapp/7/holiday-periods', method: 'POST', body: { startDate: '2025-01-01', endDate: '2025-01-01', message: 'Feliz ano novo', repeatIntervalHours: 24 } });

    await userEvent.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toEqual({ url: '/whatsapp/7/holiday-periods/5', method: 'PUT', body: { active: false } });
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()[2]).toMatchObject({ url: '/whatsapp/7/holiday-periods/5', method: 'DELETE' });
  });
});
