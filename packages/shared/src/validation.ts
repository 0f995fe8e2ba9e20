import { z } from 'zod';

/**
 * Validation messages are translation keys, so one schema serves the server (which
 * answers the English text) and the web (which shows the user's language).
 */
export const VALIDATION_MESSAGES = {
  'validation.required': 'Required',
  'validation.tooShort': 'Too Short!',
  'validation.tooLong': 'Too Long!',
  'validation.invalidEmail': 'Invalid email',
  'validation.invalidNumber': 'Must be a number',
  'validation.invalidValue': 'Invalid value',
  'validation.invalidTime': 'Use the format HH:mm',
  'validation.invalidDate': 'Invalid date',
} as const;
export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;

export function validationText(key: string): string {
  return (VALIDATION_MESSAGES as Record<string, string>)[key] ?? key;
}

export const requiredText = (min: number, max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .min(min, 'validation.tooShort')
    .max(max, 'validation.tooLong');

export const email = () =>
  z.string({ error: 'validation.required' }).trim().toLowerCase().min(1, 'validation.required').max(254, 'validation.tooLong').pipe(z.email('validation.invalidEmail'));

/** A record id, as a number or a digit string; `true` or `[5]` are not ids (coercion would read them as 1 and 5). */
export const id = () =>
  z.preprocess(
    (value) => (typeof value === 'number' || typeof value === 'string' ? value : Number.NaN),
    z.coerce.number({ error: 'validation.invalidNumber' }).int('validation.invalidNumber').positive('validation.invalidNumber').max(2_147_483_647, 'validation.invalidNumber'),
  );

export const IdParams = z.object({ id: id() });

export const PageQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

export const time = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'validation.invalidTime');
