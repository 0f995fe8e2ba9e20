import { PLAN_FEATURES, type PresentedUser } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildConnection } from '../../test/build-connection';
import { buildQueue } from '../../test/build-queue';
import { buildUser, buildUserCompany, type UserOverrides } from '../../test/build-user';
import { fakeApi, json, type FakeApi } from '../../test/fake-api';
import { UserModal } from './user-modal';
import UsersPage from './users-page';

const vendas = { id: 11, name: 'Vendas', color: '#2f7dd1' };
const suporte = { id: 12, name: 'Suporte', color: '#e53935' };

function record(id: number, name: string, extra: UserOverrides = {}): PresentedUser {
  return buildUser(id, { name, email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`, companyId: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...extra });
}

const admin = record(1, 'Admin', { profile: 'admin', online: true });

function me(profile: 'admin' | 'user', planUsers: number): PresentedUser {
  const self = profile === 'admin' ? admin : record(2, 'Agente', { queues: [vendas] });
  const allOn = Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, true]));
  const company = buildUserCompany({ id: 1, name: 'Empresa 1' }, allOn);
  return { ...self, company: { ...company, plan: { ...company.plan, name: 'Plano', users: planUsers, connections: 0, queues: 0 } } };
}

/** The server's users, searched the way `GET /users` searches. */
function usersServer({ profile = 'admin', planUsers = 5, people = [admin, record(2, 'Maria Silva', { queues: [vendas], whatsapp: { id: 5, name: 'Comercial' }, whatsappId: 5 })] }: { profile?: 'admin' | 'user'; planUsers?: number; people?: PresentedUser[] } = {}): { api: FakeApi; people: PresentedUser[] } {
  const stored = [...people];
  const api = fakeApi({
    'GET /auth/me': () => me(profile, planUsers),
    'GET /users': (request) => {
      const search = request.query.get('searchParam') ?? '';
      const found = stored.filter((u) => u.name.toLowerCase().includes(search) || u.email.includes(search));
      return { users: found, count: found.length, hasMore: false };
    },
    'GET /queue': () => [buildQueue(vendas.id, vendas), buildQueue(suporte.id, suporte)],
    'GET /whatsapp': () => [buildConnection(5, { name: 'Comercial', isDefault: true })],
  });
  return { api, people: stored };
}

function renderWithSession(ui: React.ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <MemoryRouter initialEntries={['/users']}>{ui}</MemoryRouter>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

async function choose(testId: string, option: string) {
  await userEvent.click(within(screen.getByTestId(testId)).getByRole('combobox'));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(async () => {
  localStorage.setItem('i18nextLng', 'en');
  await setupI18n().changeLanguage('en');
  localStorage.setItem('token', 'test-token');
});

describe('users page', { timeout: 30_000 }, () => {
  it("lists the company's users with profile, coloured queue chips, default connection and presence, and the plan's count", async () => {
    const { api } = usersServer();
    renderWithSession(<UsersPage />);
    const rows = await screen.findAllByTestId('user-row');
    expect(rows.map((row) => row.dataset.userId)).toEqual(['1', '2']);
    expect(screen.getByTestId('users-count').textContent).toBe('2 of 5 users');
    const maria = rows[1]!;
    const chip = within(maria).getAllByText('Vendas')[0]!.closest<HTMLElement>('[data-testid="queue-chip"]')!;
    expect(getComputedStyle(chip).backgroundColor).toBe('rgb(47, 125, 209)');
    expect(within(maria).getByText('Comercial')).toBeTruthy();
    expect(within(maria).getByTestId('user-profile-cell').textContent).toBe('User');
    expect(within(rows[0]!).getByTestId('user-online').dataset.online).toBe('true');
    expect(within(maria).getByTestId('user-online').dataset.online).toBe('false');
    // One cannot delete oneself: no delete button on one's own row.
    expect(within(rows[0]!).queryByTestId('user-delete')).toBeNull();
    expect(within(maria).getByTestId('user-delete')).toBeTruthy();
    expect(api.unhandled).toEqual([]);
  });

  it('searches lowercased, once the typing stops', async () => {
    const { api } = usersServer();
    renderWithSession(<UsersPage />);
    await screen.findAllByTestId('user-row');
    await userEvent.type(screen.getByTestId('users-search'), ' MARIA');
    await waitFor(() => expect(screen.getAllByTestId('user-row').map((row) => row.dataset.userId)).toEqual(['2']), { timeout: 2000 });
    // Debounced: one request for the whole word, none per keystroke.
    expect(api.calls('GET /users').map((call) => call.query.get('searchParam'))).toEqual([null, 'maria']);
    // The plan count stays the company's total.
    expect(screen.getByTestId('users-count').textContent).toBe('2 of 5 users');
  });

  it('refuses an incomplete form with the spec messages, then adds a user with its queues', async () => {
    const { api } = usersServer();
    api.on('POST /users', (request) => json(record(3, 'Joana Souza', { queues: [suporte] }), request.body ? 201 : 400));
    renderWithSession(<UsersPage />);
    await screen.findAllByTestId('user-row');
    await userEvent.click(screen.getByTestId('users-add'));
    await userEvent.type(screen.getByTestId('user-name'), 'J');
    await userEvent.type(screen.getByTestId('user-email'), 'joana');
    await userEvent.click(screen.getByTestId('user-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(screen.getByText('Invalid email')).toBeTruthy();
    // Required on add.
    expect(screen.getByText('Required')).toBeTruthy();
    expect(api.calls('POST /users')).toHaveLength(0);

    await userEvent.type(screen.getByTestId('user-name'), 'oana Souza');
    await userEvent.type(screen.getByTestId('user-email'), '@example.com');
    await userEvent.type(screen.getByTestId('user-password'), 'secret1');
    await userEvent.click(within(screen.getByTestId('user-queues')).getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    await userEvent.keyboard('{Escape}');
    await choose('user-allticket', 'Enabled');
    await choose('user-whatsapp', 'Comercial');
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(screen.queryByTestId('user-modal')).toBeNull());
    expect(api.calls('POST /users').map((call) => call.body)).toEqual([
      { name: 'Joana Souza', email: 'joana@example.com', password: 'secret1', profile: 'user', queueIds: [12], allTicket: 'enabled', whatsappId: 5, maxOpenTickets: null },
    ]);
    expect(await screen.findByText('User saved successfully!')).toBeTruthy();
    // The new user is listed at once, and counted.
    expect(screen.getAllByTestId('user-row').map((row) => row.dataset.userId)).toEqual(['3', '1', '2']);
    expect(screen.getByTestId('users-count').textContent).toBe('3 of 5 users');
  });

  it("shows the server's refusal as a toast and keeps the form open", async () => {
    const { api } = usersServer();
    api.on('POST /users', () => json({ error: 'ERR_USER_LIMIT_REACHED' }, 403));
    renderWithSession(<UsersPage />);
    await screen.findAllByTestId('user-row');
    await userEvent.click(screen.getByTestId('users-add'));
    await userEvent.type(screen.getByTestId('user-name'), 'Joana');
    await userEvent.type(screen.getByTestId('user-email'), 'joana@example.com');
    await userEvent.type(screen.getByTestId('user-password'), 'secret1');
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(api.calls('POST /users')).toHaveLength(1));
    // The open dialog hides the rest of the page from the accessibility tree: found by its text.
    expect(await screen.findByText("Your plan's user limit was reached.")).toBeTruthy();
    expect(screen.getByTestId('user-modal')).toBeTruthy();
  });

  it('turns the add button off when the plan is full', async () => {
    usersServer({ planUsers: 2 });
    renderWithSession(<UsersPage />);
    await waitFor(() => expect(screen.getByTestId('users-count').textContent).toBe('2 of 2 users'));
    expect((screen.getByTestId('users-add') as HTMLButtonElement).disabled).toBe(true);
  });

  it('edits a user: loads the stored record, sends the changes without an empty password', async () => {
    const { api, people } = usersServer();
    api.on('GET /users/2', () => people[1]);
    api.on('PUT /users/2', (request) => ({ ...people[1], ...(request.body as object), queues: [] }));
    renderWithSession(<UsersPage />);
    const rows = await screen.findAllByTestId('user-row');
    await userEvent.click(within(rows[1]!).getByTestId('user-edit'));
    await waitFor(() => expect((screen.getByTestId('user-name') as HTMLInputElement).value).toBe('Maria Silva'));
    expect(within(screen.getByTestId('user-queues')).getByText('Vendas')).toBeTruthy();
    await choose('user-profile', 'Administrator');
    // Auto-assignment's capacity: refused out of range, then sent as a number.
    await userEvent.type(screen.getByTestId('user-maxOpenTickets'), '0');
    await userEvent.click(screen.getByTestId('user-save'));
    expect(await screen.findByText('Between 1 and 1000')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('user-maxOpenTickets'));
    await userEvent.type(screen.getByTestId('user-maxOpenTickets'), '4');
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(api.calls('PUT /users/2')).toHaveLength(1));
    expect(api.calls('PUT /users/2')[0]!.body).toEqual({
      name: 'Maria Silva',
      email: 'maria.silva@example.com',
      profile: 'admin',
      queueIds: [11],
      allTicket: 'desabled',
      whatsappId: 5,
      maxOpenTickets: 4,
    });
    await waitFor(() => expect(within(screen.getAllByTestId('user-row')[1]!).getByTestId('user-profile-cell').textContent).toBe('Administrator'));
  });

  it('deletes a user after the confirmation; a refusal is a toast and the row stays', async () => {
    const { api } = usersServer({ people: [admin, record(2, 'Maria Silva'), record(3, 'Joana')] });
    api.on('DELETE /users/2', () => ({ message: 'User deleted' }));
    api.on('DELETE /users/3', () => json({ error: 'ERR_LAST_ADMIN' }, 409));
    renderWithSession(<UsersPage />);
    const rows = await screen.findAllByTestId('user-row');
    await userEvent.click(within(rows[1]!).getByTestId('user-delete'));
    expect(await screen.findByText('Delete Maria Silva?')).toBeTruthy();
    // Nothing is sent before the answer.
    expect(api.calls('DELETE /users/2')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getAllByTestId('user-row').map((row) => row.dataset.userId)).toEqual(['1', '3']));
    expect(await screen.findByText('User deleted successfully!')).toBeTruthy();

    await userEvent.click(within(screen.getAllByTestId('user-row')[1]!).getByTestId('user-delete'));
    await userEvent.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByText('The company must keep at least one admin.')).toBeTruthy();
    expect(screen.getAllByTestId('user-row').map((row) => row.dataset.userId)).toEqual(['1', '3']);
  });

  it('shows the empty state when nothing matches', async () => {
    usersServer({ people: [] });
    renderWithSession(<UsersPage />);
    expect(await screen.findByTestId('users-empty')).toBeTruthy();
  });
});

describe('user modal on oneself', { timeout: 30_000 }, () => {
  it('a plain user sees and sends only name, email, password and language', async () => {
    const { api } = usersServer({ profile: 'user' });
    const agent = record(2, 'Agente', { queues: [vendas] });
    api.on('GET /users/2', () => agent);
    api.on('PUT /users/2', (request) => ({ ...agent, ...(request.body as object) }));
    renderWithSession(<UserModal open userId={2} onClose={() => undefined} />);
    await waitFor(() => expect((screen.getByTestId('user-name') as HTMLInputElement).value).toBe('Agente'));
    expect(screen.queryByTestId('user-queues')).toBeNull();
    expect(screen.queryByTestId('user-profile')).toBeNull();
    expect(screen.queryByTestId('user-allticket')).toBeNull();
    expect(screen.queryByTestId('user-whatsapp')).toBeNull();
    await choose('user-language', 'Español');
    await userEvent.type(screen.getByTestId('user-password'), 'newpass');
    await userEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(api.calls('PUT /users/2')).toHaveLength(1));
    expect(api.calls('PUT /users/2')[0]!.body).toEqual({ name: 'Agente', email: 'agente@example.com', password: 'newpass', language: 'es' });
    // Only an admin's screens read the queue and connection lists.
    expect(api.calls('GET /queue')).toHaveLength(0);
    expect(api.calls('GET /whatsapp')).toHaveLength(0);
  });

  it("shows the validation messages in the user's language (userModal.formErrors)", async () => {
    await i18next.changeLanguage('pt');
    const { api } = usersServer({ profile: 'user' });
    api.on('GET /users/2', () => record(2, 'Agente'));
    renderWithSession(<UserModal open userId={2} onClose={() => undefined} />);
    await waitFor(() => expect((screen.getByTestId('user-name') as HTMLInputElement).value).toBe('Agente'));
    await userEvent.clear(screen.getByTestId('user-name'));
    await userEvent.type(screen.getByTestId('user-name'), 'A');
    await userEvent.type(screen.getByTestId('user-password'), '123');
    await userEvent.click(screen.getByTestId('user-save'));
    expect(await screen.findAllByText('Muito curto!')).toHaveLength(2);
    expect(api.calls('PUT /users/2')).toHaveLength(0);
  });
});
