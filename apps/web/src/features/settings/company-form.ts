import { CompanyBody, hasDueDate, RECURRENCE_MONTHS, RECURRENCES, type CompanyUpdateBody, type Recurrence } from '@atende/shared';
import { z } from 'zod';
import type { Company } from './companies-queries';

/**
 * The shared request schema checks the dialog; a missing plan reads "required"
 * (not "not a number"), an empty password means "no first user" (a password
 * needs the email the first admin signs in with), and the due
 * date stays the date input's text until `companyPayload` turns it into a time.
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

const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyy-MM-dd` of a moment, in the browser's time zone (the date the user sees). */
export function toDateInput(value: string | Date | null | undefined): string {
  // "No expiry" comes as a far-future date (the spec's client reads null as expired): the dialog shows it empty.
  if (!value || (typeof value === 'string' && !hasDueDate(value))) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A date input's `yyyy-MM-dd` as a local date, or null when empty or not a real date. */
export function parseDateInput(value: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return { year, month, day };
}

/**
 * The due date to send: null when empty or invalid (spec part 2 §5). An
 * unchanged date keeps its stored moment; a new date keeps the stored time of
 * day (renewals move whole months), or the end of that day when there was none,
 * so "active until 10/06" holds through the 10th.
 */
export function dueDatePayload(input: string, stored: string | null | undefined): string | null {
  const parsed = parseDateInput(input);
  if (!parsed) return null;
  if (stored && toDateInput(stored) === input.trim()) return stored;
  const previous = stored ? new Date(stored) : null;
  const time = previous && !Number.isNaN(previous.getTime()) ? [previous.getHours(), previous.getMinutes(), previous.getSeconds(), previous.getMilliseconds()] : [23, 59, 59, 999];
  const [h = 0, m = 0, s = 0, ms = 0] = time;
  return new Date(parsed.year, parsed.month - 1, parsed.day, h, m, s, ms).toISOString();
}

/**
 * Renewal (spec part 2 §4): the due date moves forward by the recurrence's
 * months, from the current due date or from today when there is none. A day the
 * target month lacks becomes its last day (31 Jan + 1 month = 28/29 Feb).
 */
export function renewDueDate(input: string, recurrence: string, today: Date): string {
  const months = (RECURRENCE_MONTHS as Record<string, number>)[recurrence] ?? RECURRENCE_MONTHS.MENSAL;
  const base = parseDateInput(input) ?? { year: today.getFullYear(), month: today.getMonth() + 1, day: today.getDate() };
  const target = new Date(base.year, base.month - 1 + months, 1);
  const lastDay = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate();
  return toDateInput(new Date(target.getFullYear(), target.getMonth(), Math.min(base.day, lastDay)));
}

/** Whole calendar days from today to the due date (negative once past), in the browser's time zone. */
export function daysUntilDue(dueDate: string, now: Date): number {
  const due = new Date(dueDate);
  const start = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const end = Date.UTC(due.getFullYear(), due.getMonth(), due.getDate());
  return Math.round((end - start) / 86_400_000);
}

export type DueColour = 'yellow' | 'orange' | 'red';

/** Row colour by days to the due date (spec part 2 §9): exactly 5 yellow, -3 to 4 orange, exactly -4 red. */
export function dueColour(dueDate: string | null, now: Date): DueColour | null {
  if (!dueDate || Number.isNaN(new Date(dueDate).getTime())) return null;
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
  const body: CompanyUpdateBody = { ...rest, dueDate: dueDatePayload(dueDate, company?.dueDate) };
  if (!company && password) body.password = password;
  return body;
}
