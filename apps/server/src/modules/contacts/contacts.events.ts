import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentContact, type ContactDetail } from './contacts.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'contact.saved': { companyId: number; action: 'create' | 'update'; contact: ContactDetail };
    'contact.deleted': { companyId: number; contactId: number };
  }
}

/** Contacts are company-wide: every user of the company hears `company-{id}-contact`. */
export function subscribeContactEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  events.on('contact.saved', ({ companyId, action, contact }) => {
    // A new contact is a 'create'; the web (and the spec's clients) upsert on either.
    publisher.toRooms(companyId, [rooms.company(companyId)], 'contact', { action, contact: presentContact(contact) });
  });
  events.on('contact.deleted', ({ companyId, contactId }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'contact', { action: 'delete', contactId });
  });
}
