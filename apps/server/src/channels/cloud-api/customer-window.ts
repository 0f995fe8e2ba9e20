import { CUSTOMER_WINDOW_HOURS } from '@atende/shared';
import { eq, max } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, tickets } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';

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
  const [row] = await db
    .select({ last: max(tickets.lastCustomerMessageAt) })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(inTenant(tickets, connection, eq(tickets.whatsappId, connection.id), eq(contacts.number, number.replace(/[^\d-]/g, ''))));
  const last = row?.last ? new Date(row.last) : null;
  const expiresAt = last ? new Date(last.getTime() + WINDOW_MS) : null;
  return { open: expiresAt !== null && expiresAt.getTime() > now.getTime(), lastCustomerMessageAt: last, expiresAt };
}
