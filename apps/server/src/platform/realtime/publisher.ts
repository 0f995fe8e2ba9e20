import type { RealtimeEntity } from '@atende/shared';
import { companyEvent } from '@atende/shared';

/** What the publisher needs from Socket.IO (or a fake in unit tests). */
export interface RealtimeTransport {
  emit(roomsToReach: string[], event: string, payload: unknown): void;
}

export interface Publisher {
  /** Sends `company-{id}-{entity}` to the given rooms (all of them company-scoped). */
  toRooms(companyId: number, roomsToReach: string[], entity: RealtimeEntity, payload: unknown): void;
  /** Raw event name, for the few platform-wide events (announcements). */
  broadcast(roomsToReach: string[], event: string, payload: unknown): void;
}

export function createPublisher(transport: () => RealtimeTransport | null): Publisher {
  return {
    toRooms(companyId, roomsToReach, entity, payload) {
      transport()?.emit(roomsToReach, companyEvent(companyId, entity), payload);
    },
    broadcast(roomsToReach, event, payload) {
      transport()?.emit(roomsToReach, event, payload);
    },
  };
}
