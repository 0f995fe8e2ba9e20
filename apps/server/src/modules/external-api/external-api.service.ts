import type { ExternalSendBody } from '@atende/shared';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { isCompanyExpired, isCompanySuspended, type TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { outgoingItems, storeAndDeliver, type OutgoingMessagesDeps } from '../messages/outgoing-messages.js';
import { findActiveTicket, findTicketDetail } from '../tickets/tickets.repo.js';
import { recordTicketWebhookEvent } from '../tickets/tickets.service.js';
import { findConnectionByToken, findOrInsertContact, insertPendingTicket } from './external-api.repo.js';

/** The external send API: the token's connection, its contact and ticket, and the messages stored and delivered as an agent's. */
export type ExternalApiDeps = OutgoingMessagesDeps & Pick<Platform, 'media'>;

export interface ExternalSendInput extends ExternalSendBody {
  files: { data: Buffer; fileName: string; mimeType: string }[];
}

/** The contact's open or pending ticket on this connection, or a new pending one (the one-active index settles races). Also used by the outbound engine. */
export async function findOrCreateTicket(deps: Pick<Platform, 'db'>, scope: TenantScope, contactId: number, whatsappId: number): Promise<{ id: number; created: boolean }> {
  const existing = await findActiveTicket(deps.db, scope, contactId, whatsappId);
  if (existing) return { id: existing.id, created: false };
  // With its webhook event (ticket.created), in one transaction of its own: the callers hold none.
  const created = await deps.db.transaction(async (tx) => {
    const id = await insertPendingTicket(tx, scope, contactId, whatsappId);
    if (id !== null) await recordTicketWebhookEvent(tx, scope, 'ticket.created', id);
    return id;
  });
  if (created !== null) return { id: created, created: true };
  const raced = await findActiveTicket(deps.db, scope, contactId, whatsappId);
  if (!raced) throw new AppError('ERR_CREATING_TICKET');
  return { id: raced.id, created: false };
}

/** The connection of an external API bearer token; its company's plan must allow the external API and its subscription be current. */
export async function authorizeExternalApi(deps: Pick<Platform, 'db'>, token: string): Promise<WhatsappRow> {
  const found = await findConnectionByToken(deps.db, token);
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
export async function sendExternalMessage(deps: ExternalApiDeps, connection: WhatsappRow, input: ExternalSendInput) {
  const body = input.body.trim();
  if (!body && input.files.length === 0) throw new AppError('ERR_EMPTY_MESSAGE', undefined, { fields: { body: ['Required'] } });

  const scope: TenantScope = { companyId: connection.companyId };
  const provider = deps.channels.providerFor(connection);
  const checked = await provider.checkNumber(connection, input.number);
  if (!checked.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const number = checked.number || input.number;

  const contactId = await findOrInsertContact(deps.db, connection, number);
  if (contactId === null) throw new AppError('ERR_NO_CONTACT_FOUND');
  const ticket = await findOrCreateTicket(deps, scope, contactId, connection.id);

  const items = await outgoingItems(deps, scope, input.files, { to: number, body });
  // Stored before the channel sees them (ARCHITECTURE §3.14): a refusal leaves failed messages in the ticket.
  const deliveries = await storeAndDeliver(deps, scope, { ticketId: ticket.id, contactId, whatsappId: connection.id, userId: null, source: 'system', items });
  const messageIds = deliveries.map((d) => d.message.id);
  const failure = deliveries.find((d) => d.error)?.error;
  if (ticket.created) {
    const detail = await findTicketDetail(deps.db, scope, ticket.id);
    if (detail) deps.events.emit('ticket.updated', { companyId: scope.companyId, ticket: detail });
  }
  if (failure) throw failure;
  return { message: 'Message sent.', ticketId: ticket.id, messageIds };
}
