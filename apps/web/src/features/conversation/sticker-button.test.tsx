import type { PresentedSticker } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildMessage } from '../../test/build-message';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { StickerButton } from './sticker-button';

/* The composer's sticker picker (issue 32) with the real session and HTTP client; only the server is fake. */

const sticker = (id: number, name: string, userId: number | null = 1): PresentedSticker => ({
  id,
  companyId: 3,
  userId,
  name,
  path: `3/2026-01/${name}`,
  mimetype: 'image/webp',
  url: `/media/3/2026-01/${name}?expires=1&signature=x`,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
});

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
});

describe('the sticker picker', { timeout: 30_000 }, () => {
  it('lists the saved stickers, sends one with a click, adds a shared one and deletes one', async () => {
    let saved = [sticker(1, 'feliz.webp'), sticker(2, 'ok.webp', null)];
    const api = fakeApi({
      'GET /auth/me': () => buildUser(1, { company: buildUserCompany() }),
      'GET /stickers': () => saved,
      'POST /messages/7': () => [buildMessage(30, { ticketId: 7, fromMe: true, mediaType: 'image', dataJson: { sticker: true } })],
      'POST /stickers': () => {
        saved = [sticker(3, 'novo.webp', null), ...saved];
        return saved[0];
      },
      'DELETE /stickers/1': () => {
        saved = saved.filter((s) => s.id !== 1);
        return { message: 'Sticker deleted' };
      },
    });
    render(
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <QueryClientProvider client={new QueryClient()}>
            <StickerButton ticketId={7} />
          </QueryClientProvider>
        </SessionProvider>
      </ToastHost>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send sticker feliz.webp' }));
    await waitFor(() => expect(api.calls('POST /messages/7').map((request) => request.body)).toEqual([{ body: '', stickerId: 1 }]));

    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    await userEvent.click(await screen.findByRole('switch', { name: 'Share with the company' }));
    await userEvent.upload(screen.getByTestId('sticker-file'), new File(['RIFF'], 'novo.webp', { type: 'image/webp' }));
    expect(await screen.findByRole('button', { name: 'Send sticker novo.webp' })).toBeTruthy();
    const form = api.calls('POST /stickers')[0]?.body as FormData;
    expect([(form.get('sticker') as File).name, form.get('isShared')]).toEqual(['novo.webp', 'true']);

    await userEvent.click(screen.getByRole('button', { name: 'Delete sticker feliz.webp' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Send sticker feliz.webp' })).toBeNull());
    expect(api.unhandled).toEqual([]);
  });
});
