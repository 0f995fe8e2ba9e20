import type { SlaBreachEventPayload } from '@atende/shared';
import { rooms } from '../../platform/realtime/rooms.js';
import type { Platform } from '../../platform/platform.js';
import { presentSlaBreach } from './sla.presenter.js';
import type { BreachDetail } from './sla.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    /** A target missed, recorded once; `recipients`: the agent and the queue's admins. */
    'sla.breached': { companyId: number; breach: BreachDetail; recipients: number[] };
  }
}

/** A breach reaches its recipients' own rooms (`company-{id}-slaBreach`), whichever node recorded it. */
export function subscribeSlaEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('sla.breached', ({ companyId, breach, recipients }) => {
    if (recipients.length === 0) return;
    const payload: SlaBreachEventPayload = { action: 'create', breach: presentSlaBreach(breach) };
    publisher.toRooms(
      companyId,
      recipients.map((userId) => rooms.user(companyId, userId)),
      'slaBreach',
      payload,
    );
  });
}
