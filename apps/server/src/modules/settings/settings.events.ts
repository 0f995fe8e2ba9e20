import type { AppServices } from '../../app.js';
import { rooms } from '../../platform/realtime/rooms.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'setting.updated': { companyId: number; setting: { key: string; value: string } };
  }
}

export function subscribeSettingEvents({ events, publisher }: AppServices): void {
  events.on('setting.updated', ({ companyId, setting }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'settings', { action: 'update', setting });
  });
}
