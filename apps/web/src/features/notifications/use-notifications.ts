import { companyEvent, type AppMessageEventPayload, type PresentedSlaBreach, type PresentedTicket, type PresentedTicketPage } from '@atende/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useApi, useSession } from '../../api/session';
import { useAnnounce } from '../../components/live-announcer';
import { useSocket } from '../../realtime/socket';
import { playNotificationSound } from '../tickets/notification-sound';
import { shouldNotify } from '../tickets/ticket-list-cache';
import { useSlaBreaches } from '../sla/use-sla-breaches';
import { useSelectableQueues } from '../tickets/use-selectable-queues';
import { useTicketViewer } from '../tickets/use-ticket-list';

const NOTIFICATIONS_KEY = 'notifications';

export interface NotificationsData {
  /** The first page of each list, newest first. */
  tickets: PresentedTicket[];
  /** Every ticket that needs the user (both lists' whole sizes), plus the missed targets not seen yet. */
  count: number;
  /** Missed response-time targets the user hears of (issue 35), newest first. */
  breaches?: PresentedSlaBreach[];
  /** How many of `breaches` came after the bell was last opened (counted in `count`). */
  unseenBreaches?: number;
}

/** Live events come in bursts (a message updates its ticket too): at most one refetch per this delay. */
const REFRESH_DELAY_MS = 500;

/** How much of a message the live region reads out. */
const ANNOUNCED_TEXT_LENGTH = 200;

/** How many notified message ids are remembered, so a message announced again (a redelivery) rings once. */
const NOTIFIED_IDS_KEPT = 500;

/** Remembers `id`; answers whether it was new. */
function firstNotice(notified: Set<number>, id: number): boolean {
  if (notified.has(id)) return false;
  notified.add(id);
  if (notified.size > NOTIFIED_IDS_KEPT) {
    const oldest = notified.values().next();
    if (!oldest.done) notified.delete(oldest.value);
  }
  return true;
}

/**
 * What the top bar's bell shows (spec part 1 §2): the pending tickets the user
 * may see (every pending ticket with allTicket; the server's list rules decide)
 * and its open tickets with unread messages, newest first. Refetched on the
 * company's ticket and appMessage events; a customer's new message plays the
 * notification sound (volume setting) and, while the tab is hidden and the user
 * allowed it, shows a desktop notification that opens the ticket.
 */
export function useNotifications() {
  const api = useApi();
  const socket = useSocket();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { user } = useSession();
  const viewer = useTicketViewer();
  const companyId = user?.companyId;
  const location = useLocation();
  // Read by the socket handlers without re-subscribing on each navigation.
  const openUuid = useRef<string | undefined>(undefined);
  const announce = useAnnounce();
  const texts = useRef({ t, navigate, announce });
  // The server announces a message again when its provider redelivers it (it may never have reached us).
  const notified = useRef(new Set<number>());
  useEffect(() => {
    openUuid.current = /^\/tickets\/([^/]+)/.exec(location.pathname)?.[1];
    texts.current = { t, navigate, announce };
  }, [location.pathname, t, navigate, announce]);

  // The queues the tickets manager starts with (an admin's: every queue of the company), so the bell and the lists agree.
  const { queues, loading: queuesLoading } = useSelectableQueues();
  const queueIds = queues.map((queue) => queue.id);

  const query = useQuery({
    queryKey: [NOTIFICATIONS_KEY, user?.id, queueIds],
    enabled: Boolean(user) && !queuesLoading,
    queryFn: async (): Promise<NotificationsData> => {
      const pendingQuery = { status: 'pending', queueIds };
      const unreadQuery = { status: 'open', withUnreadMessages: true, queueIds };
      const [pending, unread] = await Promise.all([api.get<PresentedTicketPage>('/tickets', pendingQuery), api.get<PresentedTicketPage>('/tickets', unreadQuery)]);
      // A list on one page counts itself; only a longer one asks for its whole count.
      const countOf = async (page: PresentedTicketPage, query: Record<string, unknown>) =>
        page.hasMore ? (await api.get<{ count: number }>('/tickets/count', query)).count : page.tickets.length;
      const [pendingCount, unreadCount] = await Promise.all([countOf(pending, pendingQuery), countOf(unread, unreadQuery)]);
      const tickets = [...pending.tickets, ...unread.tickets].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
      return { tickets, count: pendingCount + unreadCount };
    },
  });

  useEffect(() => {
    if (!socket || !companyId || !viewer) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_KEY] });
      }, REFRESH_DELAY_MS);
    };
    const onAppMessage = (event: AppMessageEventPayload) => {
      refresh();
      const { ticket, message } = event;
      if (event.action !== 'create' || !ticket || !message || message.fromMe) return;
      const notify = shouldNotify(message, ticket, viewer, openUuid.current);
      // The open conversation's new message makes no sound (it is on screen) but is read out: a screen reader does not see it come.
      const onScreen = ticket.uuid === openUuid.current && ticket.status !== 'closed';
      if (!(notify || onScreen) || !firstNotice(notified.current, message.id)) return;
      const { t: translate, announce: say } = texts.current;
      say(translate(ticket.status === 'pending' ? 'app.newTicket' : 'app.newMessage', { name: ticket.contact.name, text: message.body.slice(0, ANNOUNCED_TEXT_LENGTH) }));
      if (!notify) return;
      playNotificationSound();
      showDesktopNotification(texts.current.t('notifications.desktopTitle', { name: ticket.contact.name }), message.body, ticket.uuid, (uuid) =>
        texts.current.navigate(`/tickets/${uuid}`),
      );
    };
    const onReconnect = () => {
      if (!socket.recovered) refresh();
    };
    const ticketChannel = companyEvent(companyId, 'ticket');
    const messageChannel = companyEvent(companyId, 'appMessage');
    socket.on(ticketChannel, refresh);
    socket.on(messageChannel, onAppMessage);
    socket.on('connect', onReconnect);
    return () => {
      if (timer) clearTimeout(timer);
      socket.off(ticketChannel, refresh);
      socket.off(messageChannel, onAppMessage);
      socket.off('connect', onReconnect);
    };
  }, [socket, companyId, viewer, queryClient]);

  const sla = useSlaBreaches();
  const count = (query.data?.count ?? 0) + sla.unseen;
  useEffect(() => {
    const name = t('notifications.appTitle');
    document.title = count > 0 ? `(${count}) ${name}` : name;
    // Signed out (the top bar gone): no stale count in the tab.
    return () => {
      document.title = name;
    };
  }, [count, t]);

  return { ...query, data: query.data ? { ...query.data, count, breaches: sla.breaches, unseenBreaches: sla.unseen } : undefined };
}

/** Whether this browser has the Notification API at all. */
export function desktopNotificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** A desktop notification, only while the tab is hidden and once the user allowed them. */
function showDesktopNotification(title: string, body: string, uuid: string, open: (uuid: string) => void): void {
  if (!desktopNotificationsSupported() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
  try {
    const notification = new Notification(title, { body: body.slice(0, 200), tag: `ticket-${uuid}` });
    notification.onclick = () => {
      window.focus();
      open(uuid);
      notification.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the bell and the title still tell.
  }
}
