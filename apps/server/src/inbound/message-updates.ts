import { and, eq, lt } from 'drizzle-orm';
import type { AppServices } from '../app.js';
import { loadMessageDetails } from '../modules/messages/messages.repo.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import { applyOutboundAck } from '../outbound/outbound.js';
import { messages } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { stripUnsafeText } from '../platform/text/unsafe-text.js';

/** A change a channel reports about a message it knows by its own id. */
export interface MessageRef {
  companyId: number;
  whatsappId: number;
  externalId: string;
}

async function publishUpdate(services: AppServices, scope: TenantScope, messageId: number): Promise<void> {
  const [message] = await loadMessageDetails(services.db, scope, [messageId]);
  if (!message) return;
  const ticket = await findTicketDetail(services.db, scope, message.ticketId);
  if (ticket) services.events.emit('message.updated', { companyId: scope.companyId, ticket, message });
}

function byRef(ref: MessageRef) {
  return and(eq(messages.companyId, ref.companyId), eq(messages.whatsappId, ref.whatsappId), eq(messages.externalId, ref.externalId));
}

/** Acks only move forward (ARCHITECTURE §3.5): a late "delivered" never undoes "read". Returns whether it changed. */
export async function applyAck(services: AppServices, ref: MessageRef, ack: number): Promise<boolean> {
  // A schedule's or campaign's send learns it was delivered (it may have no message row).
  await applyOutboundAck(services, ref, ack);
  const [row] = await services.db
    .update(messages)
    .set({ ack, updatedAt: new Date() })
    .where(and(byRef(ref), lt(messages.ack, ack)))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/** The sender edited the message: new text (cleaned like an inbound message's), and the edited mark. */
export async function applyEdit(services: AppServices, ref: MessageRef, body: string): Promise<boolean> {
  const [row] = await services.db
    .update(messages)
    .set({ body: stripUnsafeText(body), isEdited: true, updatedAt: new Date() })
    .where(byRef(ref))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}

/** The sender deleted the message for everyone: kept, marked deleted. */
export async function applyRevoke(services: AppServices, ref: MessageRef): Promise<boolean> {
  const [row] = await services.db
    .update(messages)
    .set({ isDeleted: true, updatedAt: new Date() })
    .where(byRef(ref))
    .returning({ id: messages.id });
  if (!row) return false;
  await publishUpdate(services, ref, row.id);
  return true;
}
