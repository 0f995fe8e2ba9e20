import { CUSTOMER_WINDOW_HOURS, receivedPhoneNumber } from '@atende/shared';
import type { DbOrTx } from '../../platform/db/client.js';
import { lastCustomerMessageAt } from './cloud-api.repo.js';

export interface CustomerWindow {
  /** Free-form messages may be sent; outside the window only approved templates. */
  open: boolean;
  lastCustomerMessageAt: Date | null;
  expiresAt: Date | null;
}

const WINDOW_MS = CUSTOMER_WINDOW_HOURS * 3600 * 1000;

/**
 * The Cloud API's customer-service window: 24 hours from the customer's last
 * message to this connection (across the contact's tickets: a new ticket does
 * not close a window the customer opened).
 */
export async function customerWindow(
  db: DbOrTx,
  connection: { companyId: number; id: number },
  number: string,
  now = new Date(),
): Promise<CustomerWindow> {
  // A chat's address as stored: a number's digits, or a group's id.
  const last = await lastCustomerMessageAt(db, connection, receivedPhoneNumber(number, true));
  const expiresAt = last ? new Date(last.getTime() + WINDOW_MS) : null;
  return { open: expiresAt !== null && expiresAt.getTime() > now.getTime(), lastCustomerMessageAt: last, expiresAt };
}
