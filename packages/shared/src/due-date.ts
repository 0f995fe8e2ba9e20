/**
 * A company without an expiry. The spec's client compares `company.dueDate` with
 * today and treats null as expired, so "no expiry" is sent as this far date
 * (stored as such, or as null by older rows and a super user's explicit choice).
 */
export const NO_EXPIRY_DUE_DATE = '2999-12-31T00:00:00.000Z';

/** The due date as every response shows it: a date, never null. */
export function presentDueDate(dueDate: Date | null): string {
  return dueDate?.toISOString() ?? NO_EXPIRY_DUE_DATE;
}

/** Whether a presented due date is a real one (not "no expiry"), for screens that show it. */
export function hasDueDate(dueDate: string | null | undefined): dueDate is string {
  return Boolean(dueDate) && new Date(dueDate as string).getTime() < new Date(NO_EXPIRY_DUE_DATE).getTime();
}
