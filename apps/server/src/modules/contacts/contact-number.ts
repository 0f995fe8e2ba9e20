import { contactNumber, validationText } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';

/**
 * The number an edit sent, as it will be stored: the stored one when it came
 * back unchanged (a group's id, a number stored before the normaliser), else the
 * normaliser's; a number it cannot make valid is 400 naming the field, like the
 * create's schema. Contacts and contact-list items both edit numbers this way.
 */
export function editedNumber(input: string | undefined, stored: string): string | undefined {
  if (input === undefined) return undefined;
  const parsed = contactNumber({ keep: stored }).safeParse(input);
  if (parsed.success) return parsed.data;
  throw new AppError('ERR_VALIDATION', undefined, { message: 'Invalid body', fields: { number: parsed.error.issues.map((issue) => validationText(issue.message)) } });
}
