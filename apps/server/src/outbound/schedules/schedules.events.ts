import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { whaticketV6Events } from '../../platform/realtime/whaticket-v6.js';
import { presentSchedule } from './schedules.presenter.js';
import type { ScheduleDetail } from './schedules.repo.js';
import { followScheduleSends, queueDueSchedules, type SchedulesDeps } from './schedules.service.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'schedule.saved': { companyId: number; action: 'create' | 'update'; schedule: ScheduleDetail };
    'schedule.deleted': { companyId: number; scheduleId: number };
  }
}

/**
 * Realtime `company-{id}-schedule` (create, update, delete) to the company, and the
 * sending hooks: every engine sweep queues the due schedules, and each settled
 * schedule send updates its schedule.
 */
export function subscribeScheduleEvents(deps: SchedulesDeps & Pick<Platform, 'publisher'>): void {
  const { events, publisher, media, outbound } = deps;
  outbound.onSweep(() => queueDueSchedules(deps));
  outbound.onSendSettled('schedule', (tx, settled) => followScheduleSends(deps, tx, settled));
  events.on('schedule.saved', ({ companyId, action, schedule }) => {
    send(companyId, { action, schedule: presentSchedule(schedule, media) });
  });
  events.on('schedule.deleted', ({ companyId, scheduleId }) => send(companyId, { action: 'delete', scheduleId }));

  /** The spec's event, and the same payload under the name the whaticket v6 client listens for. */
  function send(companyId: number, payload: unknown) {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'schedule', payload);
    publisher.broadcast([rooms.company(companyId)], whaticketV6Events.schedule(companyId), payload);
  }
}
