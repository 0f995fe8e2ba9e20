import type { RealtimeEntity } from '@atende/shared';
import { companyEvent } from '@atende/shared';

/** What the publisher needs from Socket.IO (or a fake in unit tests). */
export interface RealtimeTransport {
  emit(roomsToReach: string[], event: string, payload: unknown): void;
  /** Resolves once what was emitted so far has left this process for the other nodes (see Publisher.delivered). */
  flush?(): Promise<void>;
  /** Resolves once what was emitted so far is written to this process's sockets. */
  sent?(): Promise<void>;
}

export interface Publisher {
  /** Sends `company-{id}-{entity}` to the given rooms (all of them company-scoped). */
  toRooms(companyId: number, roomsToReach: string[], entity: RealtimeEntity, payload: unknown): void;
  /** Raw event name, for the few platform-wide events (announcements). */
  broadcast(roomsToReach: string[], event: string, payload: unknown): void;
  /**
   * Resolves once the events published so far are out of this process: with Redis, in
   * the stream every node reads (a kill after this loses none of them). Whoever
   * acknowledges a provider's delivery waits for it, so a delivery answered is a
   * delivery announced. Without Redis the sockets are this process's own: a kill
   * ends them, and the web reloads what it shows when it connects again.
   */
  delivered(): Promise<void>;
  /**
   * Resolves once the events published so far are written to this node's sockets (they wait
   * for the next write round, `write-pacer.ts`). An answer a client reads together with the
   * events of its change waits for it, so the events arrive first, as whaticket v6's client
   * expects (its chat page keeps a new chat only if its `create` came before the answer).
   */
  sent(): Promise<void>;
}

export function createPublisher(transport: () => RealtimeTransport | null): Publisher {
  return {
    toRooms(companyId, roomsToReach, entity, payload) {
      transport()?.emit(roomsToReach, companyEvent(companyId, entity), payload);
    },
    broadcast(roomsToReach, event, payload) {
      transport()?.emit(roomsToReach, event, payload);
    },
    async delivered() {
      await transport()?.flush?.();
    },
    async sent() {
      await transport()?.sent?.();
    },
  };
}
