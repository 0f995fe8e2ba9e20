import type { ContactRow } from '../../platform/db/schema.js';

export interface ExtraInfoDetail {
  id: number;
  name: string;
  value: string;
}

export interface ContactDetail extends ContactRow {
  extraInfo: ExtraInfoDetail[];
}

export function presentContact(contact: ContactDetail) {
  return {
    id: contact.id,
    name: contact.name,
    number: contact.number,
    email: contact.email,
    profilePicUrl: contact.profilePicUrl,
    isGroup: contact.isGroup,
    whatsappId: contact.whatsappId,
    extraInfo: contact.extraInfo,
    createdAt: contact.createdAt.toISOString(),
    updatedAt: contact.updatedAt.toISOString(),
  };
}
export type PresentedContact = ReturnType<typeof presentContact>;

/** The pickers' shape (`GET /contacts/list`). */
export function presentContactSummary(contact: Pick<ContactRow, 'id' | 'name' | 'number' | 'email'>) {
  return { id: contact.id, name: contact.name, number: contact.number, email: contact.email };
}

export interface ContactImportResult {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: {
    contactName: string;
    /** `fields`: per invalid column, the validation key (`validation.tooShort`, ...) a client translates. */
    error: { message: string; code: 'ERR_DUPLICATED_CONTACT' | 'ERR_VALIDATION' | 'ERR_WAPP_NOT_INITIALIZED'; fields?: Record<string, string> };
  }[];
}
