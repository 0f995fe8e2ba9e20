import type { Platform } from '../../platform/platform.js';
import type { QueueRow } from '../../platform/db/schema.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentQueue } from './queues.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'queue.saved': { companyId: number; action: 'create' | 'update'; queue: QueueRow };
    'queue.deleted': { companyId: number; queueId: number };
  }
}

/** Spec part 2 §7: `company-{id}-queue` with create, update and delete, to the whole company (every user picks queues). */
export function subscribeQueueEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('queue.saved', ({ companyId, action, queue }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'queue', { action, queue: presentQueue(queue) });
  });
  events.on('queue.deleted', ({ companyId, queueId }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'queue', { action: 'delete', queueId });
  });
}
