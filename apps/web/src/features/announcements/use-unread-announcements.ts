import { ANNOUNCEMENT_EVENT } from '@atende/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useSession } from '../../api/session';
import { useSocket } from '../../realtime/socket';

export const announcementKeys = {
  all: ['announcements'] as const,
  unread: ['announcements', 'unread'] as const,
  pages: ['announcements', 'page'] as const,
  page: (search: string) => ['announcements', 'page', search] as const,
  active: ['announcements', 'active'] as const,
};

/** Listens to `company-announcement` (platform-wide: every company's sockets hear it); the latest handler is called. */
export function useAnnouncementEvent<T>(handler: (payload: T) => void): void {
  const socket = useSocket();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: T) => latest.current(payload);
    socket.on(ANNOUNCEMENT_EVENT, listener);
    return () => {
      socket.off(ANNOUNCEMENT_EVENT, listener);
    };
  }, [socket]);
}

/** The top bar's count of announcements published since the user last opened its popover, live. */
export function useUnreadAnnouncements(): number {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const unread = useQuery({ queryKey: announcementKeys.unread, queryFn: () => api.get<{ count: number }>('/announcements/unread') });
  useAnnouncementEvent(useCallback(() => void queryClient.invalidateQueries({ queryKey: announcementKeys.all }), [queryClient]));
  return unread.data?.count ?? 0;
}
