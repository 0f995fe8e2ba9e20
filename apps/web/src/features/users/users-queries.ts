import type { PresentedUser, PresentedUserPage, UserEventPayload } from '@atende/shared';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';
import { TICKET_LIST_KEY } from '../tickets/ticket-list-cache';

export const userKeys = {
  all: ['users'] as const,
  lists: ['users', 'list'] as const,
  list: (search: string) => ['users', 'list', search] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
};

type UserPages = InfiniteData<PresentedUserPage, number>;

/** `GET /users` by page number (spec part 1 §7), the next one while `hasMore`. */
export function useUserPages(search: string, enabled = true) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: userKeys.list(search),
    queryFn: ({ pageParam }) => api.get<PresentedUserPage>('/users', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

function matchesSearch(user: PresentedUser, search: string): boolean {
  if (!search) return true;
  return user.name.toLowerCase().includes(search) || user.email.toLowerCase().includes(search);
}

/** A live create/update: replaced where listed, else added on top of a list whose search it matches. */
function upsertUserInPages(data: UserPages, user: PresentedUser, search: string): UserPages {
  const listed = data.pages.some((page) => page.users.some((u) => u.id === user.id));
  if (listed) {
    return { ...data, pages: data.pages.map((page) => ({ ...page, users: page.users.map((u) => (u.id === user.id ? user : u)) })) };
  }
  if (!matchesSearch(user, search) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [PresentedUserPage, ...PresentedUserPage[]];
  return {
    ...data,
    pages: [{ ...first, users: [user, ...first.users] }, ...rest].map((page) => ({ ...page, count: page.count + 1 })),
  };
}

function removeUserFromPages(data: UserPages, userId: number): UserPages {
  const listed = data.pages.some((page) => page.users.some((u) => u.id === userId));
  if (!listed) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, count: Math.max(0, page.count - 1), users: page.users.filter((u) => u.id !== userId) })),
  };
}

export function cacheSavedUser(queryClient: QueryClient, user: PresentedUser): void {
  queryClient.setQueryData(userKeys.detail(user.id), user);
  for (const [key, data] of queryClient.getQueriesData<UserPages>({ queryKey: userKeys.lists })) {
    if (!data) continue;
    const search = typeof key[2] === 'string' ? key[2] : '';
    queryClient.setQueryData(key, upsertUserInPages(data, user, search));
  }
}

export function cacheRemovedUser(queryClient: QueryClient, userId: number): void {
  queryClient.removeQueries({ queryKey: userKeys.detail(userId) });
  queryClient.setQueriesData<UserPages>({ queryKey: userKeys.lists }, (data) => (data ? removeUserFromPages(data, userId) : data));
}

/** `company-{id}-user` keeps every cached user list and detail live (create, update, delete). */
export function useUserEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<UserEventPayload>('user', (payload) => {
    if (payload.action === 'delete') cacheRemovedUser(queryClient, Number(payload.userId));
    else if (payload.user) cacheSavedUser(queryClient, payload.user);
  });
}

/** The rights the session keeps of its own user: what an update of that user may change. */
export function withOwnRights(me: PresentedUser, updated: PresentedUser): PresentedUser {
  return {
    ...me,
    name: updated.name,
    email: updated.email,
    profile: updated.profile,
    allTicket: updated.allTicket,
    whatsappId: updated.whatsappId,
    queues: updated.queues,
    language: updated.language,
  };
}

/** Whether the ticket lists the user may see could differ: profile, allTicket or queues changed. */
function rightsChanged(me: PresentedUser, updated: PresentedUser): boolean {
  const ids = (queues: { id: number }[]) => queues.map((queue) => queue.id).sort((a, b) => a - b).join(',');
  return me.profile !== updated.profile || me.allTicket !== updated.allTicket || ids(me.queues) !== ids(updated.queues);
}

/**
 * Rights are live (architecture rule 12): when an admin changes the signed-in
 * user's profile, queues or allTicket, the session takes the new rights and
 * every ticket list is fetched again under them, without a new login. The
 * server re-synced this socket's rooms before it sent the event.
 */
export function useOwnUserEvents(): void {
  const queryClient = useQueryClient();
  const { user: me, setUser } = useSession();
  useCompanyEvent<UserEventPayload>('user', (payload) => {
    if (!me || payload.action !== 'update' || payload.user.id !== me.id) return;
    setUser(withOwnRights(me, payload.user));
    // A change of presence or name is an update too: only new rights refetch the lists.
    if (rightsChanged(me, payload.user)) void queryClient.invalidateQueries({ queryKey: [TICKET_LIST_KEY] });
  });
}
