import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { whaticketV6Events } from '../../platform/realtime/whaticket-v6.js';
import { presentQuickMessage, type QuickMessageRow } from './quick-messages.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'quickMessage.saved': { companyId: number; action: 'create' | 'update'; quickMessage: QuickMessageRow; previous?: QuickMessageRow };
    'quickMessage.deleted': { companyId: number; quickMessage: QuickMessageRow };
  }
}

/**
 * Who hears about a quick message: the whole company when it is `geral`,
 * otherwise only its owner and the admins (the same people who may see it).
 */
function audience(quickMessage: QuickMessageRow): string[] {
  const { companyId } = quickMessage;
  if (quickMessage.geral) return [rooms.company(companyId)];
  return [rooms.admins(companyId), ...(quickMessage.userId !== null ? [rooms.user(companyId, quickMessage.userId)] : [])];
}

export function subscribeQuickMessageEvents({ events, publisher, media }: Pick<Platform, 'events' | 'publisher' | 'media'>): void {
  events.on('quickMessage.saved', ({ companyId, action, quickMessage, previous }) => {
    // No longer for everyone: the others drop it first; owner and admins get the update right after.
    if (previous?.geral && !quickMessage.geral) removed(companyId, [rooms.company(companyId)], quickMessage.id);
    const presented = presentQuickMessage(quickMessage, media);
    publisher.toRooms(companyId, audience(quickMessage), 'quickMessage', { action, quickMessage: presented });
    publisher.broadcast(audience(quickMessage), whaticketV6Events.quickMessage(companyId), { action, record: presented, id: quickMessage.id });
  });
  events.on('quickMessage.deleted', ({ companyId, quickMessage }) => removed(companyId, audience(quickMessage), quickMessage.id));

  function removed(companyId: number, roomsToReach: string[], quickMessageId: number) {
    publisher.toRooms(companyId, roomsToReach, 'quickMessage', { action: 'delete', quickMessageId });
    publisher.broadcast(roomsToReach, whaticketV6Events.quickMessage(companyId), { action: 'delete', id: quickMessageId });
  }
}
