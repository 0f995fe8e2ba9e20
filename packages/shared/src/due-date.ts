import { dayIn, isCalendarDateText } from './calendar-date.js';

/**
 * A company without an expiry. The spec's client compares `company.dueDate` with
 * today and treats null as expired, so "no expiry" is sent as this far date
 * (stored as such, or as null by older rows and a super user's explicit choice).
 */
export const NO_EXPIRY_DUE_DATE = '2999-12-31';

/** The due date as every response shows it: a calendar date (`YYYY-MM-DD`), never null. */
export function presentDueDate(dueDate: string | null): string {
  return dueDate ?? NO_EXPIRY_DUE_DATE;
}

/** Whether a presented due date is a real one (not "no expiry"), for screens that show it. */
export function hasDueDate(dueDate: string | null | undefined): dueDate is string {
  return typeof dueDate === 'string' && /^\d{4}-\d{2}-\d{2}/.test(dueDate) && dueDate.slice(0, 10) < NO_EXPIRY_DUE_DATE;
}

/**
 * The calendar date a due date sent to the API names (DECISIONS 15). `YYYY-MM-DD`
 * is that day. An instant at exactly midnight UTC is a date written as an instant
 * (`new Date('2026-11-01')` in a client), so it is that UTC date; any other instant
 * is the day it falls on in the company's zone.
 */
export function dueDateDay(value: string, timeZone: string): string {
  if (isCalendarDateText(value)) return value;
  const instant = new Date(value);
  const iso = instant.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : dayIn(instant, timeZone);
}
