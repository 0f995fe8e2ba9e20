import type { PresentedTagSummary, PresentedTicket, PresentedUser, TagEventPayload, TicketEventPayload } from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { useCompanyEvent } from '../../realtime/socket';
import { tagKeys } from '../tags/tags-queries';
import { applyTicketToLane, kanbanKeys, type KanbanPage, type LaneId, type LanePages } from './kanban-cache';

export interface Lane {
  id: LaneId;
  /** Null for the lane of tickets without a kanban tag. */
  tag: PresentedTagSummary | null;
}

/** Admins see the whole company's board (spec part 2 §6: showAll only for admin). */
export function useShowAll(): boolean {
  const { user } = useSession();
  return user?.profile === 'admin';
}

/** The board's lanes: tickets without a kanban tag first, then one per kanban tag by name (`GET /tags/kanban`). */
export function useLanes() {
  const { api } = useSession();
  const query = useQuery({ queryKey: tagKeys.lanes, queryFn: () => api.get<{ lista: PresentedTagSummary[] }>('/tags/kanban') });
  const lanes = useMemo<Lane[]>(() => {
    const tags = [...(query.data?.lista ?? [])].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return [{ id: 'none', tag: null }, ...tags.map((tag) => ({ id: tag.id, tag }))];
  }, [query.data]);
  return { ...query, lanes };
}

/** One lane's cards, a page at a time (`GET /ticket/kanban?lane=`). */
export function useLaneCards(lane: LaneId, showAll: boolean, enabled = true) {
  const { api } = useSession();
  return useInfiniteQuery({
    enabled,
    queryKey: kanbanKeys.lane(lane, showAll),
    queryFn: ({ pageParam }) => api.get<KanbanPage>('/ticket/kanban', { lane, showAll, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** Whether a ticket is on this user's board: everything for admins; the user's queues and own tickets otherwise (as the server). */
function onBoardOf(user: Pick<PresentedUser, 'id' | 'profile' | 'queues'> | null) {
  return (ticket: Pick<PresentedTicket, 'userId' | 'queueId'>): boolean => {
    if (!user) return false;
    if (user.profile === 'admin') return true;
    return ticket.userId === user.id || (ticket.queueId !== null && user.queues.some((queue) => queue.id === ticket.queueId));
  };
}

function laneTagIdsOf(queryClient: QueryClient): Set<number> {
  const data = queryClient.getQueryData<{ lista: PresentedTagSummary[] }>(tagKeys.lanes);
  return new Set((data?.lista ?? []).map((tag) => tag.id));
}

/** Folds a ticket's news (a move, a new message, a close) into every cached lane. */
function cacheTicketOnBoard(queryClient: QueryClient, ticket: PresentedTicket | null, ticketId: number, onBoard: boolean): void {
  const laneTagIds = laneTagIdsOf(queryClient);
  for (const [key, data] of queryClient.getQueriesData<LanePages>({ queryKey: kanbanKeys.all })) {
    if (!data) continue;
    const lane: LaneId = key[1] === 'none' ? 'none' : Number(key[1]);
    queryClient.setQueryData(key, applyTicketToLane(data, lane, ticket, ticketId, laneTagIds, onBoard));
  }
}

/**
 * Live board: another agent's move, a new ticket, a closed one, a new last
 * message (`company-{id}-ticket`, `company-{id}-appMessage`); the lanes follow
 * tag changes (`company-{id}-tag`, handled with the tags page's cache).
 */
export function useBoardEvents(): void {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const onBoard = onBoardOf(user);
  useCompanyEvent<TicketEventPayload>('ticket', (payload) => {
    if (payload.action === 'update' && payload.ticket) cacheTicketOnBoard(queryClient, payload.ticket, payload.ticket.id, onBoard(payload.ticket));
    // A moved ticket's own update follows (it keeps its card when still on the board).
    else if (payload.action === 'delete' && !payload.moved) cacheTicketOnBoard(queryClient, null, Number(payload.ticketId), false);
  });
  useCompanyEvent<{ ticket?: PresentedTicket }>('appMessage', (payload) => {
    if (payload.ticket) cacheTicketOnBoard(queryClient, payload.ticket, payload.ticket.id, onBoard(payload.ticket));
  });
  // A lane tag deleted, or turned into a plain tag (or back), moves its cards between lanes: reload them.
  useCompanyEvent<TagEventPayload>('tag', (payload) => {
    const laneTagIds = laneTagIdsOf(queryClient);
    const reshapes = payload.action === 'delete' ? laneTagIds.has(Number(payload.tagId)) : (payload.tag.kanban === 1) !== laneTagIds.has(payload.tag.id);
    if (reshapes) void queryClient.invalidateQueries({ queryKey: kanbanKeys.all });
  });
}

/**
 * Moves a card to another lane: shown at once, sent as one request (the server
 * swaps the lane tag in one transaction), settled with the server's ticket; a
 * refusal reloads both lanes and says why.
 */
export function useMoveCard() {
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  return useCallback(
    async (ticket: PresentedTicket, from: LaneId, to: LaneId): Promise<boolean> => {
      if (from === to) return false;
      const laneTagIds = laneTagIdsOf(queryClient);
      const kept = ticket.tags.filter((tag) => !laneTagIds.has(tag.id));
      const target = to === 'none' ? null : queryClient.getQueryData<{ lista: PresentedTagSummary[] }>(tagKeys.lanes)?.lista.find((tag) => tag.id === to);
      const moved: PresentedTicket = { ...ticket, tags: target ? [...kept, { id: target.id, name: target.name, color: target.color }] : kept };
      const onBoard = onBoardOf(user);
      cacheTicketOnBoard(queryClient, moved, ticket.id, onBoard(moved));
      try {
        const saved = to === 'none' ? await api.delete<PresentedTicket>(`/ticket-tags/${ticket.id}`) : await api.put<PresentedTicket>(`/ticket-tags/${ticket.id}/${to}`);
        cacheTicketOnBoard(queryClient, saved, saved.id, onBoard(saved));
        return true;
      } catch (error) {
        toastError(error);
        await Promise.all(
          [from, to].map((lane) => queryClient.invalidateQueries({ queryKey: ['kanban', String(lane)] })),
        );
        return false;
      }
    },
    [api, user, queryClient],
  );
}
