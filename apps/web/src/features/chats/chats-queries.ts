import type { ChatEventPayload, PresentedChat, PresentedChatMessage } from '@atende/shared';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';
import { chatKeys } from './use-unread-chats';

export interface ChatPage {
  records: PresentedChat[];
  hasMore: boolean;
}
export interface ChatMessagePage {
  records: PresentedChatMessage[];
  hasMore: boolean;
}
type ChatPages = InfiniteData<ChatPage, number>;
type MessagePages = InfiniteData<ChatMessagePage, number>;

/** `GET /chats` (searchParam, pageNumber): the user's chats, most recently active first. */
export function useChatPages(search: string, enabled: boolean) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: chatKeys.page(search),
    queryFn: ({ pageParam }) => api.get<ChatPage>('/chats', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

/** `GET /chats/{id}/messages`: page 1 is the newest; each page is oldest first. */
export function useChatMessages(chatId: number | null) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: chatKeys.messages(chatId ?? 0),
    queryFn: ({ pageParam }) => api.get<ChatMessagePage>(`/chats/${chatId}/messages`, { pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: chatId !== null,
  });
}

/** Oldest first across the loaded pages. */
export function messagesOf(data: InfiniteData<ChatMessagePage, unknown> | undefined): PresentedChatMessage[] {
  return data ? [...data.pages].reverse().flatMap((page) => page.records) : [];
}

/** A changed chat moves to the top of every loaded list (the server's order: latest activity first). */
export function cacheSavedChat(queryClient: QueryClient, chat: PresentedChat): void {
  for (const [key, data] of queryClient.getQueriesData<ChatPages>({ queryKey: chatKeys.pages })) {
    if (!data || !Array.isArray(data.pages)) continue;
    const search = typeof key[2] === 'string' ? key[2] : '';
    const without = data.pages.map((page) => ({ ...page, records: page.records.filter((row) => row.id !== chat.id) }));
    if (search && !chat.title.toLowerCase().includes(search)) {
      queryClient.setQueryData(key, { ...data, pages: without });
      continue;
    }
    const [first, ...rest] = without;
    if (!first) continue;
    queryClient.setQueryData(key, { ...data, pages: [{ ...first, records: [chat, ...first.records] }, ...rest] });
  }
  queryClient.setQueriesData({ queryKey: chatKeys.one(chat.uuid) }, chat);
}

export function cacheRemovedChat(queryClient: QueryClient, chatId: number): void {
  queryClient.setQueriesData<ChatPages>({ queryKey: chatKeys.pages }, (data) =>
    data && Array.isArray(data.pages) ? { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.filter((row) => row.id !== chatId) })) } : data,
  );
  queryClient.removeQueries({ queryKey: chatKeys.messages(chatId) });
}

/** Appends a message to its chat's loaded pages (page 1 holds the newest), once. */
export function cacheNewMessage(queryClient: QueryClient, message: PresentedChatMessage): void {
  queryClient.setQueryData<MessagePages>(chatKeys.messages(message.chatId), (data) => {
    if (!data || data.pages.length === 0) return data;
    if (data.pages.some((page) => page.records.some((row) => row.id === message.id))) return data;
    const [newest, ...older] = data.pages as [ChatMessagePage, ...ChatMessagePage[]];
    return { ...data, pages: [{ ...newest, records: [...newest.records, message] }, ...older] };
  });
}

/** `company-{id}-chat`: new-message, update and delete keep the list, the open chat and its messages live. */
export function useChatEvents(onEvent?: (payload: ChatEventPayload) => void): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ChatEventPayload>('chat', (payload) => {
    if (payload.action === 'delete') cacheRemovedChat(queryClient, payload.id);
    else {
      cacheSavedChat(queryClient, payload.chat);
      if (payload.action === 'new-message') cacheNewMessage(queryClient, payload.newMessage);
    }
    onEvent?.(payload);
  });
}
