import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentConnection, presentSession } from './connections.presenter.js';
import type { ConnectionDetail } from './connections.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'connection.saved': { companyId: number; connection: ConnectionDetail };
    'connection.deleted': { companyId: number; whatsappId: number };
    /** The session's status, QR code or number changed. */
    'connection.session': { companyId: number; connection: ConnectionDetail };
  }
}

/**
 * `company-{id}-whatsapp` (the connection without secrets or QR code) reaches
 * the whole company: every screen that names connections stays current.
 * `company-{id}-whatsappSession` carries the QR code, so only the company's
 * admins (who run the connections page) hear it.
 */
export function subscribeConnectionEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('connection.saved', ({ companyId, connection }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'whatsapp', { action: 'update', whatsapp: presentConnection(connection) });
  });
  events.on('connection.deleted', ({ companyId, whatsappId }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'whatsapp', { action: 'delete', whatsappId });
  });
  events.on('connection.session', ({ companyId, connection }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'whatsappSession', { action: 'update', session: presentSession(connection) });
    publisher.toRooms(companyId, [rooms.company(companyId)], 'whatsapp', { action: 'update', whatsapp: presentConnection(connection) });
  });
}
