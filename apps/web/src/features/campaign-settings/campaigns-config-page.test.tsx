import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import type { CampaignSettingEntry } from '@atende/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { readSettings } from './campaign-settings-queries';
import CampaignsConfigPage from './campaigns-config-page';

const noop = () => undefined;
const STORED: CampaignSettingEntry[] = [
  { key: 'messageInterval', value: '20' },
  { key: 'longerIntervalAfter', value: '20' },
  { key: 'greaterInterval', value: '60' },
  { key: 'variables', value: '[{"key":"loja","value":"Centro"}]' },
  { key: 'sendCaps', value: '{"baileys":1,"cloud-api":0,"sandbox":0}' },
];

function server() {
  return fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Ana', profile: 'admin', company: buildUserCompany({}, { useCampaigns: true }) }),
    'GET /campaign-settings': () => STORED,
    'POST /campaign-settings': () => STORED,
  });
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <MemoryRouter initialEntries={['/campaigns-config']}>
            <CampaignsConfigPage />
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

describe('campaign settings page (spec part 2 §2.7, §9)', { timeout: 30_000 }, () => {
  it('reads the key/JSON pairs, defaults included', () => {
    expect(readSettings([])).toMatchObject({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] });
    expect(readSettings(STORED).variables).toEqual([{ key: 'loja', value: 'Centro' }]);
  });

  it("offers the spec's interval options, explains them, adds a variable once and saves", async () => {
    const api = server();
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Campaign settings');
    expect(screen.getByText(/waits a random time between 0 and this value/)).toBeTruthy();
    // The random interval's options are 0, 5, 10, 15, 20 (0 = no interval).
    await user.click(screen.getByRole('combobox', { name: 'Random sending interval' }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['No interval', '5 seconds', '10 seconds', '15 seconds', '20 seconds']);
    await user.click(screen.getByRole('option', { name: '5 seconds' }));
    // A key already present cannot be added again.
    await user.type(screen.getByTestId('campaign-variable-key'), 'loja');
    expect((screen.getByTestId('campaign-variable-add') as HTMLButtonElement).disabled).toBe(true);
    await user.clear(screen.getByTestId('campaign-variable-key'));
    await user.type(screen.getByTestId('campaign-variable-key'), 'cupom');
    await user.type(screen.getByTestId('campaign-variable-value'), 'ATENDE10');
    await user.click(screen.getByTestId('campaign-variable-add'));
    expect(screen.getAllByTestId('campaign-variable')).toHaveLength(2);
    await user.click(screen.getByTestId('campaign-settings-save'));
    await waitFor(() => expect(api.calls('POST /campaign-settings')).toHaveLength(1));
    expect(api.calls('POST /campaign-settings')[0]?.body).toMatchObject({
      settings: { messageInterval: 5, longerIntervalAfter: 20, greaterInterval: 60, variables: [{ key: 'loja', value: 'Centro' }, { key: 'cupom', value: 'ATENDE10' }] },
    });
  });
});
