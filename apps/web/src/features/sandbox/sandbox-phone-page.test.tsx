import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { SocketProvider } from '../../realtime/socket';
import { buildConnection } from '../../test/build-connection';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import type { PhoneEntry } from './sandbox-queries';
import SandboxPhonePage from './sandbox-phone-page';

const socketServer = standInSocketServer();
const noop = () => undefined;

const connection = buildConnection(4, { name: 'Teste', isDefault: true });

function entry(id: string, fromCustomer: boolean, body: string, extra: Partial<PhoneEntry> = {}): PhoneEntry {
  return { id, fromCustomer, body, mediaType: null, mediaName: null, mediaUrl: null, deleted: false, createdAt: '2026-01-01T10:00:00.000Z', ...extra };
}

function serve(conversation: PhoneEntry[]) {
  return fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Ana', profile: 'admin', company: buildUserCompany() }),
    'GET /whatsapp': () => [connection],
    'GET /sandbox/4/conversation': (request: FakeRequest) => (request.query.get('number') ? conversation : []),
  });
}

function renderPhone(path = '/phone/4') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <SocketProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/phone/:whatsappId?" element={<SandboxPhonePage />} />
              </Routes>
            </MemoryRouter>
          </SocketProvider>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('i18nextLng', 'en');
  localStorage.setItem('token', 'test-token');
  socketServer.point('/phone');
});
afterEach(() => vi.unstubAllGlobals());

describe('sandbox phone', { timeout: 30_000 }, () => {
  it('shows what WhatsApp would: formatting rendered, markup never injected, and the quoted message above a reply', async () => {
    const api = serve([
      entry('in-1', true, 'Quero o boleto de março'),
      entry('out-1', false, '*Admin:*\n_Claro_, ~amanhã~ hoje: ```linha 2 *não negrito*```\n<img src=x onerror="alert(1)">', { quotedId: 'in-1' }),
    ]);
    renderPhone();
    const reply = await waitFor(() => {
      const found = screen.getAllByTestId('phone-message').find((element) => element.dataset.fromCustomer === 'false');
      expect(found).toBeDefined();
      return found!;
    });
    // No raw markers: the signature is bold, the rest italic, struck through and monospace.
    expect(reply.querySelector('strong')?.textContent).toBe('Admin:');
    expect(reply.querySelector('em')?.textContent).toBe('Claro');
    expect(reply.querySelector('s')?.textContent).toBe('amanhã');
    expect(reply.querySelector('code')?.textContent).toBe('linha 2 *não negrito*');
    expect(reply.textContent).not.toContain('*Admin:*');
    // A message's HTML is text, never elements.
    expect(reply.querySelector('img')).toBeNull();
    expect(reply.textContent).toContain('<img src=x onerror="alert(1)">');
    // The reply quotes the customer's message, as WhatsApp shows it.
    const quoted = within(reply).getByTestId('phone-message-quoted');
    expect(quoted.textContent).toBe('YouQuero o boleto de março');
    const own = screen.getAllByTestId('phone-message').find((element) => element.dataset.fromCustomer === 'true')!;
    expect(within(own).queryByTestId('phone-message-quoted')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('keeps the customer name and number of a phone across reloads', async () => {
    serve([]);
    const user = userEvent.setup();
    renderPhone();
    const name = await screen.findByTestId('phone-name');
    await user.clear(name);
    await user.type(name, 'Maria Teste');
    const number = screen.getByTestId('phone-number');
    await user.clear(number);
    await user.type(number, '5511988887777');
    cleanup();

    // A reload: nothing was sent, yet the phone comes back as the same customer.
    renderPhone();
    await waitFor(() => expect((screen.getByTestId('phone-name') as HTMLInputElement).value).toBe('Maria Teste'));
    expect((screen.getByTestId('phone-number') as HTMLInputElement).value).toBe('5511988887777');
  });
});
