import { and, eq, max, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, tickets, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/** The company's Cloud API connection with this id (a job's connection: null once deleted or changed provider). */
export async function findCloudConnection(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<WhatsappRow | null> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, scope, eq(whatsapps.id, whatsappId), eq(whatsapps.provider, 'cloud-api')))
    .limit(1);
  return row ?? null;
}

/**
 * Cloud API connections of any company named by a webhook payload, by phone number id
 * or WABA id (the public webhook has no session: its signature then decides).
 */
export async function findWebhookConnections(db: DbOrTx, phoneNumberIds: string[], wabaIds: string[]): Promise<WhatsappRow[]> {
  if (phoneNumberIds.length === 0 && wabaIds.length === 0) return [];
  const phoneKey = sql`(${whatsapps.providerConfig} ->> 'phoneNumberId')`;
  const wabaKey = sql`(${whatsapps.providerConfig} ->> 'wabaId')`;
  const list = (values: string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  return db
    .select()
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.provider, 'cloud-api'),
        or(
          phoneNumberIds.length > 0 ? sql`${phoneKey} in (${list(phoneNumberIds)})` : undefined,
          wabaIds.length > 0 ? sql`${wabaKey} in (${list(wabaIds)})` : undefined,
        ),
      ),
    )
    .limit(100);
}

/** Whether some Cloud API connection has this webhook verify token. */
export async function hasVerifyToken(db: DbOrTx, token: string): Promise<boolean> {
  const [match] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.provider, 'cloud-api'), sql`(${whatsapps.providerConfig} ->> 'verifyToken') = ${token}`))
    .limit(1);
  return match !== undefined;
}

/** The customer's last message to this connection, across the contact's tickets. */
export async function lastCustomerMessageAt(db: DbOrTx, connection: { companyId: number; id: number }, number: string): Promise<Date | null> {
  const [row] = await db
    .select({ last: max(tickets.lastCustomerMessageAt) })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(inTenant(tickets, connection, eq(tickets.whatsappId, connection.id), eq(contacts.number, number)));
  return row?.last ? new Date(row.last) : null;
}
