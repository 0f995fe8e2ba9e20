import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildContact } from '../../test/build-contact';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import SchedulesPage from './schedules-page';
import type { Schedule } from './schedules-queries';

const noop = () => undefined;

function schedule(id: number, overrides: Partial<Schedule> = {}): Schedule {
  return {
    id,
    body: 'Lembrete da consulta',
    contactId: 7,
    contact: { id: 7, name: 'Carla', number: '5511999990000' },
    sendAt: new Date().toISOString(),
    sentAt: null,
    status: 'PENDENTE',
    reason: null,
    whatsappId: null,
    ticketId: null,
    userId: 2,
    mediaPath: null,
    mediaName: null,
    mediaUrl: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function server(list: Schedule[]) {
  return fakeApi({
    'GET /auth/me': () => buildUser(2, { name: 'Bia', company: buildUserCompany({ timezone: 'America/Sao_Paulo' }, { useSchedules: true }) }),
    'GET /schedules': () => ({ schedules: list, hasMore: false }),
    'GET /contacts/7': () => buildContact(7, { name: 'Carla', number: '5511999990000' }),
    'POST /schedules': (request) => schedule(99, { ...(request.body as object), contact: { id: 7, name: 'Carla', number: '5511999990000' } } as Partial<Schedule>),
  });
}

function renderPage(url = '/schedules') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <MemoryRouter initialEntries={[url]}>
            <SchedulesPage />
          </MemoryRouter>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

beforeAll(() => {
  // react-big-calendar's click selection asks what is under the pointer; jsdom has no layout.
  document.elementFromPoint = () => null;
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(async () => {
  localStorage.setItem('token', 'test-token');
  await setupI18n().changeLanguage('en');
});

describe('schedules calendar (spec part 2 §2.6)', { timeout: 30_000 }, () => {
  it('titles the page with the loaded count and shows each schedule with its status; ERRO reads "Sending error"', async () => {
    server([schedule(1), schedule(2, { status: 'ERRO', reason: 'ERR_WAPP_INVALID_CONTACT', contact: { id: 8, name: 'Dora', number: '5511' } })]);
    renderPage();
    await waitFor(() => expect(screen.getByTestId('schedules-title').textContent).toBe('Schedules (2)'));
    const events = await screen.findAllByTestId('schedule-event');
    expect(events.map((event) => event.getAttribute('data-status')).sort()).toEqual(['ERRO', 'PENDENTE']);
    expect(events.find((event) => event.getAttribute('data-status') === 'ERRO')?.textContent).toMatch(/^\d{2}:\d{2} Dora · Sending error$/);
  });

  it('?contactId= opens the add dialog for that contact; the body needs 5 characters; the send time defaults to an hour ahead', async () => {
    const api = server([]);
    renderPage('/schedules?contactId=7');
    const dialog = await screen.findByTestId('schedule-dialog');
    expect(dialog).toBeTruthy();
    expect((screen.getByTestId('schedule-contact') as HTMLInputElement).value).toBe('Carla');
    const sendAt = (screen.getByTestId('schedule-send-at') as HTMLInputElement).value;
    expect(sendAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const user = userEvent.setup();
    await user.type(screen.getByTestId('schedule-body'), 'Oi');
    await user.click(screen.getByTestId('schedule-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(api.calls('POST /schedules')).toHaveLength(0);
    await user.type(screen.getByTestId('schedule-body'), ', tudo bem?');
    await user.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(api.calls('POST /schedules')).toHaveLength(1));
    expect(api.calls('POST /schedules')[0]?.body).toEqual({ body: 'Oi, tudo bem?', contactId: 7, sendAt });
  });

  it('a sent schedule opens read-only: it cannot be submitted again', async () => {
    server([schedule(5, { status: 'ENVIADA', sentAt: new Date().toISOString() })]);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('schedule-event'));
    expect(await screen.findByTestId('schedule-dialog-sent')).toBeTruthy();
    expect((screen.getByTestId('schedule-save') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('schedule-body') as HTMLTextAreaElement).disabled).toBe(true);
  });
});
