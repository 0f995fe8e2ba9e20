import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from './toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../api/session';
import { setupI18n } from '../i18n';
import { shownToasts } from '../test/toasts';
import { useDeleteConfirmation } from './use-delete-confirmation';

interface Tag {
  id: number;
  name: string;
}

const fetchMock = vi.fn<typeof fetch>();

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function TagRow({ tag, onDeleted }: { tag: Tag; onDeleted(tag: Tag): void }) {
  const deletion = useDeleteConfirmation<Tag>({
    path: (item) => `/tags/${item.id}`,
    onDeleted,
    title: (item) => `Delete ${item?.name ?? ''}?`,
    message: 'It cannot be undone.',
  });
  return (
    <>
      <button type="button" onClick={() => deletion.ask(tag)}>
        delete
      </button>
      {deletion.dialog}
    </>
  );
}

function renderRow() {
  const onDeleted = vi.fn();
  render(
    <ToastHost>
      <SessionProvider onSessionEnd={() => undefined}>
        <TagRow tag={{ id: 4, name: 'VIP' }} onDeleted={onDeleted} />
      </SessionProvider>
    </ToastHost>,
  );
  return onDeleted;
}

const requests = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/tags/'));

describe('useDeleteConfirmation', () => {
  it('asks about the record, and deletes it only once confirmed', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ message: 'Tag deleted' }), { status: 200, headers: { 'content-type': 'application/json' } }));
    const onDeleted = renderRow();
    await userEvent.click(screen.getByText('delete'));
    expect(await screen.findByText('Delete VIP?')).toBeTruthy();
    expect(screen.getByText('It cannot be undone.')).toBeTruthy();
    expect(requests()).toHaveLength(0);

    await userEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledWith({ id: 4, name: 'VIP' }));
    const [url, init] = requests()[0]!;
    expect(String(url)).toMatch(/\/tags\/4$/);
    expect(init?.method).toBe('DELETE');
    expect(shownToasts()).toEqual([]);
  });

  it('sends nothing when the user says no', async () => {
    const onDeleted = renderRow();
    await userEvent.click(screen.getByText('delete'));
    await userEvent.click(await screen.findByTestId('confirm-cancel'));
    expect(requests()).toHaveLength(0);
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('shows a refusal as an error toast and keeps the record', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ error: 'ERR_NO_PERMISSION' }), { status: 403, headers: { 'content-type': 'application/json' } }));
    const onDeleted = renderRow();
    await userEvent.click(screen.getByText('delete'));
    await userEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(shownToasts()).toEqual([{ variant: 'error', text: "You don't have permission to access this." }]));
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
