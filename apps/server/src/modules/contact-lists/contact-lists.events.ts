import type { ContactListItemRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { whaticketV6Events } from '../../platform/realtime/whaticket-v6.js';
import { listContactListItems } from './contact-lists.repo.js';
import { presentContactList, presentContactListItem } from './contact-lists.presenter.js';
import type { ContactListDetail } from './contact-lists.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'contactList.saved': { companyId: number; action: 'create' | 'update'; contactList: ContactListDetail };
    'contactList.deleted': { companyId: number; contactListId: number };
    'contactList.checking': { companyId: number; contactListId: number; total: number; unchecked: number };
    'contactListItem.saved': { companyId: number; action: 'create' | 'update'; item: ContactListItemRow };
    'contactListItem.deleted': { companyId: number; item: ContactListItemRow };
    /** Many items changed at once (an upload): clients reload the list's items. */
    'contactListItem.reload': { companyId: number; contactListId: number };
  }
}

/**
 * Realtime `company-{id}-ContactList` and `company-{id}-ContactListItem`
 * (create, update, delete; `reload` after an upload or a check; `checking`
 * with the WhatsApp check's progress) to the company's admins.
 */
export function subscribeContactListEvents({ events, publisher, db }: Pick<Platform, 'events' | 'publisher' | 'db'>): void {
  const to = (companyId: number) => [rooms.admins(companyId)];
  events.on('contactList.saved', ({ companyId, action, contactList }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactList', { action, record: presentContactList(contactList) });
  });
  events.on('contactList.deleted', ({ companyId, contactListId }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactList', { action: 'delete', id: contactListId });
  });
  events.on('contactList.checking', ({ companyId, contactListId, total, unchecked }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactList', { action: 'checking', id: contactListId, total, unchecked });
  });
  events.on('contactListItem.saved', ({ companyId, action, item }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactListItem', { action, record: presentContactListItem(item) });
  });
  events.on('contactListItem.deleted', ({ companyId, item }) => {
    publisher.toRooms(companyId, to(companyId), 'ContactListItem', { action: 'delete', id: item.id, contactListId: item.contactListId });
  });
  events.on('contactListItem.reload', async ({ companyId, contactListId }) => {
    // The whaticket v6 client merges `records` into the page it shows: its first page, fresh.
    const { contacts } = await listContactListItems(db, { companyId }, { contactListId, searchParam: '', pageNumber: 1 });
    const records = contacts.map(presentContactListItem);
    publisher.toRooms(companyId, to(companyId), 'ContactListItem', { action: 'reload', contactListId, records });
    publisher.broadcast(to(companyId), whaticketV6Events.contactListItems(companyId, contactListId), { action: 'reload', records });
  });
}
