import { addToCalendarDate, hasDueDate, startOfDayIn, type PresentedUser } from '@atende/shared';
import { calendarDay, displayTimeZone, today } from '../i18n/dates';

/**
 * A signed-in company past its due date (the server's `isCompanyExpired`): only
 * its admins have a session, signed in to pay, and every route but the billing
 * ones answers 402. Super users are never held back.
 */
export function isOverdue(user: PresentedUser | null | undefined, now = new Date()): boolean {
  const dueDate = user?.company?.dueDate;
  if (!user || user.super || !hasDueDate(dueDate)) return false;
  // Its due day is over in the company's zone (DECISIONS 15).
  return calendarDay(dueDate) < today(user.company?.timezone || displayTimeZone(), now);
}

/** When the session's company stops working: the start of the day after its due date, in its zone. */
export function overdueFrom(user: PresentedUser | null | undefined): Date | null {
  const dueDate = user?.company?.dueDate;
  if (!user || user.super || !hasDueDate(dueDate)) return null;
  return startOfDayIn(addToCalendarDate(calendarDay(dueDate), { days: 1 }), user.company?.timezone || displayTimeZone());
}

/** The only pages an overdue session opens (spec part 2 §2.17, §2.20). */
export const BILLING_PATHS = ['/financeiro', '/subscription'] as const;
