import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { whaticketV6Events } from '../../platform/realtime/whaticket-v6.js';
import { presentTag, type TagDetail } from './tags.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'tag.saved': { companyId: number; action: 'create' | 'update'; tag: TagDetail };
    'tag.deleted': { companyId: number; tagId: number };
  }
}

/** Tags are shared by the whole company: `company-{id}-tag` to the company room. */
export function subscribeTagEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('tag.saved', ({ companyId, action, tag }) => {
    const presented = presentTag(tag);
    publisher.toRooms(companyId, [rooms.company(companyId)], 'tag', { action, tag: presented });
    publisher.broadcast([rooms.company(companyId)], whaticketV6Events.tag(), { action, tags: presented, tagId: tag.id });
  });
  events.on('tag.deleted', ({ companyId, tagId }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'tag', { action: 'delete', tagId });
    publisher.broadcast([rooms.company(companyId)], whaticketV6Events.tag(), { action: 'delete', tagId });
  });
}
