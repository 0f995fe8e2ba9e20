import { eq, sql } from 'drizzle-orm';
import type { Platform } from '../platform/platform.js';
import { botTurns, contacts, messages, tickets, type TicketRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { findActiveTicket } from '../modules/tickets/tickets.repo.js';
import { recordTicketWebhookEvent } from '../modules/tickets/tickets.service.js';
import { recordMessageWebhookEvents } from '../modules/messages/message-webhooks.js';
import { arrivalQueue, START_DUE_STATE } from './arrival.js';

import type { InboundReactions } from './inbound-reactions.js';
import type { BatchItem, BatchOutcome } from './ingest-batch.js';
import type { InboundMessage } from './inbound-message.js';
import { inTenant } from '../platform/db/tenant.js';
import { decideRating, findAwaitingRating, recordRatingReply, type RatingDecision } from './rating-reply.js';
import type { InboundTurn } from './inbound-turn.js';

class DuplicateMessage extends Error {}

/** What storing one message led to, for the work that follows the commit. */
export type StoredInbound = Extract<BatchOutcome, { kind: 'stored' }> & { rating?: { decision: RatingDecision } };

/**
 * The full path for a message the batch left alone: a known contact without an
 * active ticket (a rating reply, or a new conversation), or a contact created by
 * another writer meanwhile. The chat is locked by an advisory lock while its
 * ticket is found or created.
 */
export async function storeSlowly(services: Pick<Platform, 'db'>, { input, number, preview }: BatchItem): Promise<StoredInbound | 'duplicate'> {
  const scope: TenantScope = { companyId: input.companyId };
  try {
    return await services.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`chat:${input.companyId}:${input.whatsappId}:${number}`}, 0))`);
      let [contact] = await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(inTenant(contacts, input, eq(contacts.number, number)))
        .limit(1);
      const contactCreated = !contact;
      if (!contact) {
        [contact] = await tx
          .insert(contacts)
          .values({
            companyId: input.companyId,
            name: input.contactName?.trim() || number,
            number,
            isGroup: input.isGroup ?? false,
            whatsappId: input.whatsappId,
          })
          .returning({ id: contacts.id });
      }
      if (!contact) throw new Error('contact upsert returned nothing');

      let ticketCreated = false;
      // A contact created just now has no ticket yet.
      let ticket: Pick<TicketRow, 'id' | 'status' | 'isGroup'> | null = contactCreated
        ? null
        : await findActiveTicket(tx, scope, contact.id, input.whatsappId);
      const fromMe = input.fromMe ?? false;
      let rating: { decision: RatingDecision } | null = null;
      if (!ticket && !fromMe && !contactCreated) {
        // A closed ticket waiting for its rating takes the reply (decision 6): it stays closed.
        const awaiting = await findAwaitingRating(tx, scope, contact.id, input.whatsappId);
        if (awaiting) {
          const decision = decideRating(input.body, awaiting.ratingState);
          await recordRatingReply(tx, scope, awaiting, decision);
          if (decision.kind !== 'release') {
            rating = { decision };
            ticket = { id: awaiting.id, status: 'closed', isGroup: false };
          }
        }
      }
      if (!ticket) {
        // Where the bot would put it without the customer's answer, as the batch does (automation/arrival.ts).
        const queueId = input.isGroup ? null : await arrivalQueue(tx, scope, input.whatsappId);
        const [created] = await tx
          .insert(tickets)
          .values({
            companyId: input.companyId,
            contactId: contact.id,
            whatsappId: input.whatsappId,
            status: 'pending',
            isGroup: input.isGroup ?? false,
            ...(queueId === null ? {} : { queueId, botState: { ...START_DUE_STATE } }),
          })
          .returning();
        ticket = created ?? null;
        ticketCreated = true;
      }
      if (!ticket) throw new Error('ticket insert returned nothing');

      let quotedMsgId: number | null = null;
      if (input.quotedExternalId) {
        const [quoted] = await tx
          .select({ id: messages.id })
          .from(messages)
          .where(
            inTenant(messages, input, eq(messages.whatsappId, input.whatsappId), eq(messages.externalId, input.quotedExternalId)),
          )
          .limit(1);
        quotedMsgId = quoted?.id ?? null;
      }

      const [message] = await tx
        .insert(messages)
        .values({
          companyId: input.companyId,
          ticketId: ticket.id,
          contactId: contact.id,
          whatsappId: input.whatsappId,
          externalId: input.externalId ?? null,
          body: input.body,
          fromMe,
          source: input.source ?? (fromMe ? 'phone' : 'customer'),
          ack: fromMe ? 1 : 0,
          read: fromMe,
          mediaType: input.specialType ?? input.media?.mediaType ?? null,
          mediaPath: input.media?.path ?? null,
          mediaName: input.media?.name ?? null,
          quotedMsgId,
          senderName: input.senderName ?? null,
          dataJson: input.data ?? null,
          ...(input.timestamp ? { createdAt: input.timestamp } : {}),
        })
        .onConflictDoNothing()
        .returning({ id: messages.id });
      if (!message) throw new DuplicateMessage();

      await tx
        .update(tickets)
        .set({
          // A message older than the ticket's newest (a job re-run after a crash) is not its preview.
          lastMessage: input.timestamp
            ? sql`case when ${input.timestamp.toISOString()}::timestamptz >= coalesce((select max(m.created_at) from messages m where m.ticket_id = ${ticket.id} and m.id <> ${message.id}), '-infinity'::timestamptz) then ${preview} else ${tickets.lastMessage} end`
            : preview,
          // A rating reply lands in a closed ticket: nothing for the agents to read.
          unreadMessages: fromMe || rating ? tickets.unreadMessages : sql`${tickets.unreadMessages} + 1`,
          // The Cloud API's 24-hour customer-service window counts from the customer's last message (never backwards).
          ...(fromMe ? {} : { lastCustomerMessageAt: sql`greatest(${tickets.lastCustomerMessageAt}, ${(input.timestamp ?? new Date()).toISOString()}::timestamptz)` }),
          // Times only move forward: a late message from the past does not bring the ticket back to the top.
          ...(rating ? {} : { updatedAt: sql`greatest(${tickets.updatedAt}, ${(input.timestamp ?? new Date()).toISOString()}::timestamptz)` }),
        })
        .where(eq(tickets.id, ticket.id));
      // Not told apart as finely as the batch does (ingest-batch.ts `turn_due`) on this rarer path: the automation looks.
      const turnDue =
        !fromMe && !rating && input.specialType !== 'call_log' && input.source !== 'system' && ticket.status === 'pending' && !ticket.isGroup;
      if (turnDue) await tx.insert(botTurns).values({ messageId: message.id, companyId: input.companyId, ticketId: ticket.id });
      // The webhooks' outbox (issue 34), as the batch writes it: the ticket's creation before its first message.
      if (ticketCreated) await recordTicketWebhookEvent(tx, scope, 'ticket.created', ticket.id);
      await recordMessageWebhookEvents(tx, scope, 'message.created', [message.id]);
      return { kind: 'stored' as const, ticketId: ticket.id, messageId: message.id, ticketCreated, turnDue, ...(rating ? { rating } : {}) };
    });
  } catch (error) {
    if (error instanceof DuplicateMessage) return 'duplicate';
    throw error;
  }
}

/** The work that follows a stored message: the rating's answer, a refused call's notice, or the automation's turn. */
export async function afterCommit(reactions: InboundReactions, { input }: BatchItem, stored: StoredInbound): Promise<void> {
  if (input.fromMe) return;
  if (stored.rating) await reactions.answerRating({ companyId: input.companyId }, stored.ticketId, stored.rating.decision);
  else if (input.specialType === 'call_log') await reactions.answerRejectedCall(input.companyId, stored.ticketId);
  else {
    const turn = automationTurn(input, stored);
    if (turn) await reactions.runTurn(turn);
  }
}

/**
 * The automation's turn for a stored customer message, or null when it has none:
 * exactly when the store wrote its `bot_turns` row (a new ticket of a connection
 * with a bot has one; a group chat never).
 */
export function automationTurn(input: InboundMessage, stored: StoredInbound): InboundTurn | null {
  if (!stored.turnDue) return null;
  return {
    companyId: input.companyId,
    ticketId: stored.ticketId,
    messageId: stored.messageId,
    body: input.body,
    mediaType: input.specialType ?? input.media?.mediaType ?? null,
    mediaPath: input.media?.path ?? null,
    mediaName: input.media?.name ?? null,
  };
}
