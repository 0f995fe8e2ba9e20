import { addToCalendarDate, CompanyBody, daysBetween, hasDueDate, isCalendarDate, RECURRENCE_MONTHS, RECURRENCES, type CompanyUpdateBody, type Recurrence } from '@atende/shared';
import { calendarDay, displayTimeZone, today } from '../../i18n/dates';
import { z } from 'zod';
import type { Company } from './companies-queries';

/**
 * The shared request schema checks the dialog; a missing plan reads "required"
 * (not "not a number"), an empty password means "no first user" (a password
 * needs the email the first admin signs in with), and the due
 * date stays the date input's text, which `companyPayload` sends as it is.
 */
export const CompanyFormSchema = CompanyBody.extend({
  planId: z.preprocess((value) => (value === '' ? undefined : value), z.number({ error: 'validation.required' }).int().positive('validation.required')),
  dueDate: z.string(),
  password: z.union([z.literal(''), z.string().min(5, 'validation.tooShort').max(50, 'validation.tooLong')]),
  recurrence: z.enum(RECURRENCES, { error: 'validation.invalidValue' }),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
}).superRefine((values, ctx) => {
  // The first admin signs in with the company's email.
  if (values.password && !values.email) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.required' });
});
/**
 * What the company dialog's inputs hold: planId a number ('' = none chosen),
 * dueDate the date input's `yyyy-MM-dd` ('' = none), password '' = no first user.
 */
export type CompanyFormValues = z.input<typeof CompanyFormSchema>;
export type CompanyFormOutput = z.output<typeof CompanyFormSchema>;

/** The dropdown offers only MENSAL (spec part 2 §9); a company already on another recurrence keeps it listed. */
export function recurrenceChoices(current?: string): Recurrence[] {
  const offered: Recurrence[] = ['MENSAL'];
  if (current && current !== 'MENSAL' && Object.hasOwn(RECURRENCE_MONTHS, current)) offered.push(current as Recurrence);
  return offered;
}

/** The date input's `yyyy-MM-dd` of a due date: a calendar date as it is (an older instant: its day in the company's zone). */
export function toDateInput(value: string | null | undefined): string {
  // "No expiry" comes as a far-future date (the spec's client reads null as expired): the dialog shows it empty.
  if (!value || !hasDueDate(value)) return '';
  return calendarDay(value);
}

/** A date input's `yyyy-MM-dd`, or null when empty or not a real date. */
export function parseDateInput(value: string): string | null {
  const text = value.trim();
  return isCalendarDate(text) ? text : null;
}

/**
 * The due date to send: the calendar date typed (DECISIONS 15: a day, the same in
 * every zone; the company works through it), or null when empty or invalid (spec part 2 §5).
 */
export function dueDatePayload(input: string): string | null {
  return parseDateInput(input);
}

/**
 * Renewal (spec part 2 §4): the due date moves forward by the recurrence's
 * months, from the current due date or from the company's today when there is none.
 * A day the target month lacks becomes its last day (31 Jan + 1 month = 28/29 Feb).
 */
export function renewDueDate(input: string, recurrence: string, today: string): string {
  const months = (RECURRENCE_MONTHS as Record<string, number>)[recurrence] ?? RECURRENCE_MONTHS.MENSAL;
  return addToCalendarDate(parseDateInput(input) ?? today, { months });
}

/** Whole calendar days from the company's today to the due date (negative once past). */
export function daysUntilDue(dueDate: string, now: Date): number {
  return daysBetween(today(displayTimeZone(), now), calendarDay(dueDate));
}

export type DueColour = 'yellow' | 'orange' | 'red';

/** Row colour by days to the due date (spec part 2 §9): exactly 5 yellow, -3 to 4 orange, exactly -4 red. */
export function dueColour(dueDate: string | null, now: Date): DueColour | null {
  if (!dueDate || !calendarDay(dueDate)) return null;
  const days = daysUntilDue(dueDate, now);
  if (days === 5) return 'yellow';
  if (days >= -3 && days <= 4) return 'orange';
  if (days === -4) return 'red';
  return null;
}

/** The dialog's starting values: a new company (active, campaigns on, monthly) or the one being edited. */
export function companyFormDefaults(company: Company | null, firstPlanId?: number): CompanyFormValues {
  return {
    name: company?.name ?? '',
    email: company?.email ?? '',
    phone: company?.phone ?? '',
    planId: company?.planId ?? firstPlanId ?? '',
    status: company?.status ?? true,
    campaignsEnabled: company?.campaignsEnabled ?? true,
    dueDate: toDateInput(company?.dueDate),
    recurrence: company && Object.hasOwn(RECURRENCE_MONTHS, company.recurrence) ? (company.recurrence as Recurrence) : 'MENSAL',
    password: '',
  };
}

/** `POST /companies` / `PUT /companies/:id` body from the validated form. */
export function companyPayload(values: CompanyFormOutput, company: Company | null): CompanyUpdateBody {
  const { password, dueDate, ...rest } = values;
  const body: CompanyUpdateBody = { ...rest, dueDate: dueDatePayload(dueDate) };
  if (!company && password) body.password = password;
  return body;
}
