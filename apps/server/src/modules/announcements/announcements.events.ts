import { ANNOUNCEMENT_EVENT, type AnnouncementEventPayload } from '@atende/shared';
import type { AnnouncementRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentAnnouncement } from './announcements.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'announcement.saved': { action: 'create' | 'update'; announcement: AnnouncementRow };
    'announcement.deleted': { announcementId: number };
  }
}

/**
 * `company-announcement` (spec part 1 §7) goes to every socket of every company:
 * announcements are the platform's word to all its users. An inactive one is sent
 * as an update too (the super users' page shows it; the top bar drops it).
 */
export function subscribeAnnouncementEvents({ events, publisher, media }: Pick<Platform, 'events' | 'publisher' | 'media'>): void {
  const send = (payload: AnnouncementEventPayload) => publisher.broadcast([rooms.everyone()], ANNOUNCEMENT_EVENT, payload);
  events.on('announcement.saved', ({ action, announcement }) => send({ action, record: presentAnnouncement(announcement, media) }));
  events.on('announcement.deleted', ({ announcementId }) => send({ action: 'delete', id: announcementId }));
}
