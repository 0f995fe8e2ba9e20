import { CLIENT_EVENTS, companyEvent, SERVER_EVENTS, USER_STATUS_INTERVAL_MS, type AuthEventPayload, type RealtimeEntity } from '@atende/shared';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, startTransition, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type * as SocketIoClient from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { useSession } from '../api/session';
import { rememberSessionEnd, STORAGE } from '../api/storage-keys';
import { toastError } from '../components/toast';

const SocketContext = createContext<Socket | null>(null);

type SocketClient = typeof SocketIoClient;

/**
 * The Socket.IO client is not part of the app's first download: the first screen of
 * a visit without a session (the login page) has no use for it. A visit with a
 * stored session loads it once the signed-in frame has rendered (the provider's
 * effect), not before that first frame; the login page, once shown, loads it for the
 * session to come (`preloadSocketClient`).
 */
let socketClient: Promise<SocketClient> | null = null;
function loadSocketClient(): Promise<SocketClient> {
  socketClient ??= import('socket.io-client');
  return socketClient;
}

export function preloadSocketClient(): void {
  void loadSocketClient();
}

const JOIN_EVENTS = new Set<string>([CLIENT_EVENTS.joinChatBox, CLIENT_EVENTS.joinNotification, CLIENT_EVENTS.joinTickets]);
const LEAVES: Record<string, string> = {
  [CLIENT_EVENTS.leaveChatBox]: CLIENT_EVENTS.joinChatBox,
  [CLIENT_EVENTS.leaveNotification]: CLIENT_EVENTS.joinNotification,
  [CLIENT_EVENTS.leaveTickets]: CLIENT_EVENTS.joinTickets,
};

function tokenTimes(token: string | null): { issuedAt: number; expiresAt: number } | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const { exp, iat } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number; iat?: number };
    if (typeof exp !== 'number') return null;
    return { issuedAt: (typeof iat === 'number' ? iat : exp) * 1000, expiresAt: exp * 1000 };
  } catch {
    return null;
  }
}

function tokenExpired(token: string | null): boolean {
  const times = tokenTimes(token);
  return !times || times.expiresAt <= Date.now();
}

/**
 * When to refresh a token before it expires: the server ends a socket whose
 * token expired (unless it was sent a fresh one), so the app refreshes ahead,
 * a minute early or a quarter of the token's life for short-lived ones.
 */
export function refreshDelay(token: string | null, now = Date.now()): number | null {
  const times = tokenTimes(token);
  if (!times) return null;
  const lead = Math.min(60_000, (times.expiresAt - times.issuedAt) / 4);
  return Math.max(0, times.expiresAt - lead - now);
}

/**
 * Joins are remembered so that a reconnect without recovery (the server lost our
 * rooms) sends them again (spec part 1 §4). They are counted too: two screens may
 * join the same room (the ticket list and the top bar both join notifications),
 * and one leaving must not take the room from the other.
 */
export function trackJoins(socket: Socket): void {
  const joins = new Map<string, { args: unknown[]; count: number }>();
  const emit = socket.emit.bind(socket);
  socket.emit = ((event: string, ...args: unknown[]) => {
    const key = (name: string) => `${name}:${String(args[0] ?? '')}`;
    if (JOIN_EVENTS.has(event)) {
      const current = joins.get(key(event));
      // Acknowledgement callbacks are not replayed after a reconnect.
      joins.set(key(event), { args: [event, ...args.filter((arg) => typeof arg !== 'function')], count: (current?.count ?? 0) + 1 });
    }
    const joinOf = LEAVES[event];
    if (joinOf) {
      const current = joins.get(key(joinOf));
      if (current && current.count > 1) {
        current.count -= 1;
        return socket;
      }
      joins.delete(key(joinOf));
    }
    return emit(event, ...args);
  }) as Socket['emit'];
  socket.on('connect', () => {
    if (socket.recovered) return;
    for (const { args } of joins.values()) {
      const [event, ...rest] = args as [string, ...unknown[]];
      emit(event, ...rest);
    }
  });
}

/** One socket per (company, user), replaced when either changes. */
export function SocketProvider({ children }: { children: ReactNode }) {
  const { user, api, endSession } = useSession();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [socket, setSocket] = useState<Socket | null>(null);
  const companyId = user?.companyId;
  const userId = user?.id;

  useEffect(() => {
    if (!companyId || !userId) return;
    /** Opens the socket with the loaded client; answers how to close it. */
    const connect = (io: SocketClient['io']): (() => void) => {
      const next = io({ transports: ['websocket'], query: { token: localStorage.getItem(STORAGE.token) ?? '' } });
      trackJoins(next);
      let refreshTimer: ReturnType<typeof setTimeout> | undefined;

      /** Reconnects use the newest token; an open socket is sent it, or the server ends it at the old one's expiry. */
      const adoptToken = (token: string) => {
        next.io.opts.query = { token };
        if (next.connected) next.emit(CLIENT_EVENTS.updateToken, token);
        scheduleRefresh(token);
      };
      const scheduleRefresh = (token: string | null) => {
        clearTimeout(refreshTimer);
        const delay = refreshDelay(token);
        if (delay === null) return;
        refreshTimer = setTimeout(() => {
          // A failure is left to the socket's end (tokenExpired below) and to the next request.
          api.refresh().catch(() => {
            // Another tab may have refreshed the shared session meanwhile.
            const stored = localStorage.getItem(STORAGE.token);
            if (stored && stored !== token && !tokenExpired(stored)) adoptToken(stored);
          });
        }, delay);
      };
      const stopListening = api.onTokenRefreshed(adoptToken);
      scheduleRefresh(localStorage.getItem(STORAGE.token));

      /** Refresh, then connect again with the new token; a refused refresh ends the session. */
      const reconnectFresh = () => {
        api
          .refresh()
          .then((token) => {
            next.io.opts.query = { token };
            next.connect();
          })
          .catch(() => endSession());
      };
      let retryTimer: ReturnType<typeof setTimeout> | undefined;
      next.on('connect_error', (error: Error & { data?: { status?: number } }) => {
        if (error.message !== 'ERR_SESSION_EXPIRED') {
          // Refused for a passing reason (that node shutting down, its database down): socket.io does not
          // retry after a refusal, so we do, spread out so a restarted cluster is not hit all at once.
          if (!next.active) retryTimer = setTimeout(() => next.connect(), 1000 + Math.random() * 4000);
          return;
        }
        // Expired access token (403): refresh, then reconnect with the new one.
        if (error.data?.status === 403) reconnectFresh();
        else endSession();
      });
      next.on('disconnect', (reason) => {
        if (reason === 'transport close' || reason === 'transport error' || reason === 'ping timeout') {
          if (tokenExpired(localStorage.getItem(STORAGE.token))) window.location.reload();
        }
      });
      next.on(companyEvent(companyId, 'auth'), (event: AuthEventPayload) => {
        if (event.action === 'sessionEnded') {
          // The server closes this socket right after; only an expired token is worth a new one.
          if (event.reason === 'tokenExpired') reconnectFresh();
          else {
            toastError(new Error(t('session.ended')));
            rememberSessionEnd('ended');
            endSession();
          }
          return;
        }
        if (event.user.id !== userId) return;
        toastError(new Error(t('session.usedElsewhere')));
        localStorage.clear();
        // The login page the reload lands on says why, until dismissed.
        rememberSessionEnd('usedElsewhere');
        setTimeout(() => window.location.reload(), 1000);
      });
      const heartbeat = setInterval(() => next.emit(CLIENT_EVENTS.userStatus), USER_STATUS_INTERVAL_MS);
      // Consumers get the socket once the server has put it in its rooms (`ready`); their joins then go out at once.
      // A later `ready` means our rooms changed (rights changed, or a reconnect): what we show is reloaded.
      let readyBefore = false;
      next.on(SERVER_EVENTS.ready, () => {
        if (readyBefore) void queryClient.invalidateQueries();
        readyBefore = true;
        // Every listener of the app re-renders with the socket: as a transition, in slices, not one long task.
        startTransition(() => setSocket(next));
      });
      return () => {
        clearInterval(heartbeat);
        clearTimeout(refreshTimer);
        clearTimeout(retryTimer);
        stopListening();
        next.removeAllListeners();
        next.close();
      };
    };

    let closed = false;
    let close: (() => void) | undefined;
    void loadSocketClient().then(({ io }) => {
      if (!closed) close = connect(io);
    });
    return () => {
      closed = true;
      close?.();
      setSocket(null);
    };
  }, [companyId, userId, api, endSession, t, queryClient]);

  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

export function useSocket(): Socket | null {
  return useContext(SocketContext);
}

/**
 * Listens to `company-{companyId}-{entity}` while the component is mounted and
 * a socket is connected. The handler may change on every render: the listener
 * calls the latest one without re-subscribing.
 */
export function useCompanyEvent<T>(entity: RealtimeEntity, handler: (payload: T) => void): void {
  const socket = useSocket();
  const { user } = useSession();
  const companyId = user?.companyId;
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!socket || !companyId) return;
    const event = companyEvent(companyId, entity);
    const listener = (payload: T) => latest.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, companyId, entity]);
}
