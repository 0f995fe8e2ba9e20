import { settingVisibility } from '@atende/shared';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    /** The setting as an admin is shown it: a secret's value is already masked. */
    'setting.updated': { companyId: number; setting: { key: string; value: string } };
  }
}

export function subscribeSettingEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('setting.updated', ({ companyId, setting }) => {
    // Only public settings reach every user; the others go to the company's admins.
    const room = settingVisibility(setting.key) === 'public' ? rooms.company(companyId) : rooms.admins(companyId);
    publisher.toRooms(companyId, [room], 'settings', { action: 'update', setting });
  });
}
