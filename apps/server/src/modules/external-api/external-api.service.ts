import type { ExternalSendBody } from '@atende/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { outgoingItems, storeAndDeliver } from '../messages/outgoing-messages.js';
import { companies, contacts, plans, tickets, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { isCompanyExpired, isCompanySuspended, type TenantScope } from '../../platform/http/context.js';
import { findActiveTicket, findTicketDetail } from '../tickets/tickets.repo.js';
import { inTenant } from '../../platform/db/tenant.js';

export interface ExternalSendInput extends ExternalSendBody {
  files: { data: Buffer; fileName: string; mimeType: string }[];
}

/**
 * The connection whose external API token this is, with its company's standing.
 * An empty or missing token never matches (the column is null when unset, and
 * '' is refused before the query).
 */
async function connectionByToken(services: AppServices, token: string) {
  if (!token) return null;
  const [row] = await services.db
    .select({ connection: whatsapps, company: { dueDate: companies.dueDate, status: companies.status }, useExternalApi: plans.useExternalApi })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(and(eq(whatsapps.token, token), ne(whatsapps.token, '')))
    .limit(1);
  return row ?? null;
}

async function findOrCreateContact(services: AppServices, connection: WhatsappRow, number: string): Promise<number> {
  await services.db.insert(contacts).values({ companyId: connection.companyId, name: number, number, whatsappId: connection.id }).onConflictDoNothing();
  const [contact] = await services.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(inTenant(contacts, connection, eq(contacts.number, number)))
    .limit(1);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact.id;
}

/** The contact's open or pending ticket on this connection, or a new pending one (the one-active index settles races). Also used by the outbound engine. */
export async function findOrCreateTicket(services: AppServices, scope: TenantScope, contactId: number, whatsappId: number): Promise<{ id: number; created: boolean }> {
  const existing = await findActiveTicket(services.db, scope, contactId, whatsappId);
  if (existing) return { id: existing.id, created: false };
  const [created] = await services.db
    .insert(tickets)
    .values({ companyId: scope.companyId, contactId, whatsappId, status: 'pending' })
    .onConflictDoNothing()
    .returning({ id: tickets.id });
  if (created) return { id: created.id, created: true };
  const raced = await findActiveTicket(services.db, scope, contactId, whatsappId);
  if (!raced) throw new AppError('ERR_CREATING_TICKET');
  return { id: raced.id, created: false };
}

/** The connection of an external API bearer token; its company's plan must allow the external API and its subscription be current. */
export async function authorizeExternalApi(services: AppServices, token: string): Promise<WhatsappRow> {
  const found = await connectionByToken(services, token);
  if (!found) throw new AppError('ERR_INVALID_API_TOKEN');
  if (!found.useExternalApi) throw new AppError('ERR_PLAN_FEATURE_DISABLED', undefined, { feature: 'useExternalApi' });
  if (isCompanySuspended(found.company)) throw new AppError('ERR_COMPANY_SUSPENDED');
  if (isCompanyExpired(found.company)) throw new AppError('ERR_SUBSCRIPTION_EXPIRED');
  return found.connection;
}

/**
 * `POST /api/messages/send` (spec part 2 §2.14) through the token's connection:
 * the number is checked on WhatsApp, the contact and its ticket found or created,
 * and each message sent through the connection and stored in the ticket like an agent's.
 */
export async function sendExternalMessage(services: AppServices, connection: WhatsappRow, input: ExternalSendInput) {
  const body = input.body.trim();
  if (!body && input.files.length === 0) throw new AppError('ERR_EMPTY_MESSAGE', undefined, { fields: { body: ['Required'] } });

  const scope: TenantScope = { companyId: connection.companyId };
  const provider = services.channels.providerFor(connection);
  const checked = await provider.checkNumber(connection, input.number);
  if (!checked.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const number = checked.number || input.number;

  const contactId = await findOrCreateContact(services, connection, number);
  const ticket = await findOrCreateTicket(services, scope, contactId, connection.id);

  const items = await outgoingItems(services, scope, input.files, { to: number, body });
  // Stored before the channel sees them (ARCHITECTURE §3.14): a refusal leaves failed messages in the ticket.
  const deliveries = await storeAndDeliver(services, scope, { ticketId: ticket.id, contactId, whatsappId: connection.id, userId: null, source: 'system', items });
  const messageIds = deliveries.map((d) => d.message.id);
  const failure = deliveries.find((d) => d.error)?.error;
  if (ticket.created) {
    const detail = await findTicketDetail(services.db, scope, ticket.id);
    if (detail) services.events.emit('ticket.updated', { companyId: scope.companyId, ticket: detail });
  }
  if (failure) throw failure;
  return { message: 'Message sent.', ticketId: ticket.id, messageIds };
}
