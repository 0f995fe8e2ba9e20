import type { QueueIntegrationRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentIntegration } from './integrations.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'integration.saved': { companyId: number; action: 'create' | 'update'; integration: QueueIntegrationRow };
    'integration.deleted': { companyId: number; integrationId: number };
  }
}

/** Spec part 2 §7: `company-{id}-queueIntegration`, to the company's admins (an admin page). */
export function subscribeIntegrationEvents({ events, publisher, secrets }: Pick<Platform, 'events' | 'publisher' | 'secrets'>): void {
  events.on('integration.saved', ({ companyId, action, integration }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'queueIntegration', { action, queueIntegration: presentIntegration(integration, secrets) });
  });
  events.on('integration.deleted', ({ companyId, integrationId }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'queueIntegration', { action: 'delete', integrationId });
  });
}
