import type { PresentedContactList, PresentedContactListItem } from '@atende/shared';
import type { ContactListItemRow } from '../../platform/db/schema.js';
import type { ContactListDetail } from './contact-lists.repo.js';

export function presentContactList(row: ContactListDetail): PresentedContactList {
  return { id: row.id, name: row.name, contactsCount: row.contactsCount, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function presentContactListItem(row: ContactListItemRow): PresentedContactListItem {
  return {
    id: row.id,
    contactListId: row.contactListId,
    companyId: row.companyId,
    name: row.name,
    number: row.number,
    email: row.email,
    isWhatsappValid: row.isWhatsappValid,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
