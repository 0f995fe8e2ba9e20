import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentUser, type UserDetail } from './users.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'user.saved': { companyId: number; action: 'create' | 'update'; user: UserDetail };
    'user.deleted': { companyId: number; userId: number };
  }
}

export function subscribeUserEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  // The users service tells `access` of rights changes (cached sessions and sockets follow).
  events.on('user.saved', ({ companyId, action, user }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'user', { action, user: presentUser(user) });
  });
  events.on('user.deleted', ({ companyId, userId }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'user', { action: 'delete', userId });
  });
}
