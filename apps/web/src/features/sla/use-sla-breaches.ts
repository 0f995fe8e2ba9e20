import { companyEvent, type PresentedSlaBreach, type SlaBreachEventPayload } from '@atende/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi, useSession } from '../../api/session';
import { useAnnounce } from '../../components/live-announcer';
import { toastInfo } from '../../components/toast';
import { useSocket } from '../../realtime/socket';
import { playNotificationSound } from '../tickets/notification-sound';

const BREACHES_KEY = 'sla-breaches';

/** When the user last opened the bell: breaches after it are new (kept per user in this browser). */
const seenKey = (userId: number) => `atende.slaSeen.${userId}`;
const listeners = new Set<() => void>();

function readSeen(userId: number | undefined): string {
  if (userId === undefined) return '';
  try {
    return localStorage.getItem(seenKey(userId)) ?? '';
  } catch {
    return '';
  }
}

/** The bell was opened: every breach shown so far is seen. */
export function markSlaBreachesSeen(userId: number | undefined): void {
  if (userId === undefined) return;
  try {
    localStorage.setItem(seenKey(userId), new Date().toISOString());
  } catch {
    // Private mode without storage: the count stays until the page is reloaded.
  }
  for (const listener of listeners) listener();
}

/**
 * The response-time targets the user missed or must hear of (issue 35: its own tickets' and, for a queue's
 * admins, the queue's), last week's, newest first; `unseen` counts those after the bell was last opened. A
 * breach announced on the socket (`company-{id}-slaBreach`, sent once, to the agent and the queue's admins)
 * refreshes the list, rings and shows a toast.
 */
export function useSlaBreaches() {
  const api = useApi();
  const socket = useSocket();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { t } = useTranslation();
  const announce = useAnnounce();
  const texts = useRef({ t, announce });
  useEffect(() => {
    texts.current = { t, announce };
  }, [t, announce]);
  const companyId = user?.companyId;
  const query = useQuery({
    queryKey: [BREACHES_KEY, user?.id],
    enabled: Boolean(user),
    queryFn: async () => (await api.get<{ breaches: PresentedSlaBreach[] }>('/sla/breaches')).breaches,
  });
  const seen = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => readSeen(user?.id),
  );

  useEffect(() => {
    if (!socket || !companyId) return;
    const channel = companyEvent(companyId, 'slaBreach');
    const onBreach = ({ breach }: SlaBreachEventPayload) => {
      void queryClient.invalidateQueries({ queryKey: [BREACHES_KEY] });
      const text = texts.current.t('sla.bell.toast', { name: breach.contactName });
      playNotificationSound();
      toastInfo(text);
      texts.current.announce(text);
    };
    socket.on(channel, onBreach);
    return () => {
      socket.off(channel, onBreach);
    };
  }, [socket, companyId, queryClient]);

  const breaches = query.data ?? [];
  const unseen = breaches.filter((breach) => !seen || breach.breachedAt > seen).length;
  return { breaches, unseen };
}
