import type { PresentedChat, PresentedChatMessage } from '@atende/shared';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { cacheNewMessage, cacheRemovedChat, cacheSavedChat, messagesOf, type ChatMessagePage, type ChatPage } from './chats-queries';
import { chatKeys } from './use-unread-chats';

const chat = (id: number, title = `Chat ${id}`): PresentedChat => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  title,
  ownerId: 1,
  lastMessage: '',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  users: [],
});
const message = (id: number, chatId = 1): PresentedChatMessage => ({ id, chatId, message: `m${id}`, senderId: 1, sender: { id: 1, name: 'Ana' }, createdAt: '2026-01-01T10:00:00.000Z' });
const pages = <T>(...list: T[]) => ({ pages: list, pageParams: list.map((_, i) => i + 1) });

describe('chat caches', () => {
  it('a changed chat moves to the top of the lists whose search it matches, and leaves the others', () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.page(''), pages<ChatPage>({ records: [chat(1), chat(2)], hasMore: true }, { records: [chat(3)], hasMore: false }));
    client.setQueryData(chatKeys.page('vendas'), pages<ChatPage>({ records: [chat(3, 'Vendas')], hasMore: false }));
    cacheSavedChat(client, { ...chat(3, 'Suporte'), lastMessage: 'novo' });
    const all = client.getQueryData<InfiniteData<ChatPage>>(chatKeys.page(''))!;
    expect(all.pages.map((page) => page.records.map((row) => row.id))).toEqual([[3, 1, 2], []]);
    expect(all.pages[0]!.records[0]!.lastMessage).toBe('novo');
    expect(client.getQueryData<InfiniteData<ChatPage>>(chatKeys.page('vendas'))!.pages[0]!.records).toEqual([]);
    cacheRemovedChat(client, 1);
    expect(client.getQueryData<InfiniteData<ChatPage>>(chatKeys.page(''))!.pages[0]!.records.map((row) => row.id)).toEqual([3, 2]);
  });

  it('a new message is added once to the newest page, and the pages read oldest first', () => {
    const client = new QueryClient();
    client.setQueryData(chatKeys.messages(1), pages<ChatMessagePage>({ records: [message(3), message(4)], hasMore: true }, { records: [message(1), message(2)], hasMore: false }));
    cacheNewMessage(client, message(5));
    cacheNewMessage(client, message(5));
    cacheNewMessage(client, message(9, 2));
    const data = client.getQueryData<InfiniteData<ChatMessagePage>>(chatKeys.messages(1));
    expect(messagesOf(data).map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
    expect(client.getQueryData(chatKeys.messages(2))).toBeUndefined();
  });
});
