import { z } from 'zod';
import { emailOrEmpty } from './desk-schemas.js';
import { contactNumber, contactNumberEdit } from './phone-schemas.js';
import { id, requiredText } from './validation.js';

/** Contact lists (spec part 2 §2.8, §3, §5, §7): the audiences of campaigns. */
export const ContactListBody = z.object({ name: requiredText(2, 50) });
export type ContactListBody = z.infer<typeof ContactListBody>;

const page = {
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
};

export const ContactListsQuery = z.object(page);
export type ContactListsQuery = z.infer<typeof ContactListsQuery>;

/** A list item: name 2 to 50, a valid phone number, optional valid email. */
export const ContactListItemBody = z.object({
  contactListId: id(),
  name: requiredText(2, 50),
  number: contactNumber(),
  email: emailOrEmpty().optional().default(''),
});
export type ContactListItemBody = z.infer<typeof ContactListItemBody>;

/** PUT: only the fields sent change; an item never moves to another list; the number is read against the stored one (`contactNumber({ keep })`). */
export const ContactListItemUpdateBody = z.object({
  name: requiredText(2, 50).optional(),
  number: contactNumberEdit().optional(),
  email: emailOrEmpty().optional(),
});
export type ContactListItemUpdateBody = z.infer<typeof ContactListItemUpdateBody>;

export const ContactListItemsQuery = z.object({ ...page, contactListId: z.coerce.number().int().positive() });
export type ContactListItemsQuery = z.infer<typeof ContactListItemsQuery>;

export const PresentedContactListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contactsCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedContactList = z.output<typeof PresentedContactListSchema>;

export const PresentedContactListItemSchema = z.object({
  id: z.number().int(),
  contactListId: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  isWhatsappValid: z.boolean().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedContactListItem = z.output<typeof PresentedContactListItemSchema>;

/** What an upload answers: rows kept, and each refused row with its line and why. */
export const ContactListUploadResultSchema = z.object({
  imported: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), name: z.string(), number: z.string(), message: z.string(), fields: z.record(z.string(), z.string()) })),
});
export type ContactListUploadResult = z.output<typeof ContactListUploadResultSchema>;
