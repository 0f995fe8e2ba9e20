import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json } from '../../test/fake-api';
import { shownToasts } from '../../test/toasts';
import type { Help } from '../helps/helps-queries';
import SettingsPage from './settings-page';

const help = (id: number, title: string, video: string, description = ''): Help => ({ id, title, video, description, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

/** The server as the settings page sees it, with a help list the handlers keep. */
function server(isSuper: boolean, initial: Help[]) {
  let helps = [...initial];
  let next = 100;
  const api = fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Root', profile: 'admin', super: isSuper, companyId: 1, company: buildUserCompany({ id: 1 }) }),
    'GET /settings': () => [{ key: 'scheduleType', value: 'disabled' }],
    'GET /helps/list': () => helps,
    'POST /helps': (request) => {
      const created = help(next++, '', '', '');
      Object.assign(created, request.body);
      helps.push(created);
      return json(created, 201);
    },
  });
  return { api, helps: () => helps, remove: (id: number) => (helps = helps.filter((h) => h.id !== id)) };
}

function renderPage(path = '/settings?tab=helps') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <MemoryRouter initialEntries={[path]}>
            <SettingsPage />
          </MemoryRouter>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

const rows = () => screen.queryAllByTestId('help-row').map((row) => row.dataset.helpTitle);

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(async () => {
  localStorage.setItem('token', 'test-token');
  await setupI18n().changeLanguage('en');
});

describe('Settings → Helps tab (spec part 2 §2.15)', { timeout: 30_000 }, () => {
  it('is not offered to an admin who is not a super user: ?tab=helps falls back to Options and nothing is fetched', async () => {
    const { api } = server(false, [help(1, 'Secret', 'abc')]);
    renderPage();
    expect(await screen.findByTestId('settings-panel-options')).toBeTruthy();
    expect(screen.queryByTestId('settings-tab-helps')).toBeNull();
    expect(api.calls('GET /helps/list')).toHaveLength(0);
  });

  it('lists the videos and adds one after checking title and video code', async () => {
    const { api } = server(true, [help(1, 'Tickets', 'tick1', 'Answering')]);
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Tickets']));
    expect(screen.getByTestId('settings-tab-helps').textContent).toBe('Help');
    await userEvent.click(screen.getByTestId('help-add'));
    const dialog = await screen.findByTestId('help-dialog');
    await userEvent.click(within(dialog).getByTestId('help-save'));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(2);
    // An address that is not YouTube's is not a video code.
    await userEvent.type(within(dialog).getByTestId('help-title'), 'Connections');
    await userEvent.type(within(dialog).getByTestId('help-video'), 'https://evil.example/x');
    await userEvent.click(within(dialog).getByTestId('help-save'));
    expect(await within(dialog).findByText('Invalid value')).toBeTruthy();
    expect(api.calls('POST /helps')).toHaveLength(0);

    await userEvent.clear(within(dialog).getByTestId('help-video'));
    // A pasted YouTube address is sent as its id.
    await userEvent.type(within(dialog).getByTestId('help-video'), 'https://youtu.be/conn_1-A?si=share');
    await userEvent.type(within(dialog).getByTestId('help-description'), 'Pairing a phone');
    await userEvent.click(within(dialog).getByTestId('help-save'));
    await waitFor(() => expect(api.calls('POST /helps')).toHaveLength(1));
    expect(api.calls('POST /helps')[0]?.body).toEqual({ title: 'Connections', video: 'conn_1-A', description: 'Pairing a phone' });
    await waitFor(() => expect(rows()).toEqual(['Connections', 'Tickets']));
    expect(screen.queryByTestId('help-dialog')).toBeNull();
    expect(shownToasts()).toContainEqual({ text: 'Help video saved successfully!', variant: 'success' });
  });

  it('edits a video', async () => {
    const { api } = server(true, [help(4, 'Kanban', 'kan1', 'Old')]);
    api.on('PUT /helps/4', (request) => ({ ...help(4, 'Kanban', 'kan1', 'Old'), ...(request.body as object) }));
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Kanban']));
    await userEvent.click(screen.getByTestId('help-edit'));
    const dialog = await screen.findByTestId('help-dialog');
    expect(within(dialog).getByTestId('help-video')).toHaveProperty('value', 'kan1');
    await userEvent.clear(within(dialog).getByTestId('help-title'));
    await userEvent.type(within(dialog).getByTestId('help-title'), 'Kanban board');
    await userEvent.click(within(dialog).getByTestId('help-save'));
    await waitFor(() => expect(api.calls('PUT /helps/4')).toHaveLength(1));
    expect(api.calls('PUT /helps/4')[0]?.body).toEqual({ title: 'Kanban board', video: 'kan1', description: 'Old' });
    await waitFor(() => expect(rows()).toEqual(['Kanban board']));
  });

  it('deletes a video only after confirmation (Spanish)', async () => {
    await setupI18n().changeLanguage('es');
    const state = server(true, [help(5, 'Antiguo', 'old1'), help(6, 'Nuevo', 'new1')]);
    state.api.on('DELETE /helps/5', () => {
      state.remove(5);
      return { message: 'Help deleted' };
    });
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Antiguo', 'Nuevo']));
    expect(screen.getByTestId('settings-tab-helps').textContent).toBe('Ayuda');
    await userEvent.click(within(screen.getAllByTestId('help-row')[0]!).getByTestId('help-delete'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('¿Eliminar el video Antiguo?')).toBeTruthy();
    expect(state.api.calls('DELETE /helps/5')).toHaveLength(0);
    await userEvent.click(within(confirm).getAllByRole('button').at(-1)!);
    await waitFor(() => expect(rows()).toEqual(['Nuevo']));
    expect(state.api.calls('DELETE /helps/5')).toHaveLength(1);
    await waitFor(() => expect(shownToasts()).toContainEqual({ text: '¡Video de ayuda eliminado con éxito!', variant: 'success' }));
  });
});
