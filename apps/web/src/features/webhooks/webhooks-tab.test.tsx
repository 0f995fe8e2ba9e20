import type { CreatedWebhook, Webhook, WebhookDelivery } from '@atende/shared';
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

const SECRET = `whsec_${'s'.repeat(40)}`;

const webhook = (id: number, url: string, extra: Partial<Webhook> = {}): Webhook => ({
  id,
  url,
  events: ['ticket.created'],
  description: '',
  enabled: true,
  disabledReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const delivery = (id: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  eventId: `evt-${id}`,
  event: 'contact.created',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  latencyMs: 12,
  responseExcerpt: 'ok',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastAttemptAt: '2026-01-02T10:00:01.000Z',
  nextAttemptAt: null,
  deliveredAt: '2026-01-02T10:00:01.000Z',
  ...extra,
});

function server(list: FakeHandler, profile: 'admin' | 'user' = 'admin') {
  return fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Admin', profile, super: false, companyId: 1, company: buildUserCompany({ id: 1 }) }),
    'GET /settings': () => [{ key: 'scheduleType', value: 'disabled' }],
    'GET /webhooks': list,
  });
}

function renderPage(path = '/settings?tab=webhooks') {
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

describe('Settings → Webhooks', { timeout: 30_000 }, () => {
  it('is not offered to a user who is not an admin', async () => {
    server(() => ({ webhooks: [] }), 'user');
    renderPage();
    await screen.findByTestId('settings-tab-options');
    expect(screen.queryByTestId('settings-tab-webhooks')).toBeNull();
  });

  it('says when there is no webhook', async () => {
    server(() => ({ webhooks: [] }));
    renderPage();
    expect(await screen.findByTestId('webhooks-empty')).toHaveProperty('textContent', 'No webhooks yet.');
  });

  it('shows a load failure as an error, not as an empty list', async () => {
    server(() => json({ error: 'ERR_INTERNAL_SERVER_ERROR' }, 500));
    renderPage();
    expect(await screen.findByText('Could not load the webhooks.')).toBeTruthy();
    expect(screen.queryByTestId('webhooks-empty')).toBeNull();
  });

  // It types a URL and a description key by key: slow on a loaded machine.
  it('lists webhooks with their state; creating one sends the chosen events and shows its secret once', { timeout: 90_000 }, async () => {
    const api = server(() => ({
      webhooks: [webhook(1, 'https://crm.example.com/hook', { enabled: false, disabledReason: '10 failures in a row' }), webhook(2, 'https://erp.example.com/in', { enabled: false })],
    }));
    api.on('POST /webhooks', (request) => json({ ...webhook(3, ''), ...(request.body as object), secret: SECRET } satisfies CreatedWebhook, 201));
    renderPage();
    const rows = await screen.findAllByTestId('webhook-row');
    expect(rows.map((row) => [row.dataset.webhookUrl, row.dataset.webhookStatus])).toEqual([
      ['https://crm.example.com/hook', 'failing'],
      ['https://erp.example.com/in', 'paused'],
    ]);
    expect(within(rows[0]!).getByTestId('webhook-failing-reason').textContent).toContain('10 failures in a row');
    expect(within(rows[0]!).getAllByTestId('webhook-status')[0]?.textContent).toBe('Disabled: failing');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('webhook-add'));
    const dialog = await screen.findByTestId('webhook-dialog');
    expect(within(dialog).getByText(/Campaign finished/)).toBeTruthy();
    // Nothing sent without a valid address and an event.
    await user.type(within(dialog).getByTestId('webhook-url'), 'not a url');
    await user.click(within(dialog).getByTestId('webhook-save'));
    expect(await within(dialog).findByText('Enter a valid http:// or https:// address.')).toBeTruthy();
    expect(api.calls('POST /webhooks')).toHaveLength(0);
    await user.clear(within(dialog).getByTestId('webhook-url'));
    await user.type(within(dialog).getByTestId('webhook-url'), 'https://bot.example.com/events');
    await user.click(within(dialog).getByTestId('webhook-event-contact.created'));
    await user.click(within(dialog).getByTestId('webhook-event-message.created'));
    await user.type(within(dialog).getByTestId('webhook-description'), 'Bot');
    await user.click(within(dialog).getByTestId('webhook-save'));
    await waitFor(() => expect(api.calls('POST /webhooks')).toHaveLength(1));
    expect(api.calls('POST /webhooks')[0]?.body).toEqual({ url: 'https://bot.example.com/events', events: ['message.created', 'contact.created'], description: 'Bot' });

    const secret = await screen.findByTestId('webhook-secret-dialog');
    expect(within(secret).getByTestId<HTMLInputElement>('webhook-secret-value').value).toBe(SECRET);
    await user.click(within(secret).getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret-dialog')).toBeNull());
    expect(screen.getAllByTestId('webhook-row').map((row) => row.dataset.webhookUrl)).toEqual(['https://bot.example.com/events', 'https://crm.example.com/hook', 'https://erp.example.com/in']);
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('turns a webhook on with its switch', async () => {
    const api = server(() => ({ webhooks: [webhook(1, 'https://crm.example.com/hook', { enabled: false, disabledReason: 'failing' })] }));
    api.on('PUT /webhooks/1', (request) => ({ ...webhook(1, 'https://crm.example.com/hook'), ...(request.body as object), disabledReason: null }));
    renderPage();
    const row = await screen.findByTestId('webhook-row');
    await userEvent.setup().click(within(row).getByTestId('webhook-enabled'));
    await waitFor(() => expect(screen.getByTestId('webhook-row').dataset.webhookStatus).toBe('active'));
    expect(api.calls('PUT /webhooks/1')[0]?.body).toEqual({ enabled: true });
  });

  it('shows the delivery log, filters it by status, loads more and sends a delivery again', async () => {
    const api = server(() => ({ webhooks: [webhook(7, 'https://crm.example.com/hook')] }));
    api.on('GET /webhooks/7/deliveries', (request) => {
      const query = request.query;
      if (query.get('status') === 'failed') return { deliveries: [delivery(5, { status: 'failed', attempts: 3, lastStatusCode: 500, responseExcerpt: 'boom', deliveredAt: null })], hasMore: false };
      return query.get('pageNumber') === '2' ? { deliveries: [delivery(1)], hasMore: false } : { deliveries: [delivery(3), delivery(2, { status: 'pending', attempts: 0, lastStatusCode: null, latencyMs: null, responseExcerpt: null })], hasMore: true };
    });
    api.on('POST /webhooks/7/deliveries/5/retry', () => json({ delivery: delivery(5, { status: 'pending', attempts: 3, deliveredAt: null }) }, 202));
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('webhook-deliveries'));
    const log = await screen.findByTestId('webhook-deliveries-dialog');
    await waitFor(() => expect(within(log).getAllByTestId('webhook-delivery')).toHaveLength(2));
    expect(within(log).getAllByTestId('webhook-delivery-summary')[0]?.textContent).toBe('1 attempt · Answer 200 · 12 ms');
    await user.click(within(log).getByTestId('webhook-deliveries-more'));
    await waitFor(() => expect(within(log).getAllByTestId('webhook-delivery').map((item) => item.dataset.deliveryId)).toEqual(['3', '2', '1']));
    expect(within(log).queryByTestId('webhook-deliveries-more')).toBeNull();

    await user.click(within(log).getByTestId('webhook-deliveries-filter'));
    await user.click(await screen.findByTestId('webhook-deliveries-filter-failed'));
    await waitFor(() => expect(within(log).getAllByTestId('webhook-delivery').map((item) => item.dataset.deliveryStatus)).toEqual(['failed']));
    expect(within(log).getByTestId('webhook-delivery-excerpt').textContent).toBe('boom');
    await user.click(within(log).getByTestId('webhook-delivery-retry'));
    await waitFor(() => expect(api.calls('POST /webhooks/7/deliveries/5/retry')).toHaveLength(1));
    expect(await screen.findByText('Delivery sent again.')).toBeTruthy();
  });
});
