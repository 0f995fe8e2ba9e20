import type { CreatedApiKey, PresentedApiKey } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json, type FakeHandler } from '../../test/fake-api';
import SettingsPage from '../settings/settings-page';

const SECRET = `atk_0123456789abcdef_${'s'.repeat(43)}`;

const apiKey = (id: number, name: string, extra: Partial<PresentedApiKey> = {}): PresentedApiKey => ({
  id,
  name,
  prefix: `atk_${String(id).padStart(16, '0')}`,
  scopes: ['tickets:read'],
  expiresAt: null,
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: { id: 1, name: 'Admin' },
  ...extra,
});

function server(list: FakeHandler, profile: 'admin' | 'user' = 'admin') {
  return fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Admin', profile, super: false, companyId: 1, company: buildUserCompany({ id: 1 }) }),
    'GET /settings': () => [{ key: 'scheduleType', value: 'disabled' }],
    'GET /api-keys': list,
  });
}

function renderPage(path = '/settings?tab=api') {
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

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(async () => {
  localStorage.setItem('token', 'test-token');
  await setupI18n().changeLanguage('en');
});

describe('Settings → API (company API keys)', { timeout: 30_000 }, () => {
  it('is not offered to a user who is not an admin', async () => {
    server(() => [], 'user');
    renderPage();
    await screen.findByTestId('settings-tab-options');
    expect(screen.queryByTestId('settings-tab-api')).toBeNull();
  });

  it('says when there is no key', async () => {
    server(() => []);
    renderPage();
    expect(await screen.findByTestId('api-keys-empty')).toHaveProperty('textContent', 'No API keys yet.');
  });

  it('shows a load failure as an error, not as an empty list', async () => {
    server(() => json({ error: 'ERR_INTERNAL_SERVER_ERROR' }, 500));
    renderPage();
    expect(await screen.findByText('Could not load the API keys.')).toBeTruthy();
    expect(screen.queryByTestId('api-keys-empty')).toBeNull();
  });

  it('lists keys with their state and last use; creating one shows its secret once', async () => {
    const api = server(() => [apiKey(1, 'Old CRM', { revokedAt: '2026-01-02T00:00:00.000Z' }), apiKey(2, 'ERP', { lastUsedAt: '2026-01-03T10:00:00.000Z', lastUsedIp: '203.0.113.9' })]);
    api.on('POST /api-keys', (request) => json({ ...apiKey(3, 'Bot'), ...(request.body as object), key: SECRET } satisfies CreatedApiKey, 201));
    renderPage();
    const rows = await screen.findAllByTestId('api-key-row');
    expect(rows.map((row) => [row.dataset.apiKeyName, row.dataset.apiKeyStatus])).toEqual([
      ['Old CRM', 'revoked'],
      ['ERP', 'active'],
    ]);
    expect(within(rows[1]!).getByTestId('api-key-last-used').textContent).toContain('203.0.113.9');
    expect(within(rows[0]!).queryByTestId('api-key-revoke')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByTestId('api-key-add'));
    const dialog = await screen.findByTestId('api-key-dialog');
    expect(within(dialog).getByText(/Send messages/)).toBeTruthy();
    // Nothing sent without a name and a scope.
    await user.click(within(dialog).getByTestId('api-key-save'));
    expect(api.calls('POST /api-keys')).toHaveLength(0);
    await user.type(within(dialog).getByTestId('api-key-name'), 'Bot');
    await user.click(within(dialog).getByTestId('api-key-scope-messages:send'));
    await user.click(within(dialog).getByTestId('api-key-scope-tickets:read'));
    await user.click(within(dialog).getByTestId('api-key-save'));
    await waitFor(() => expect(api.calls('POST /api-keys')).toHaveLength(1));
    expect(api.calls('POST /api-keys')[0]?.body).toEqual({ name: 'Bot', scopes: ['tickets:read', 'messages:send'] });

    const secret = await screen.findByTestId('api-key-secret-dialog');
    expect(within(secret).getByTestId<HTMLInputElement>('api-key-secret-value').value).toBe(SECRET);
    await user.click(within(secret).getByTestId('api-key-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('api-key-secret-dialog')).toBeNull());
    expect(screen.getAllByTestId('api-key-row').map((row) => row.dataset.apiKeyName)).toEqual(['Bot', 'Old CRM', 'ERP']);
    expect(document.body.innerHTML).not.toContain(SECRET);
  });
});
