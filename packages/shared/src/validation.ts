import { z } from 'zod';

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

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `yyyy-MM-dd` naming a real day of the years 0001 to 9999 (no 2026-02-30, no month 13, no year 0000). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

/** An ISO date-time (`T` or a space; seconds, fraction and offset optional) on a real calendar day, with a real time. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  return match !== null && isCalendarDate(match[1]!);
}

/** A real calendar day, `yyyy-MM-dd`. */
export const calendarDate = () => z.string().trim().refine(isCalendarDate, 'validation.invalidDate');

/** A real ISO date-time (see `isDateTime`). */
export const dateTime = () => z.string().trim().refine(isDateTime, 'validation.invalidDate');

/**
 * An IANA time zone name (`America/Sao_Paulo`, `UTC`) the runtime knows. Offsets
 * such as `+03:00` are refused: PostgreSQL reads them with the POSIX sign, the
 * opposite of ISO.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = () => z.string().trim().refine(isTimeZone, 'validation.invalidTimeZone');
