import { z } from 'zod';
import { emailOrEmpty } from './desk-schemas.js';
import { isStoredNumber, normalizePhoneNumber, PHONE_NUMBER_MESSAGES } from './phone-number.js';
import { flag } from './conventions.js';
import { calendarDate, id, requiredText } from './validation.js';

/**
 * The payloads that carry a WhatsApp number someone typed (contacts, the
 * external API; contact-list items in contact-list-schemas.ts): each goes through
 * the one normaliser, phone-number.ts. Apart from desk-schemas.ts so that the
 * web's pages that read no number (tags, quick messages, connections, the
 * desk until a contact is edited) do not load the library's metadata (~50 kB
 * gzipped).
 */

/**
 * A contact's WhatsApp number as it is stored: what `normalizePhoneNumber` makes
 * of the text ('(11) 91234-0002' → 5511912340002), or the reason it cannot as
 * the field's message. `keep` is the number already stored: sent back unchanged
 * (an edit screen sends the whole record) it stays as it is, so a group's id or
 * a number stored before the rule can still be edited around.
 */
export const contactNumber = (options: { keep?: string } = {}) =>
  z.string({ error: 'validation.required' }).transform((value, ctx) => {
    if (options.keep !== undefined && isStoredNumber(value, options.keep)) return options.keep;
    const result = normalizePhoneNumber(value);
    if (result.ok) return result.number;
    ctx.addIssue({ code: 'custom', message: PHONE_NUMBER_MESSAGES[result.reason] });
    return z.NEVER;
  });

/**
 * The number field of an edit, as it came: the service reads it with
 * `contactNumber({ keep })` once it knows the stored number.
 */
export const contactNumberEdit = () => z.string({ error: 'validation.required' }).trim().max(60, 'validation.tooLong');

export const ExtraInfoEntry = z.object({
  id: id().optional(),
  name: requiredText(1, 100),
  value: z.string().trim().max(500, 'validation.tooLong').default(''),
});

/** Contact modal and drawer form: name 2–50, a valid phone number, email valid. */
/** A contact's birthday: a calendar date from 1900 on; `""` or null for none (whaticket v6 sends `""`). */
const birthday = () => z.union([z.literal('').transform(() => null), z.null(), calendarDate().refine((day) => day >= '1900-01-01', 'validation.invalidDate')]);

/** Fields whaticket v6's contact form sends (`birthday`, `disableBot`, `active`); absent ones keep their value. */
const contactFlags = {
  birthday: birthday().optional(),
  disableBot: flag().optional(),
  active: flag().optional(),
};

export const ContactBody = z.object({
  name: requiredText(2, 50),
  number: contactNumber(),
  email: emailOrEmpty().optional().default(''),
  extraInfo: z.array(ExtraInfoEntry).max(50).optional(),
  ...contactFlags,
});
export type ContactBody = z.infer<typeof ContactBody>;
/**
 * PUT: only the fields sent change (no defaults here: an absent email must not
 * wipe the stored one); `extraInfo`, when sent, replaces the whole list.
 */
export const ContactUpdateBody = z.object({
  name: requiredText(2, 50).optional(),
  number: contactNumberEdit().optional(),
  email: emailOrEmpty().optional(),
  extraInfo: z.array(ExtraInfoEntry).max(50).optional(),
  ...contactFlags,
});
export type ContactUpdateBody = z.infer<typeof ContactUpdateBody>;

/** External API (spec part 2 §7): JSON `{number, body}`; multipart adds `medias`. The number goes through the one normaliser, like a contact's. */
export const ExternalSendBody = z.object({
  number: contactNumber(),
  body: z.string().max(4096, 'validation.tooLong').default(''),
});
export type ExternalSendBody = z.infer<typeof ExternalSendBody>;
