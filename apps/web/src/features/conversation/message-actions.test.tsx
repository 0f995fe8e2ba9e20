import type { PresentedMessage } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildContact } from '../../test/build-contact';
import { buildMessage } from '../../test/build-message';
import { buildTicket } from '../../test/build-ticket';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json, type FakeApi } from '../../test/fake-api';
import { shownToasts as allToasts } from '../../test/toasts';
import { canEditMessage } from './message-actions';
import { MessageList } from './message-list';

/*
 * The message menu's Edit, React and Forward (issue 32) in the conversation, with the real
 * session, HTTP client, query cache, bubbles and dialogs: only the server is fake.
 */

const ticket = buildTicket(7, { uuid: 'u-7', status: 'open' });
const justNow = () => new Date(Date.now() - 60_000).toISOString();
const mine = (id: number, extra: Partial<PresentedMessage> = {}) =>
  buildMessage(id, { ticketId: 7, userId: 1, fromMe: true, source: 'agent', ack: 2, sendStatus: 'sent', mediaType: 'chat', createdAt: justNow(), ...extra });
const theirs = (id: number, extra: Partial<PresentedMessage> = {}) => buildMessage(id, { ticketId: 7, mediaType: 'chat', createdAt: justNow(), ...extra });

let api: FakeApi;

/** While a dialog is open MUI hides the rest of the page (the toasts too) from the accessibility tree: hidden ones count. */
const shownToasts = () => allToasts({ hidden: true });

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
});

function serve(messages: PresentedMessage[], routes: Parameters<typeof fakeApi>[0] = {}) {
  api = fakeApi({
    'GET /auth/me': () => buildUser(1, { name: 'Ana', company: buildUserCompany() }),
    'GET /messages/7': () => ({ messages, ticket, hasMore: false }),
    ...routes,
  });
  render(
    <ToastHost>
      <SessionProvider onSessionEnd={() => undefined}>
        <QueryClientProvider client={new QueryClient()}>
          <MessageList ticketId={7} isGroup={false} />
        </QueryClientProvider>
      </SessionProvider>
    </ToastHost>,
  );
}

const bubble = async (id: number) => {
  const items = await screen.findAllByTestId('message-item');
  const found = items.find((item) => item.getAttribute('data-message-id') === String(id));
  if (!found) throw new Error(`no message ${id}`);
  return found;
};

/** Opens a bubble's menu by keyboard and answers the items offered. */
async function openMenu(id: number): Promise<string[]> {
  const menuButton = within(await bubble(id)).getByTestId('message-menu');
  menuButton.focus();
  await userEvent.keyboard('{Enter}');
  const menu = await screen.findByRole('menu');
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.getAttribute('data-testid') ?? '');
}

// Each test walks a whole menu and dialog by keyboard and mouse: more than the default 5 s on a busy machine.
describe('the message menu: edit, react, forward', { timeout: 30_000 }, () => {
  it('offers Edit only on our own recent sent text; editing by keyboard shows the new text and the edited mark', async () => {
    serve([theirs(1), mine(2, { body: 'Valor: R$ 10' }), mine(3, { createdAt: '2026-01-01T10:00:00.000Z' }), mine(4, { userId: 9 })], {
      'POST /messages/edit/2': (request) => mine(2, { body: (request.body as { body: string }).body, isEdited: true }),
    });
    await waitFor(async () => expect(within(await bubble(4)).getByTestId('message-menu')).toBeTruthy());
    expect(await openMenu(1)).not.toContain('message-edit');
    await userEvent.keyboard('{Escape}');
    expect(await openMenu(3)).not.toContain('message-edit');
    await userEvent.keyboard('{Escape}');
    expect(await openMenu(4)).not.toContain('message-edit');
    await userEvent.keyboard('{Escape}');

    expect(await openMenu(2)).toEqual(['message-react', 'message-forward', 'message-edit', 'message-delete']);
    await userEvent.click(screen.getByTestId('message-edit'));
    const input = await screen.findByTestId('edit-message-input');
    expect(input).toHaveProperty('value', 'Valor: R$ 10');
    await userEvent.clear(input);
    await userEvent.type(input, 'Valor: R$ 12{Enter}');
    await waitFor(async () => expect(within(await bubble(2)).getByTestId('message-body').textContent).toBe('Valor: R$ 12'));
    expect(within(await bubble(2)).getByTestId('message-edited')).toBeTruthy();
    expect(api.calls('POST /messages/edit/2').map((request) => request.body)).toEqual([{ body: 'Valor: R$ 12' }]);
    await waitFor(() => expect(screen.queryByTestId('edit-message-dialog')).toBeNull());
  });

  it("shows the server's refusal of an edit as a toast and keeps the dialog", async () => {
    serve([mine(2, { body: 'Texto' })], { 'POST /messages/edit/2': () => json({ error: 'ERR_EDIT_WINDOW_EXPIRED' }, 400) });
    await openMenu(2);
    await userEvent.click(screen.getByTestId('message-edit'));
    await userEvent.type(await screen.findByTestId('edit-message-input'), ' novo');
    await userEvent.click(screen.getByTestId('edit-message-save'));
    await waitFor(() => expect(shownToasts()).toContainEqual({ text: 'The 15 minutes to edit this message are over.', variant: 'error' }));
    expect(screen.getByTestId('edit-message-dialog')).toBeTruthy();
  });

  it('reacts with a common emoji (shown on the bubble), and the same emoji again takes it back', async () => {
    let reactions: { from: string; emoji: string }[] = [];
    serve([theirs(1, { body: 'Obrigado!' })], {
      'POST /messages/1/reactions': (request) => {
        const emoji = (request.body as { type: string }).type;
        reactions = emoji ? [{ from: 'me', emoji }] : [];
        return { message: theirs(1, { body: 'Obrigado!', dataJson: { reactions } }), reactions };
      },
    });
    await openMenu(1);
    await userEvent.click(screen.getByTestId('message-react'));
    const options = await screen.findAllByTestId('reaction-option');
    expect(options.map((option) => option.textContent)).toEqual(['👍', '❤️', '😂', '😮', '😢', '🙏']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'React with ❤️' }));
    await waitFor(async () => expect(within(await bubble(1)).getByTestId('message-reactions').textContent).toBe('❤️'));

    await openMenu(1);
    await userEvent.click(screen.getByTestId('message-react'));
    await userEvent.click(await screen.findByTestId('reaction-remove'));
    await waitFor(async () => expect(within(await bubble(1)).queryByTestId('message-reactions')).toBeNull());
    expect(api.calls('POST /messages/1/reactions').map((request) => request.body)).toEqual([{ type: '❤️' }, { type: '' }]);
  });

  it('forwards to contacts found by search, signed, with progress and outcome as toasts', async () => {
    serve([theirs(1, { body: 'Segue o endereço' })], {
      'GET /contacts': (request) => ({
        contacts: request.query.get('searchParam') === 'joa' ? [buildContact(21, { name: 'João', number: '5511900000021' }), buildContact(22, { name: 'Joana', number: '5511900000022' })] : [],
        count: 2,
        hasMore: false,
      }),
      'POST /message/forward': () => ({ messages: [mine(50, { ticketId: 90, body: '*Ana:*\nSegue o endereço' }), mine(51, { ticketId: 91, body: '*Ana:*\nSegue o endereço' })] }),
    });
    await openMenu(1);
    await userEvent.click(screen.getByTestId('message-forward'));
    const dialog = await screen.findByTestId('forward-dialog');
    expect(within(dialog).getByTestId('forward-send')).toHaveProperty('disabled', true);
    await userEvent.type(within(dialog).getByTestId('forward-search'), 'joa');
    await userEvent.click(await screen.findByRole('option', { name: 'João (5511900000021)' }));
    await userEvent.type(within(dialog).getByTestId('forward-search'), 'joa');
    await userEvent.click(await screen.findByRole('option', { name: 'Joana (5511900000022)' }));
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Sign with my name' }));
    await userEvent.click(within(dialog).getByTestId('forward-send'));
    await waitFor(() => expect(shownToasts()).toContainEqual({ text: 'Forwarded to 2 contacts', variant: 'success' }));
    expect(shownToasts()).toContainEqual({ text: 'Forwarding...', variant: 'info' });
    expect(api.calls('POST /message/forward').map((request) => request.body)).toEqual([{ messageIds: [1], contactIds: [21, 22], signMessage: true }]);
    await waitFor(() => expect(screen.queryByTestId('forward-dialog')).toBeNull());
  });

  it("a refused forward says why and keeps the dialog to try again", async () => {
    serve([theirs(1)], {
      'GET /contacts': () => ({ contacts: [buildContact(21, { name: 'João', number: '5511900000021' })], count: 1, hasMore: false }),
      'POST /message/forward': () => json({ error: 'ERR_TICKET_NOT_OPEN', messages: [] }, 400),
    });
    await openMenu(1);
    await userEvent.click(screen.getByTestId('message-forward'));
    await userEvent.type(await screen.findByTestId('forward-search'), 'joão');
    await userEvent.click(await screen.findByRole('option', { name: 'João (5511900000021)' }));
    await userEvent.click(screen.getByTestId('forward-send'));
    await waitFor(() => expect(shownToasts().some((toast) => toast.variant === 'error')).toBe(true));
    expect(screen.getByTestId('forward-dialog')).toBeTruthy();
  });
});

describe('canEditMessage', () => {
  const user = { id: 1, profile: 'user' };
  it('follows the server: own sent text, 15 minutes, not deleted; admins edit any of ours', () => {
    const now = Date.parse('2026-01-05T10:10:00.000Z');
    const base = mine(1, { createdAt: '2026-01-05T10:00:00.000Z' });
    expect(canEditMessage(base, user, now)).toBe(true);
    expect(canEditMessage(base, user, now + 6 * 60_000)).toBe(false);
    expect(canEditMessage({ ...base, isDeleted: true }, user, now)).toBe(false);
    expect(canEditMessage({ ...base, sendStatus: 'pending' }, user, now)).toBe(false);
    expect(canEditMessage({ ...base, mediaType: 'image' }, user, now)).toBe(false);
    expect(canEditMessage({ ...base, userId: 2 }, user, now)).toBe(false);
    expect(canEditMessage({ ...base, userId: 2 }, { id: 1, profile: 'admin' }, now)).toBe(true);
    expect(canEditMessage({ ...base, fromMe: false }, { id: 1, profile: 'admin' }, now)).toBe(false);
  });
});
