import type { PresentedChat, PresentedChatMessage } from '@atende/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupI18n } from '../../i18n';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi, json } from '../../test/fake-api';
import { renderPages } from '../../test/render-page';
import { standInSocketServer } from '../../test/stand-in-socket-server';
import ChatsPage from './chats-page';

const socketServer = standInSocketServer();
const at = '2026-11-25T10:00:00.000Z';
const me = buildUser(1, { name: 'Ana', company: buildUserCompany({}, { useInternalChat: true }) });

const chat: PresentedChat = {
  id: 7,
  uuid: '00000000-0000-4000-8000-000000000007',
  title: 'Plantão',
  ownerId: 2,
  lastMessage: 'Oi',
  createdAt: at,
  updatedAt: at,
  users: [
    { userId: 1, unreads: 2, user: { id: 1, name: 'Ana' } },
    { userId: 2, unreads: 0, user: { id: 2, name: 'Bruno' } },
  ],
};
const message = (id: number, text: string, senderId = 2): PresentedChatMessage => ({ id, chatId: 7, message: text, senderId, sender: { id: senderId, name: senderId === 1 ? 'Ana' : 'Bruno' }, createdAt: at });

beforeAll(async () => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
  await socketServer.start();
});
afterAll(() => socketServer.stop());
beforeEach(() => {
  localStorage.setItem('token', 'test-token');
  socketServer.point('/chats');
});

describe('internal chat page', { timeout: 30_000 }, () => {
  it('opens the chat of the address, marks it read, sends with Enter (not blank, not Shift+Enter) and shows live messages', async () => {
    const api = fakeApi({
      'GET /auth/me': () => me,
      'GET /chats': () => ({ records: [chat], hasMore: false }),
      'GET /chats/unread': () => ({ count: 1 }),
      'POST /chats/7/read': () => ({ ...chat, users: chat.users.map((u) => ({ ...u, unreads: 0 })) }),
      'GET /chats/7/messages': () => ({ records: [message(1, 'Oi @Ana')], hasMore: false }),
      'POST /chats/7/messages': (request) => json(message(2, (request.body as { message: string }).message, 1), 201),
    });
    renderPages(`/chats/${chat.uuid}`, { '/chats/:id?': <ChatsPage /> });
    const pane = await screen.findByTestId('chat-pane');
    expect((await within(pane).findByTestId('chat-message-text')).textContent).toBe('Oi @Ana');
    expect(within(pane).getByTestId('mention-me').textContent).toBe('@Ana');
    await waitFor(() => expect(api.calls('POST /chats/7/read')).toHaveLength(1));
    // Not the owner: leave, no edit or delete.
    expect(within(pane).getByTestId('chat-leave')).toBeTruthy();
    expect(within(pane).queryByTestId('chat-edit')).toBeNull();

    const input = screen.getByTestId('chat-input');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: 'linha 1' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(api.calls('POST /chats/7/messages')).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'linha 1\nlinha 2' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(api.calls('POST /chats/7/messages')).toHaveLength(1));
    expect(api.calls('POST /chats/7/messages')[0]!.body).toEqual({ message: 'linha 1\nlinha 2' });
    await waitFor(() => expect((input as HTMLTextAreaElement).value).toBe(''));

    // The sent message and a reply arrive through `company-3-chat`.
    await waitFor(() => expect(socketServer.connected()).toBe(true));
    await waitFor(async () => {
      await socketServer.push('company-3-chat', { action: 'new-message', newMessage: message(3, 'Resposta ao vivo'), chat: { ...chat, lastMessage: 'Resposta ao vivo' } });
      expect(within(screen.getByTestId('chat-pane')).getByText('Resposta ao vivo')).toBeTruthy();
    });
  });

  it('without the plan’s internal chat, says so and loads nothing', async () => {
    const api = fakeApi({ 'GET /auth/me': () => buildUser(1, { name: 'Ana', company: buildUserCompany() }) });
    renderPages('/chats', { '/chats/:id?': <ChatsPage /> });
    await screen.findByText('This company is not allowed to open this page. Redirecting you.');
    expect(api.calls('GET /chats')).toHaveLength(0);
  });
});
