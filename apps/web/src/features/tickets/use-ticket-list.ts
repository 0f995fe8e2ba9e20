import type { PresentedTicketPage } from '@atende/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi, useSession } from '../../api/session';
import { flattenTickets, TICKET_COUNT_KEY, ticketListKey, type TicketListParams, type TicketViewer } from './ticket-list-cache';

/** One ticket list, page by page (spec part 1 §4: pagination by page number). */
export function useTicketList(params: TicketListParams, enabled = true) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: ticketListKey(params),
    queryFn: ({ pageParam }) =>
      api.get<PresentedTicketPage>('/tickets', {
        status: params.status,
        searchParam: params.searchParam,
        showAll: params.showAll,
        queueIds: params.queueIds,
        tags: params.tags?.length ? params.tags : undefined,
        users: params.users?.length ? params.users : undefined,
        sortBy: params.sortBy,
        pageNumber: pageParam,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  return { ...query, tickets };
}

/** The signed-in user as the list rules see it. */
export function useTicketViewer(): TicketViewer | null {
  const { user } = useSession();
  return useMemo(
    () => (user ? { id: user.id, profile: user.profile, allTicket: user.allTicket, queueIds: user.queues.map((q) => q.id) } : null),
    [user],
  );
}

/**
 * How many tickets a list holds in all (`GET /tickets/count`), not only its
 * loaded pages. A fully loaded list counts itself (its cache follows every live
 * event); a paged one shows the server's count, refetched after live events
 * (use-tickets-realtime invalidates TICKET_COUNT_KEY).
 */
export function useTicketCount(params: TicketListParams, list: { tickets: unknown[]; hasNextPage: boolean; isSuccess: boolean }, enabled = true): number {
  const api = useApi();
  const query = useQuery({
    queryKey: [TICKET_COUNT_KEY, params],
    queryFn: () => api.get<{ count: number }>('/tickets/count', { status: params.status, showAll: params.showAll, queueIds: params.queueIds }),
    enabled: enabled && list.isSuccess && list.hasNextPage,
  });
  if (!list.hasNextPage) return list.tickets.length;
  return Math.max(query.data?.count ?? 0, list.tickets.length);
}
