import { CLIENT_EVENTS, companyEvent, TICKET_STATUSES, type ContactEventPayload, type PresentedMessage, type PresentedTicket, type TicketEventPayload } from '@atende/shared';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { useSession } from '../../api/session';
import { useSocket } from '../../realtime/socket';
import {
  applyContactUpdate,
  applyTicketUpdate,
  isTicketListData,
  removeContactTickets,
  removeTicket,
  resetUnread,
  TICKET_COUNT_KEY,
  TICKET_LIST_KEY,
  ticketListParamsOf,
  type TicketListData,
  type TicketListParams,
} from './ticket-list-cache';
import { useTicketViewer } from './use-ticket-list';

/** Live events come in bursts (a message updates its ticket too). */
const COUNT_REFRESH_DELAY_MS = 300;

interface AppMessageEvent {
  action: 'create' | 'update' | 'delete';
  message?: Pick<PresentedMessage, 'id' | 'fromMe'>;
  ticket?: PresentedTicket;
}

/**
 * Runs `change` on every cached ticket list: the cache is the only copy of the
 * lists. A list being refetched (after an action invalidated it) may answer with
 * what the server read before this event, so the change is applied again on
 * top of that answer; every change here can be applied twice.
 */
function updateLists(queryClient: QueryClient, change: (data: TicketListData, params: TicketListParams) => TicketListData): void {
  const cache = queryClient.getQueryCache();
  for (const query of cache.findAll({ queryKey: [TICKET_LIST_KEY] })) {
    const params = ticketListParamsOf(query.queryKey);
    if (!params) continue;
    const apply = () => queryClient.setQueryData(query.queryKey, (data: unknown) => (isTicketListData(data) ? change(data, params) : data));
    apply();
    if (query.state.fetchStatus !== 'fetching') continue;
    const unsubscribe = cache.subscribe((event) => {
      if (event.query !== query) return;
      if (event.type === 'removed') {
        unsubscribe();
        return;
      }
      if (event.type !== 'updated') return;
      const { action } = event;
      // setQueryData (other events) reports a manual success: only the server's answer counts.
      if (action.type === 'success' && !action.manual) {
        unsubscribe();
        apply();
      } else if (action.type === 'error') unsubscribe();
    });
  }
}

/**
 * Live ticket lists (spec part 1 §4): joins the ticket and notification rooms
 * while the tickets screen is shown, and folds ticket, message and contact
 * events into the cached lists. The notification sound is the top bar's
 * (notifications/use-notifications), heard on every screen.
 */
export function useTicketsRealtime(): void {
  const socket = useSocket();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const viewer = useTicketViewer();
  const companyId = user?.companyId;

  const previousSocket = useRef<Socket | null>(null);

  useEffect(() => {
    if (!socket || !companyId || !viewer) return;
    // A replaced socket is a new session: whatever was sent in between never reached us.
    if (previousSocket.current && previousSocket.current !== socket) void queryClient.invalidateQueries({ queryKey: [TICKET_LIST_KEY] });
    previousSocket.current = socket;
    for (const status of TICKET_STATUSES) socket.emit(CLIENT_EVENTS.joinTickets, status);
    socket.emit(CLIENT_EVENTS.joinNotification);

    // The badges' counts (paged lists only) follow the events, one refetch per burst.
    let countTimer: ReturnType<typeof setTimeout> | null = null;
    const refreshCounts = () => {
      countTimer ??= setTimeout(() => {
        countTimer = null;
        void queryClient.invalidateQueries({ queryKey: [TICKET_COUNT_KEY] });
      }, COUNT_REFRESH_DELAY_MS);
    };

    const onTicket = (event: TicketEventPayload) => {
      refreshCounts();
      if (event.action === 'update') updateLists(queryClient, (data, params) => applyTicketUpdate(data, event.ticket, params, viewer));
      // A moved ticket's update follows and places it (applyTicketUpdate drops it from lists it left).
      else if (event.action === 'delete' && !event.moved) updateLists(queryClient, (data) => removeTicket(data, event.ticketId));
      else if (event.action === 'updateUnread') updateLists(queryClient, (data) => resetUnread(data, event.ticketId));
    };
    const onAppMessage = (event: AppMessageEvent) => {
      const ticket = event.ticket;
      if (!ticket || event.action === 'delete') return;
      refreshCounts();
      // The sound and the desktop notification come from the top bar's bell (notifications/use-notifications).
      updateLists(queryClient, (data, params) => applyTicketUpdate(data, ticket, params, viewer));
    };
    const onContact = (event: ContactEventPayload) => {
      if (event.action === 'update') updateLists(queryClient, (data) => applyContactUpdate(data, event.contact));
      else if (event.action === 'delete') updateLists(queryClient, (data) => removeContactTickets(data, event.contactId));
    };

    // Events sent while the connection was down are lost unless the server recovered the session.
    const onReconnect = () => {
      if (socket.recovered) return;
      void queryClient.invalidateQueries({ queryKey: [TICKET_LIST_KEY] });
      refreshCounts();
    };

    const ticketChannel = companyEvent(companyId, 'ticket');
    const messageChannel = companyEvent(companyId, 'appMessage');
    const contactChannel = companyEvent(companyId, 'contact');
    socket.on(ticketChannel, onTicket);
    socket.on(messageChannel, onAppMessage);
    socket.on(contactChannel, onContact);
    socket.on('connect', onReconnect);
    return () => {
      if (countTimer) clearTimeout(countTimer);
      socket.off('connect', onReconnect);
      socket.off(ticketChannel, onTicket);
      socket.off(messageChannel, onAppMessage);
      socket.off(contactChannel, onContact);
      for (const status of TICKET_STATUSES) socket.emit(CLIENT_EVENTS.leaveTickets, status);
      socket.emit(CLIENT_EVENTS.leaveNotification);
    };
  }, [socket, companyId, viewer, queryClient]);
}
