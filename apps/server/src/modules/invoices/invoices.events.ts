import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';

/** `company-{id}-payment` with action CONCLUIDA (spec part 2 §7) reaches the company's admins (their billing room, kept while overdue). */
export function subscribeInvoiceEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('payment.concluded', ({ companyId, payload }) => {
    publisher.toRooms(companyId, [rooms.billing(companyId)], 'payment', payload);
  });
}
