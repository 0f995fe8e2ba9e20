import type { ContactImportResult, PresentedContact, PresentedContactSummary } from '@atende/shared';
import type { ContactRow } from '../../platform/db/schema.js';

export interface ExtraInfoDetail {
  id: number;
  name: string;
  value: string;
}

export interface ContactDetail extends ContactRow {
  extraInfo: ExtraInfoDetail[];
}

export function presentContact(contact: ContactDetail): PresentedContact {
  return {
    id: contact.id,
    name: contact.name,
    number: contact.number,
    email: contact.email,
    profilePicUrl: contact.profilePicUrl,
    isGroup: contact.isGroup,
    whatsappId: contact.whatsappId,
    extraInfo: contact.extraInfo,
    birthday: contact.birthday,
    disableBot: contact.disableBot,
    active: contact.active,
    createdAt: contact.createdAt.toISOString(),
    updatedAt: contact.updatedAt.toISOString(),
  };
}

/** The pickers' shape (`GET /contacts/list`). */
export function presentContactSummary(contact: Pick<ContactRow, 'id' | 'name' | 'number' | 'email'>): PresentedContactSummary {
  return { id: contact.id, name: contact.name, number: contact.number, email: contact.email };
}

export type { ContactImportResult };
