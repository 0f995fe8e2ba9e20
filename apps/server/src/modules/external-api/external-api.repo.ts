import { and, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, contacts, plans, tickets, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * The connection whose external API token this is, with its company's standing.
 * An empty or missing token never matches (the column is null when unset, and
 * '' is refused before the query).
 */
export async function findConnectionByToken(db: DbOrTx, token: string) {
  if (!token) return null;
  const [row] = await db
    .select({ connection: whatsapps, company: { dueDate: companies.dueDate, timezone: companies.timezone, status: companies.status }, useExternalApi: plans.useExternalApi })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    // A company the whaticket importer has not finished answers to no token.
    .where(and(eq(whatsapps.token, token), ne(whatsapps.token, ''), eq(companies.importing, false)))
    .limit(1);
  return row ?? null;
}

/** The contact of this number in the connection's company, made (named by its number) when there is none. */
export async function findOrInsertContact(db: DbOrTx, connection: WhatsappRow, number: string): Promise<number | null> {
  await db.insert(contacts).values({ companyId: connection.companyId, name: number, number, whatsappId: connection.id }).onConflictDoNothing();
  const [contact] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(inTenant(contacts, connection, eq(contacts.number, number)))
    .limit(1);
  return contact?.id ?? null;
}

/** A new pending ticket; null when the one-active-ticket index says the contact already has one on this connection. */
export async function insertPendingTicket(db: DbOrTx, scope: TenantScope, contactId: number, whatsappId: number): Promise<number | null> {
  const [created] = await db
    .insert(tickets)
    .values({ companyId: scope.companyId, contactId, whatsappId, status: 'pending' })
    .onConflictDoNothing()
    .returning({ id: tickets.id });
  return created?.id ?? null;
}
