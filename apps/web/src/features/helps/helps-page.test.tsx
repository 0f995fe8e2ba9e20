import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json } from '../../test/fake-api';
import HelpsPage from './helps-page';
import type { Help } from './helps-queries';

const noop = () => undefined;
const help = (id: number, title: string, video: string, description = ''): Help => ({ id, title, video, description, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

function server(list: () => unknown) {
  return fakeApi({
    'GET /auth/me': () => buildUser(2, { name: 'Bia', company: buildUserCompany() }),
    'GET /helps/list': list,
  });
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastHost>
        <SessionProvider onSessionEnd={noop}>
          <MemoryRouter initialEntries={['/helps']}>
            <HelpsPage />
          </MemoryRouter>
        </SessionProvider>
      </ToastHost>
    </QueryClientProvider>,
  );
}

const titles = () => screen.queryAllByTestId('help-card-title').map((node) => node.textContent);

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(async () => {
  localStorage.setItem('token', 'test-token');
  await setupI18n().changeLanguage('en');
});

describe('help page (spec part 2 §2.16)', { timeout: 30_000 }, () => {
  it('shows a card per video with its lazy thumbnail, title and description, by title', async () => {
    const api = server(() => [help(2, 'Tickets', 'tick_et-123', 'Answering customers'), help(1, 'Connections', 'conn1')]);
    renderPage();
    await waitFor(() => expect(titles()).toEqual(['Connections', 'Tickets']));
    const [first, second] = screen.getAllByTestId('help-card');
    const thumbnail = within(second!).getByTestId('help-thumbnail') as HTMLImageElement;
    expect(thumbnail.getAttribute('src')).toBe('https://i.ytimg.com/vi/tick_et-123/hqdefault.jpg');
    expect(thumbnail.getAttribute('loading')).toBe('lazy');
    expect(within(second!).getByText('Answering customers')).toBeTruthy();
    expect(within(first!).getByRole('button', { name: 'Watch: Connections' })).toBeTruthy();
    // No player is loaded before a card is clicked.
    expect(document.querySelector('iframe')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('replaces a thumbnail that cannot load (offline) with a local placeholder: no broken image', async () => {
    server(() => [help(1, 'Offline', 'abc')]);
    renderPage();
    const thumbnail = await screen.findByTestId('help-thumbnail');
    fireEvent.error(thumbnail);
    expect(screen.queryByTestId('help-thumbnail')).toBeNull();
    expect(screen.getByTestId('help-thumbnail-placeholder').getAttribute('aria-label')).toBe('Thumbnail unavailable');
    expect(document.querySelector('img')).toBeNull();
    // The card still works.
    expect(screen.getByText('Offline')).toBeTruthy();
  });

  it('opens the no-cookie YouTube player for the clicked video, and Escape closes it and unloads the player', async () => {
    server(() => [help(1, 'Kanban', 'kanBan_9')]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Watch: Kanban' }));
    const player = await screen.findByTestId('help-player');
    const frame = within(player).getByTestId('help-player-frame');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/kanBan_9?autoplay=1&rel=0');
    expect(frame.getAttribute('title')).toBe('Video: Kanban');
    expect(within(screen.getByRole('dialog')).getByText('Kanban')).toBeTruthy();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('help-player')).toBeNull());
    expect(document.querySelector('iframe')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Watch: Kanban' }));
    await userEvent.click(await screen.findByTestId('help-player-close'));
    await waitFor(() => expect(screen.queryByTestId('help-player')).toBeNull());
  });

  it('says so when there are no videos, and when they cannot be loaded, in the user’s language', async () => {
    server(() => []);
    renderPage();
    expect(await screen.findByTestId('helps-empty')).toBeTruthy();
    expect(screen.getByText('No help videos yet.')).toBeTruthy();
  });

  it('shows a spinner while loading and an error when the list fails (Portuguese)', async () => {
    await setupI18n().changeLanguage('pt');
    let answer: (value: Response) => void = noop;
    server(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderPage();
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Ajuda' })).toBeTruthy();
    answer(json({ error: 'ERR_INTERNAL_SERVER_ERROR' }, 500));
    expect(await screen.findByText('Não foi possível carregar os vídeos de ajuda.')).toBeTruthy();
  });
});
