import {
  companyEvent,
  type ConnectionEventPayload,
  type ConnectionSessionEventPayload,
  type PresentedConnection,
  type PresentedConnectionDetail,
  type PresentedConnectionSession,
} from '@atende/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { HttpClient } from '../../api/http-client';
import { useSession } from '../../api/session';
import { useSocket } from '../../realtime/socket';

export const connectionsKey = ['connections'] as const;
/** The side menu's warning dot reads this query (`app/layout/side-menu.tsx`). */
const connectionsAlertKey = ['connections-alert'] as const;
/** One connection with its session detail (the QR code), read by the QR dialog. */
export const connectionSessionKey = (id: number) => ['connection-session', id] as const;

/** Spec part 1 §7: `GET /whatsapp` with session 0 answers connections without session detail. */
export function connectionsQuery(api: HttpClient) {
  return { queryKey: connectionsKey, queryFn: () => api.get<PresentedConnectionDetail[]>('/whatsapp', { session: 0 }) };
}

export function useConnections() {
  const { api } = useSession();
  return useQuery(connectionsQuery(api));
}

export function isSandbox(connection: Pick<PresentedConnection, 'provider'>): boolean {
  return connection.provider === 'sandbox';
}

function byName(a: PresentedConnection, b: PresentedConnection): number {
  return a.name.localeCompare(b.name) || a.id - b.id;
}

/**
 * Applies a live change to the cached list. Updates MERGE into the cached row:
 * the company-wide event leaves out what only admins may see (`token`,
 * `cloudApi`, `qrcode`), and an admin's row must keep them.
 */
export function applyConnectionEvent<T extends PresentedConnection>(list: readonly T[], event: { action: 'update'; whatsapp: Partial<T> & PresentedConnection } | { action: 'delete'; whatsappId: number }): T[] {
  if (event.action === 'delete') return list.filter((c) => c.id !== event.whatsappId);
  const updated = event.whatsapp;
  // A new default demotes the others: the server only sends the one that changed.
  const others = updated.isDefault ? list.map((c) => (c.isDefault && c.id !== updated.id ? { ...c, isDefault: false } : c)) : [...list];
  const index = others.findIndex((c) => c.id === updated.id);
  if (index === -1) return [...others, updated as T].sort(byName);
  others[index] = { ...others[index], ...updated } as T;
  return others;
}

/** A session event changes only the session's fields of a known connection. */
export function applySessionEvent<T extends PresentedConnection & { qrcode?: string }>(list: readonly T[], session: PresentedConnectionSession): T[] {
  const { status, qrcode, retries, number, updatedAt } = session;
  return list.map((c) => (c.id === session.id ? { ...c, status, qrcode, retries, number, updatedAt } : c));
}

function onWhatsappEvent(queryClient: QueryClient, event: ConnectionEventPayload): void {
  queryClient.setQueryData<PresentedConnectionDetail[]>(connectionsKey, (list) => (list ? applyConnectionEvent(list, event) : list));
  // Deleting the default promotes another connection, which no event announces.
  if (event.action === 'delete') void queryClient.invalidateQueries({ queryKey: connectionsKey });
}

function onSessionEvent(queryClient: QueryClient, event: ConnectionSessionEventPayload): void {
  queryClient.setQueryData<PresentedConnectionDetail[]>(connectionsKey, (list) => (list ? applySessionEvent(list, event.session) : list));
  queryClient.setQueryData<PresentedConnectionDetail>(connectionSessionKey(event.session.id), (current) => (current ? { ...current, ...event.session } : current));
}

/**
 * Keeps the cached connections live: `company-{id}-whatsapp` (everyone) and
 * `company-{id}-whatsappSession` (admins: status and QR code).
 */
export function useConnectionEvents(): void {
  const socket = useSocket();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const companyId = user?.companyId;
  useEffect(() => {
    if (!socket || !companyId) return;
    const whatsapp = companyEvent(companyId, 'whatsapp');
    const session = companyEvent(companyId, 'whatsappSession');
    const onWhatsapp = (payload: ConnectionEventPayload) => onWhatsappEvent(queryClient, payload);
    const onSession = (payload: ConnectionSessionEventPayload) => onSessionEvent(queryClient, payload);
    socket.on(whatsapp, onWhatsapp);
    socket.on(session, onSession);
    return () => {
      socket.off(whatsapp, onWhatsapp);
      socket.off(session, onSession);
    };
  }, [socket, companyId, queryClient]);
}

/** After a change made here: the side menu's warning dot may have to appear or go. */
export function refreshConnectionAlert(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: connectionsAlertKey });
}
