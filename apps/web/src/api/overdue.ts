import { hasDueDate, type PresentedUser } from '@atende/shared';

/**
 * A signed-in company past its due date (the server's `isCompanyExpired`): only
 * its admins have a session, signed in to pay, and every route but the billing
 * ones answers 402. Super users are never held back.
 */
export function isOverdue(user: PresentedUser | null | undefined, now = Date.now()): boolean {
  const dueDate = user?.company?.dueDate;
  if (!user || user.super || !hasDueDate(dueDate)) return false;
  return new Date(dueDate).getTime() <= now;
}

/** The only pages an overdue session opens (spec part 2 §2.17, §2.20). */
export const BILLING_PATHS = ['/financeiro', '/subscription'] as const;
