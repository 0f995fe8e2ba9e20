import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { shownToasts } from '../../test/toasts';
import SettingsPage from './settings-page';

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A fake API: the signed-in user, the company's settings and its stored hours; PUTs answer as the server does unless `refuse` names the key. */
function fakeApi({ isSuper = false, scheduleType = 'disabled', refuse }: { isSuper?: boolean; scheduleType?: string; refuse?: string } = {}) {
  const calls: Call[] = [];
  const settings = [
    { key: 'call', value: 'enabled' },
    { key: 'scheduleType', value: scheduleType },
    { key: 'userRating', value: 'disabled' },
  ];
  const company = { id: 1, name: 'Empresa 1', schedules: [] as unknown[], updatedAt: '2025-01-01T00:00:00.000Z' };
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      if (url === '/auth/me') return json(200, buildUser(1, { name: 'Admin', profile: 'admin', super: isSuper, companyId: 1, company: buildUserCompany({ id: 1, settings }) }));
      if (url === '/settings') return json(200, settings);
      const setting = /^\/settings\/(\w+)$/.exec(url);
      if (setting && method === 'PUT') {
        if (setting[1] === refuse) return json(400, { error: 'ERR_VALIDATION' });
        return json(200, { key: setting[1], value: (body as { value: string }).value });
      }
      if (url === '/companies/1' && method === 'GET') return json(200, company);
      if (url === '/companies/1/schedules' && method === 'PUT') {
        return json(200, { ...company, schedules: (body as { schedules: unknown[] }).schedules, updatedAt: '2025-01-02T00:00:00.000Z' });
      }
      return json(404, { error: 'ERR_NOT_FOUND' });
    }),
  );
  return calls;
}

function renderPage(path = '/settings') {
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

async function choose(key: string, option: string) {
  await userEvent.click(within(await screen.findByTestId(`setting-${key}`)).getByRole('combobox'));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
});
afterEach(() => vi.unstubAllGlobals());

describe('settings page', { timeout: 20_000 }, () => {
  it('offers the platform options (public sign-up, unknown e-mail at reset) to super users only', async () => {
    const calls = fakeApi({ isSuper: true });
    renderPage();
    const platform = await screen.findByTestId('setting-platform');
    expect(within(platform).getAllByText('Public company sign-up').length).toBeGreaterThan(0);
    expect(screen.getByTestId('setting-publicSignup').dataset.value).toBe('enabled');
    expect(screen.getByTestId('setting-passwordResetNotFound').dataset.value).toBe('disabled');
    await choose('publicSignup', 'Disabled');
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toEqual([{ method: 'PUT', url: '/settings/publicSignup', body: { key: 'publicSignup', value: 'disabled' } }]));
  });

  it('does not show the platform options to an admin who is not a super user', async () => {
    fakeApi({ isSuper: false });
    renderPage();
    await screen.findByTestId('setting-userRating');
    expect(screen.queryByTestId('setting-platform')).toBeNull();
    expect(screen.queryByTestId('setting-publicSignup')).toBeNull();
  });

  it('shows each option with its stored value or its default', async () => {
    fakeApi();
    renderPage();
    expect(await screen.findByTestId('setting-call')).toHaveProperty('dataset.value', 'enabled');
    expect(screen.getByTestId('setting-userRating').dataset.value).toBe('disabled');
    // Not stored: the default (enabled = the menu starts open).
    expect(screen.getByTestId('setting-sideMenu').dataset.value).toBe('enabled');
    expect(screen.getByTestId('setting-chatBotType').dataset.value).toBe('text');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Options', 'API', 'Webhooks']);
  });

  it('saves an option the moment it changes and says so', async () => {
    const calls = fakeApi();
    renderPage();
    await choose('call', 'Disabled');
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'success', text: 'Setting saved successfully!' }]));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([{ method: 'PUT', url: '/settings/call', body: { key: 'call', value: 'disabled' } }]);
    expect(screen.getByTestId('setting-call').dataset.value).toBe('disabled');
  });

  it('returns a refused option to its stored value and shows the error', async () => {
    fakeApi({ refuse: 'userRating' });
    renderPage();
    await choose('userRating', 'Enabled');
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'error', text: 'Check the highlighted fields.' }]));
    expect(screen.getByTestId('setting-userRating').dataset.value).toBe('disabled');
  });

  it("shows the chatbot's menu texts (Portuguese by default) and saves the English defaults, the changed ones only", async () => {
    const calls = fakeApi();
    renderPage();
    const input = (key: string) => screen.getByTestId(`setting-${key}-input`) as HTMLInputElement;
    expect((await screen.findByTestId('setting-chatbotChooseOption-input') as HTMLInputElement).value).toBe('Escolha uma das opções abaixo:');
    expect(input('chatbotBack').value).toBe('Voltar');
    expect(input('chatbotMainMenu').value).toBe('Menu principal');
    const save = screen.getByTestId('setting-chatbot-texts-save');
    expect(save).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByTestId('setting-chatbot-defaults-en'));
    expect([input('chatbotChooseOption').value, input('chatbotBack').value, input('chatbotMainMenu').value]).toEqual(['Choose one of the options below:', 'Back', 'Main menu']);
    await userEvent.clear(input('chatbotMainMenu'));
    await userEvent.type(input('chatbotMainMenu'), 'Menu principal');
    await userEvent.click(save);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/settings/chatbotChooseOption', body: { key: 'chatbotChooseOption', value: 'Choose one of the options below:' } },
      { method: 'PUT', url: '/settings/chatbotBack', body: { key: 'chatbotBack', value: 'Back' } },
    ]);
    await waitFor(() => expect(input('chatbotBack').value).toBe('Back'));

    // An emptied text cannot be saved (the customer would read nothing).
    await userEvent.clear(input('chatbotBack'));
    expect(save).toHaveProperty('disabled', true);
  });

  it('offers the Schedules tab once scheduleType is company', async () => {
    fakeApi();
    renderPage();
    await choose('scheduleType', 'Company');
    expect(await screen.findByTestId('settings-tab-schedules')).toBeTruthy();
  });

  it('refuses half-typed hours, then saves the week Monday to Sunday', async () => {
    const calls = fakeApi({ scheduleType: 'company' });
    renderPage('/settings?tab=schedules');
    expect(await screen.findByTestId('company-hours-not-configured')).toBeTruthy();
    const start = screen.getByTestId('company-monday-start');
    await userEvent.clear(start);
    await userEvent.type(start, '9');
    await userEvent.click(screen.getByTestId('company-hours-save'));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'error', text: 'Fix the highlighted hours.' }]));
    expect(screen.getByText('Use the format HH:mm')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.clear(start);
    await userEvent.type(start, '0930');
    await userEvent.click(screen.getByTestId('company-hours-save'));
    await waitFor(() => expect(shownToasts()).toContainEqual({ variant: 'success', text: 'Hours saved successfully!' }));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/companies/1/schedules');
    const { schedules } = put?.body as { schedules: { weekdayEn: string; startTime: string; endTime: string }[] };
    expect(schedules.map((s) => s.weekdayEn)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(schedules[0]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:30', endTime: '18:00', startTimeB: '', endTimeB: '' });
    // Saved: the form restarts from the stored hours, which are now configured.
    await waitFor(() => expect(screen.queryByTestId('company-hours-not-configured')).toBeNull());
    expect(screen.getByTestId('company-monday-start')).toHaveProperty('value', '09:30');
  });

  it('shows Companies and Plans to super users only', async () => {
    fakeApi({ isSuper: true });
    renderPage();
    expect(await screen.findByTestId('settings-tab-companies')).toBeTruthy();
    expect(screen.getByTestId('settings-tab-plans')).toBeTruthy();
  });
});
