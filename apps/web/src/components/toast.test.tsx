import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../api/http-client';
import { setupI18n } from '../i18n';
import { fakeApi, json } from '../test/fake-api';
import { shownToasts } from '../test/toasts';
import { toastError, toastInfo, ToastHost, toastSuccess } from './toast';

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});

const client = () => createHttpClient({ getToken: () => 'token', setToken: () => undefined, onSessionEnd: () => undefined });

/** What the real client throws for an answer of the (fake) server. */
async function errorFrom(answer: Response): Promise<unknown> {
  fakeApi({ 'PUT /tags/4': () => answer });
  return client()
    .put('/tags/4', { name: 'VIP' })
    .then(
      () => null,
      (error: unknown) => error,
    );
}

function withHeader(response: Response, requestId: string): Response {
  response.headers.set('x-request-id', requestId);
  return response;
}

async function toastOf(error: unknown) {
  render(<ToastHost />);
  act(() => toastError(error));
  await waitFor(() => expect(shownToasts()).toHaveLength(1));
  return shownToasts()[0];
}

describe('error toasts', () => {
  it("show the server's request id under the translated error, for the user to quote", async () => {
    await i18next.changeLanguage('en');
    const error = await errorFrom(withHeader(json({ error: 'ERR_NO_PERMISSION' }, 403), '9f86d081884c7d65'));
    expect(error).toMatchObject({ status: 403, code: 'ERR_NO_PERMISSION', requestId: '9f86d081884c7d65' });
    expect(await toastOf(error)).toEqual({ text: "You don't have permission to access this.Ref: 9f86d081884c7d65", variant: 'error' });
  });

  it('say it in the language in use, for an unknown error too', async () => {
    await i18next.changeLanguage('pt');
    const error = await errorFrom(withHeader(new Response('upstream went away', { status: 502 }), 'a1b2c3d4e5f60718'));
    expect(await toastOf(error)).toEqual({ text: 'upstream went awayRef.: a1b2c3d4e5f60718', variant: 'error' });
    await i18next.changeLanguage('en');
  });

  it('show no reference when the answer had no usable id', async () => {
    for (const answer of [json({ error: 'ERR_NO_PERMISSION' }, 403), withHeader(json({ error: 'ERR_NO_PERMISSION' }, 403), '<img src=x>')]) {
      const error = await errorFrom(answer);
      expect(error).toMatchObject({ requestId: undefined });
      const toast = await toastOf(error);
      expect(toast?.text).toBe("You don't have permission to access this.");
      cleanup();
    }
  });
});

describe('the toast host', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows at most three toasts, the newest last, each gone after its time', () => {
    vi.useFakeTimers();
    render(<ToastHost />);
    act(() => {
      for (const text of ['one', 'two', 'three', 'four']) toastInfo(text);
    });
    expect(shownToasts()).toEqual(['two', 'three', 'four'].map((text) => ({ text, variant: 'info' })));
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(shownToasts()).toHaveLength(3);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(shownToasts()).toEqual([]);
  });

  it('keeps a toast while the pointer is on it, for the rest of its time once the pointer leaves', () => {
    vi.useFakeTimers();
    render(<ToastHost />);
    act(() => toastSuccess('Saved'));
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    fireEvent.mouseEnter(screen.getByRole('alert'));
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(shownToasts()).toEqual([{ text: 'Saved', variant: 'success' }]);
    fireEvent.mouseLeave(screen.getByRole('alert'));
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(shownToasts()).toHaveLength(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(shownToasts()).toEqual([]);
  });

  it('drops what is asked with no host mounted rather than showing it in the next one', () => {
    const { unmount } = render(<ToastHost />);
    unmount();
    act(() => toastInfo('stale'));
    render(<ToastHost />);
    expect(shownToasts()).toEqual([]);
  });

  it('loads its look with the first toast when the browser has not been idle yet', async () => {
    vi.resetModules();
    const fresh = await import('./toast');
    render(<fresh.ToastHost />);
    act(() => fresh.toastInfo('first'));
    await waitFor(() => expect(shownToasts()).toEqual([{ text: 'first', variant: 'info' }]));
  });
});
