import {
  CLIENT_EVENTS,
  companyEvent,
  type AppMessageEventPayload,
  type PresentedMessage,
  type PresentedMessagePage,
  type PresentedTicket,
  type TicketEventPayload,
} from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { useSocket } from '../../realtime/socket';
import { mergeMessages, replaceMessage, upsertMessage, type MessagesCache } from './message-timeline';

export const ticketKey = (uuid: string) => ['ticket', uuid] as const;
export const messagesKey = (ticketId: number) => ['messages', ticketId] as const;

/** 403 (outside the user's queues) and 404 are answers, not glitches: no retry. */
function retryUnlessRefused(failures: number, error: Error): boolean {
  if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return false;
  return failures < 1;
}

export function useTicket(uuid: string) {
  const { api } = useSession();
  return useQuery({
    queryKey: ticketKey(uuid),
    queryFn: () => api.get<PresentedTicket>(`/tickets/u/${encodeURIComponent(uuid)}`),
    retry: retryUnlessRefused,
  });
}

/** The conversation history: page 1 is the newest page (spec part 1 §4). */
export function useMessages(ticketId: number | undefined) {
  const { api } = useSession();
  const query = useInfiniteQuery({
    queryKey: messagesKey(ticketId ?? 0),
    queryFn: ({ pageParam }) => api.get<PresentedMessagePage>(`/messages/${ticketId}`, { pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: ticketId !== undefined,
    // A conversation is kept current by live events; refetching all pages would only move the scroll.
    staleTime: Infinity,
    retry: retryUnlessRefused,
  });
  const messages = useMemo(() => mergeMessages(query.data?.pages ?? []), [query.data]);
  return { ...query, messages };
}

/** Our own sends and deletes go into the cache at once; the live event with the same id is then a no-op. */
export function storeMessages(queryClient: QueryClient, ticketId: number, messages: PresentedMessage[]): void {
  queryClient.setQueryData<MessagesCache>(messagesKey(ticketId), (cache) => messages.reduce((acc, m) => upsertMessage(acc, m), cache));
}

/**
 * Joins the ticket's chat box and applies its events (spec part 1 §4): messages
 * created are added, updated ones replaced; a ticket update replaces the shown
 * ticket and a delete sends the user to /tickets.
 */
export function useConversationLive(ticket: PresentedTicket | undefined, uuid: string): void {
  const socket = useSocket();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ticketId = ticket?.id;
  const companyId = ticket?.companyId;

  useEffect(() => {
    if (!socket || ticketId === undefined || companyId === undefined) return;
    const onMessage = (event: AppMessageEventPayload) => {
      const key = messagesKey(ticketId);
      if (event.action === 'create' && event.message.ticketId === ticketId) {
        queryClient.setQueryData<MessagesCache>(key, (cache) => upsertMessage(cache, event.message));
      } else if (event.action === 'update') {
        queryClient.setQueryData<MessagesCache>(key, (cache) => replaceMessage(cache, event.message));
      }
    };
    const onTicket = (event: TicketEventPayload) => {
      if (event.action === 'update' && event.ticket.id === ticketId) queryClient.setQueryData(ticketKey(uuid), event.ticket);
      if (event.action === 'delete' && !event.moved && event.ticketId === ticketId) void navigate('/tickets');
    };
    const messageEvent = companyEvent(companyId, 'appMessage');
    const ticketEvent = companyEvent(companyId, 'ticket');
    socket.emit(CLIENT_EVENTS.joinChatBox, String(ticketId));
    socket.on(messageEvent, onMessage);
    socket.on(ticketEvent, onTicket);
    return () => {
      socket.emit(CLIENT_EVENTS.leaveChatBox, String(ticketId));
      socket.off(messageEvent, onMessage);
      socket.off(ticketEvent, onTicket);
    };
  }, [socket, ticketId, companyId, uuid, queryClient, navigate]);
}
