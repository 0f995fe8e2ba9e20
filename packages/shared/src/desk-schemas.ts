import { z } from 'zod';
import { flag, noneId } from './conventions.js';
import { email, id, isCalendarDate, isDateTime, requiredText } from './validation.js';

/**
 * Payloads of the service desk's side resources (spec part 1 §5, §7; part 2 §5):
 * contacts (the bodies that carry a number are in phone-schemas.ts), ticket
 * notes, tags and quick messages. One schema serves the server and the web forms.
 */

export const emailOrEmpty = () => z.union([z.literal(''), email()]);

/** A calendar day (yyyy-MM-dd); a full ISO timestamp is cut to its day; '' means absent. */
const day = () =>
  z
    .string()
    .trim()
    .refine((value) => isCalendarDate(value) || isDateTime(value), 'validation.invalidDate')
    .transform((value) => value.slice(0, 10))
    .optional()
    .or(z.literal('').transform(() => undefined));

export const ContactListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  /** Contacts created on this day, or between dateStart and dateEnd (inclusive), in the company's time zone. */
  date: day(),
  dateStart: day(),
  dateEnd: day(),
});
export type ContactListQuery = z.infer<typeof ContactListQuery>;

/**
 * One spreadsheet row as the web reads it from an .xlsx (spec: "array of
 * spreadsheet rows"). Column names are matched loosely (name/nome, number/numero).
 */
export const ContactUploadRow = z.record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));
export const CONTACT_UPLOAD_MAX_ROWS = 10_000;
export const ContactUploadBody = z.array(ContactUploadRow).max(CONTACT_UPLOAD_MAX_ROWS, 'validation.tooLong');
export type ContactUploadBody = z.infer<typeof ContactUploadBody>;

/** Internal note (spec part 1 §5): required, at least 2 characters. */
export const TicketNoteBody = z.object({
  note: requiredText(2, 5000),
  ticketId: id(),
  contactId: id(),
});
export type TicketNoteBody = z.infer<typeof TicketNoteBody>;
export const TicketNoteListQuery = z.object({ ticketId: id().optional(), contactId: id() });
export type TicketNoteListQuery = z.infer<typeof TicketNoteListQuery>;

/** Tag (spec part 2 §5): name required ('Obrigatório'), at least 3 characters ('Mensagem muito curta'). */
export const TAG_NAME_MIN = 3;
export const TagBody = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .min(TAG_NAME_MIN, 'validation.messageTooShort')
    .max(100, 'validation.tooLong'),
  color: z.string().trim().max(20, 'validation.tooLong').optional(),
  kanban: z.coerce.number().int().min(0).max(1).optional(),
  userId: noneId().optional(),
});
export type TagBody = z.infer<typeof TagBody>;
export const TagUpdateBody = TagBody.partial();
export type TagUpdateBody = z.infer<typeof TagUpdateBody>;
export const TagListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  /** Accepted for compatibility: the session decides the company. */
  companyId: z.string().max(20).optional(),
});
export type TagListQuery = z.infer<typeof TagListQuery>;
export const TagSyncBody = z.object({
  ticketId: id(),
  tags: z.array(z.object({ id: id() })).max(100),
});
export type TagSyncBody = z.infer<typeof TagSyncBody>;

/** Quick message (spec part 2 §2.5, §5): shortcode required. */
export const QuickMessageBody = z.object({
  shortcode: requiredText(1, 100),
  message: z.string().max(4096, 'validation.tooLong').optional().default(''),
  geral: flag().optional(),
  status: flag().optional(),
  /** Picked in the composer, the reply is put in the box to edit instead of being sent (whaticket v6). */
  editBeforeSend: flag().optional(),
});
export type QuickMessageBody = z.infer<typeof QuickMessageBody>;
/** PUT: only the fields sent change. */
export const QuickMessageUpdateBody = z.object({
  shortcode: requiredText(1, 100).optional(),
  message: z.string().max(4096, 'validation.tooLong').optional(),
  geral: flag().optional(),
  status: flag().optional(),
  editBeforeSend: flag().optional(),
});
export type QuickMessageUpdateBody = z.infer<typeof QuickMessageUpdateBody>;
export const QuickMessageListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  userId: z.string().max(20).optional(),
  companyId: z.string().max(20).optional(),
});
export type QuickMessageListQuery = z.infer<typeof QuickMessageListQuery>;
