import type { AuthEventPayload, AuthEventUser } from '@atende/shared';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'auth.loggedIn': { companyId: number; user: AuthEventUser };
  }
}

/** Only that user's own sockets hear that the account was used elsewhere. */
export function subscribeAuthEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('auth.loggedIn', ({ companyId, user }) => {
    const payload: AuthEventPayload = { action: 'update', user };
    publisher.toRooms(companyId, [rooms.user(companyId, user.id)], 'auth', payload);
  });
}
