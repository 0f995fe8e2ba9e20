import type { PresentedTag, PresentedUser } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { SocketProvider } from '../../realtime/socket';
import { fakeApi, json } from '../../test/fake-api';
import { buildTag } from '../../test/build-tag';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import { shownToasts } from '../../test/toasts';
import TagsPage from './tags-page';

const socketServer = standInSocketServer();
const noop = () => undefined;

const tag = (id: number, name: string, extra: Partial<PresentedTag> = {}): PresentedTag => buildTag(id, { name, ...extra });

function signedIn(profile: 'admin' | 'user'): PresentedUser {
  return buildUser(1, { name: 'Ana', profile, company: buildUserCompany({}, { useKanban: true }) });
}

function server(profile: 'admin' | 'user', tags: PresentedTag[]) {
  return fakeApi({
    'GET /auth/me': () => signedIn(profile),
    'GET /tags': (request) => {
      const search = request.query.get('searchParam') ?? '';
      const found = tags.filter((row) => row.name.toLowerCase().includes(search));
      return { tags: found, hasMore: false, count: found.length };
    },
  });
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <SocketProvider>
            <MemoryRouter initialEntries={['/tags']}>
              <TagsPage />
            </MemoryRouter>
          </SocketProvider>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

const rows = () => screen.queryAllByTestId('tag-row').map((row) => row.dataset.tagName);

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/tags');
});
afterEach(() => vi.unstubAllGlobals());

describe('tags page', { timeout: 30_000 }, () => {
  it('shows each tag as a chip of its colour with its ticket count, and searches in lower case', async () => {
    const api = server('user', [tag(1, 'Urgente', { ticketsCount: 4, color: '#6f2020' }), tag(2, 'VIP', { kanban: 1, color: '#f7e2a1' })]);
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Urgente', 'VIP']));
    const urgent = screen.getAllByTestId('tag-row')[0]!;
    const chip = within(urgent).getByText('Urgente').closest('.MuiChip-root') as HTMLElement;
    // A dark colour gets white text, a light one black.
    expect(getComputedStyle(chip).backgroundColor).toBe('rgb(111, 32, 32)');
    expect(getComputedStyle(chip).color).toBe('rgb(255, 255, 255)');
    expect(within(urgent).getByTestId('tag-tickets-count').textContent).toBe('4');
    expect(within(screen.getAllByTestId('tag-row')[1]!).getByTestId('tag-kanban-mark')).toBeTruthy();

    await userEvent.type(screen.getByTestId('tag-search'), 'URG');
    await waitFor(() => expect(rows()).toEqual(['Urgente']));
    expect(api.calls('GET /tags').at(-1)?.query.get('searchParam')).toBe('urg');
  });

  it('refuses a name under 3 characters with the spec’s message; an agent gets no kanban toggle', async () => {
    const api = server('user', []);
    api.on('POST /tags', (request) => json({ ...tag(9, 'x'), ...(request.body as object) }, 201));
    renderPage();
    await userEvent.click(await screen.findByTestId('tag-add'));
    const dialog = await screen.findByTestId('tag-dialog');
    expect(within(dialog).queryByTestId('tag-kanban')).toBeNull();
    await userEvent.type(within(dialog).getByTestId('tag-name'), 'ab');
    await userEvent.click(within(dialog).getByTestId('tag-save'));
    expect(await within(dialog).findByText('Message too short')).toBeTruthy();
    expect(api.calls('POST /tags')).toHaveLength(0);

    await userEvent.type(within(dialog).getByTestId('tag-name'), 'c');
    await userEvent.click(within(dialog).getByTestId('tag-color-22a061'));
    await userEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(api.calls('POST /tags')).toHaveLength(1));
    // No kanban field at all: the server keeps it as it is.
    expect(api.calls('POST /tags')[0]?.body).toEqual({ name: 'abc', color: '#22a061' });
    await waitFor(() => expect(rows()).toEqual(['abc']));
    expect(shownToasts()).toContainEqual({ text: 'Tag saved successfully!', variant: 'success' });
  });

  it('lets an admin turn a tag into a kanban lane', async () => {
    const api = server('admin', [tag(4, 'Proposta')]);
    api.on('PUT /tags/4', (request) => ({ ...tag(4, 'Proposta'), ...(request.body as object) }));
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Proposta']));
    await userEvent.click(screen.getByTestId('tag-edit'));
    const dialog = await screen.findByTestId('tag-dialog');
    await userEvent.click(within(within(dialog).getByTestId('tag-kanban')).getByRole('switch'));
    await userEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(api.calls('PUT /tags/4')).toHaveLength(1));
    expect(api.calls('PUT /tags/4')[0]?.body).toEqual({ name: 'Proposta', color: '#cc3333', kanban: 1 });
    await waitFor(() => expect(screen.getByTestId('tag-kanban-mark')).toBeTruthy());
  });

  it('deletes a tag only after confirmation', async () => {
    const api = server('admin', [tag(5, 'Antiga'), tag(6, 'Nova')]);
    api.on('DELETE /tags/5', () => ({ message: 'Tag deleted' }));
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Antiga', 'Nova']));
    await userEvent.click(within(screen.getAllByTestId('tag-row')[0]!).getByTestId('tag-delete'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Delete the tag Antiga?')).toBeTruthy();
    expect(api.calls('DELETE /tags/5')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(rows()).toEqual(['Nova']));
    expect(api.calls('DELETE /tags/5')).toHaveLength(1);
  });

  it('follows tags created, renamed and deleted elsewhere (company-{id}-tag)', async () => {
    server('admin', [tag(7, 'Beta')]);
    renderPage();
    await waitFor(() => expect(rows()).toEqual(['Beta']));
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    // The provider hands the socket to the page once it is ready: push until the page has heard.
    await waitFor(async () => {
      await socketServer.push('company-3-tag', { action: 'create', tag: tag(8, 'Alfa') });
      expect(rows()).toEqual(['Alfa', 'Beta']);
    });
    await socketServer.push('company-3-tag', { action: 'update', tag: tag(7, 'Gama', { ticketsCount: 2 }) });
    await waitFor(() => expect(rows()).toEqual(['Alfa', 'Gama']));
    await socketServer.push('company-3-tag', { action: 'delete', tagId: 8 });
    await waitFor(() => expect(rows()).toEqual(['Gama']));
  });
});
