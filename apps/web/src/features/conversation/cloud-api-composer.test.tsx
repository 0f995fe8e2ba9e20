import type { PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildTicket } from '../../test/build-ticket';
import { fakeApi, json, type FakeApi } from '../../test/fake-api';
import { shownToasts } from '../../test/toasts';
import type { CustomerWindowState, MessageTemplate } from './cloud-api';
import { Composer } from './composer';

/** What the fake server answers; a test changes it as the real one would change. */
const state = {
  window: { required: true, open: true, expiresAt: null } as CustomerWindowState,
  templates: [] as MessageTemplate[],
  refuseSends: false,
  disconnected: false,
};
let server: FakeApi;

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  state.refuseSends = false;
  state.disconnected = false;
  state.templates = [
    { name: 'pedido_pronto', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', body: 'Olá {{1}}, seu pedido {{2}} está pronto.', parameters: 2 },
    { name: 'promo', language: 'pt_BR', status: 'PENDING', category: 'MARKETING', body: 'Promoção!', parameters: 0 },
  ];
  server = fakeApi({
    'GET /messages/5/window': () => state.window,
    'GET /whatsapp/7/templates': () => (state.disconnected ? json({ error: 'ERR_WAPP_NOT_INITIALIZED' }, 400) : { templates: state.templates }),
    'GET /quick-messages/list': () => [],
    'POST /messages/5': () => (state.refuseSends ? json({ error: 'ERR_OUTSIDE_CUSTOMER_WINDOW' }, 400) : []),
    'POST /messages/5/template': () => [],
  });
});
afterEach(() => {
  vi.useRealTimers();
  expect(server.unhandled.map((request) => `${request.method} ${request.path}`)).toEqual([]);
});

function ticket(provider: string): PresentedTicket {
  return buildTicket(5, { uuid: 'u-5', status: 'open', companyId: 1, whatsappId: 7, whatsapp: { id: 7, name: 'Oficial', status: 'CONNECTED', provider, pix: '', pixMessage: '' } });
}

function renderComposer(provider = 'cloud-api') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <Composer ticket={ticket(provider)} quoted={null} onClearQuoted={() => undefined} />
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

describe('composer on a Cloud API connection', { timeout: 20_000 }, () => {
  it('with the window closed: says why, disables free-form input, and sends a template with its parameters', async () => {
    state.window = { required: true, open: false, expiresAt: null };
    const user = userEvent.setup();
    renderComposer();
    expect((await screen.findByTestId('composer-window-closed')).textContent).toContain('More than 24 hours have passed');
    const input = screen.getByTestId('composer-input');
    expect(input).toHaveProperty('disabled', true);
    expect(input.getAttribute('placeholder')).toBe('24-hour window closed: send a message template');
    expect(screen.getByTestId('composer-send')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('composer-record')).toHaveProperty('disabled', true);

    await user.click(screen.getByTestId('composer-window-template'));
    const dialog = await screen.findByTestId('template-dialog');
    const options = await within(dialog).findAllByTestId('template-option');
    expect(options.map((option) => option.getAttribute('data-template'))).toEqual(['pedido_pronto', 'promo']);
    // A template still in review is listed but cannot be chosen.
    expect(options[1]!.getAttribute('aria-disabled')).toBe('true');

    await user.click(options[0]!);
    await user.click(within(dialog).getByTestId('template-send'));
    expect(within(dialog).getAllByText('Required')).toHaveLength(2);
    expect(server.calls('POST /messages/5/template')).toEqual([]);

    const [first, second] = within(dialog).getAllByTestId('template-parameter');
    await user.type(first!, 'Maria');
    expect(within(dialog).getByTestId('template-preview').textContent).toBe('Olá Maria, seu pedido {{2}} está pronto.');
    await user.type(second!, '#42');
    await user.click(within(dialog).getByTestId('template-send'));
    await waitFor(() =>
      expect(server.calls('POST /messages/5/template').map((request) => request.body)).toEqual([{ name: 'pedido_pronto', language: 'pt_BR', parameters: ['Maria', '#42'] }]),
    );
    await waitFor(() => expect(screen.queryByTestId('template-dialog')).toBeNull());
  }, 20_000);

  it('says why the templates of a disconnected connection are not offered', async () => {
    state.window = { required: true, open: false, expiresAt: null };
    state.disconnected = true;
    const user = userEvent.setup();
    renderComposer();
    await user.click(await screen.findByTestId('composer-window-template'));
    const failed = await within(await screen.findByTestId('template-dialog')).findByTestId('template-load-failed');
    expect(failed.textContent).toContain(i18next.t('errors.ERR_WAPP_NOT_INITIALIZED'));
  });

  it('with the window open: free-form messages as usual, and templates at hand', async () => {
    state.window = { required: true, open: true, expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
    renderComposer();
    expect(await screen.findByTestId('composer-templates')).toBeTruthy();
    await waitFor(() => expect(server.calls('GET /messages/5/window')).not.toHaveLength(0));
    expect(screen.queryByTestId('composer-window-closed')).toBeNull();
    expect(screen.getByTestId('composer-input')).toHaveProperty('disabled', false);
  });

  it('closes the window on screen when it expires', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    state.window = { required: true, open: true, expiresAt: new Date(Date.now() + 60_000).toISOString() };
    renderComposer();
    await waitFor(() => expect(screen.getByTestId('composer-input').closest('[data-window]')?.getAttribute('data-window')).toBe('open'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(61_000);
    });
    expect(screen.getByTestId('composer-window-closed')).toBeTruthy();
    expect(screen.getByTestId('composer-input')).toHaveProperty('disabled', true);
  });

  it('reloads the window when a send is refused for being outside it', async () => {
    state.window = { required: true, open: true, expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
    state.refuseSends = true;
    const user = userEvent.setup();
    renderComposer();
    await screen.findByTestId('composer-templates');
    state.window = { required: true, open: false, expiresAt: null };
    await user.type(screen.getByTestId('composer-input'), 'Oi{Enter}');
    expect(await screen.findByTestId('composer-window-closed')).toBeTruthy();
    expect(shownToasts()).toEqual([{ variant: 'error', text: "More than 24 hours since the customer's last message: send an approved message template." }]);
  });

  it('shows neither templates nor a window for other providers', async () => {
    renderComposer('beta');
    expect(await screen.findByTestId('composer-input')).toHaveProperty('disabled', false);
    expect(screen.queryByTestId('composer-templates')).toBeNull();
    expect(screen.queryByTestId('composer-window-closed')).toBeNull();
    expect(server.calls('GET /messages/5/window')).toEqual([]);
  });
});
