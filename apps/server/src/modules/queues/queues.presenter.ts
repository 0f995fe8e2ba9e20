import { presentSchedules, type PresentedQueue } from '@atende/shared';
import type { QueueRow } from '../../platform/db/schema.js';

export function presentQueue(queue: QueueRow): PresentedQueue {
  return {
    id: queue.id,
    name: queue.name,
    color: queue.color,
    orderQueue: queue.orderQueue,
    greetingMessage: queue.greetingMessage,
    outOfHoursMessage: queue.outOfHoursMessage,
    ratingMessage: queue.ratingMessage,
    integrationId: queue.integrationId,
    promptId: queue.promptId,
    schedules: presentSchedules(queue.schedules),
    mediaPath: queue.mediaPath !== null ? queue.mediaName : null,
    mediaName: queue.mediaPath !== null ? queue.mediaName : null,
    autoAssign: queue.autoAssign,
    defaultMaxOpenTickets: queue.defaultMaxOpenTickets,
    slaFirstResponseMinutes: queue.slaFirstResponseMinutes,
    slaResolutionMinutes: queue.slaResolutionMinutes,
    slaWarnPercent: queue.slaWarnPercent,
    companyId: queue.companyId,
    createdAt: queue.createdAt.toISOString(),
    updatedAt: queue.updatedAt.toISOString(),
  };
}
