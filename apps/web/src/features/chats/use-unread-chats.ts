import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

/** Query keys of the internal chat; the unread count is what every page carries (menu dot, top bar badge). */
export const chatKeys = {
  all: ['chats'] as const,
  unread: ['chats', 'unread'] as const,
  pages: ['chats', 'page'] as const,
  page: (search: string) => ['chats', 'page', search] as const,
  one: (ref: string) => ['chats', 'one', ref] as const,
  messages: (chatId: number) => ['chats', 'messages', chatId] as const,
};

/**
 * How many of the user's chats have unread messages (`GET /chats/unread`), kept
 * live by `company-{id}-chat` (which reaches only the chats' members). Off when
 * the plan does not allow the internal chat.
 */
export function useUnreadChats(): number {
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const enabled = Boolean(user?.company?.plan?.useInternalChat);
  const unread = useQuery({ queryKey: chatKeys.unread, queryFn: () => api.get<{ count: number }>('/chats/unread'), enabled });
  useCompanyEvent('chat', () => {
    if (enabled) void queryClient.invalidateQueries({ queryKey: chatKeys.unread });
  });
  return enabled ? (unread.data?.count ?? 0) : 0;
}
