import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app.js';
import { contacts, messages, tickets, type TicketRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { loadMessageDetails } from '../modules/messages/messages.repo.js';
import { findActiveTicket, loadTicketDetails } from '../modules/tickets/tickets.repo.js';
import { groupMessagesIgnored } from '../automation/inbound-hooks.js';
import { answerRejectedCall, needsAutomation, runInboundAutomation, type TicketHints } from '../automation/inbound-automation.js';
import { answerRatingReply, decideRating, findAwaitingRating, recordRatingReply, type RatingDecision } from '../automation/rating.js';
import type { InboundMessage } from './inbound-message.js';

export interface IngestResult {
  duplicate: boolean;
  ticketId: number | null;
  messageId: number | null;
  ticketCreated: boolean;
  /** Not stored: a group message while the company ignores groups (setting CheckMsgIsGroup). */
  ignored?: boolean;
}

class DuplicateMessage extends Error {}

/** What a ticket's list row shows for its last message. */
export function lastMessagePreview(input: Pick<InboundMessage, 'body' | 'media' | 'specialType'>): string {
  if (input.body.trim()) return input.body.slice(0, 255);
  // The web shows the word for it (spec: a location shows the word for location).
  if (input.specialType) return input.specialType;
  return input.media?.name ?? '';
}

/**
 * The ingest pipeline (ARCHITECTURE §3.5): contact found or created, the
 * contact's open or pending ticket found or a pending one created (decision 2:
 * a closed ticket is never reopened by the customer), the message stored and the
 * ticket's last message and unread count updated, all in one transaction. Messages
 * of one chat are serialized by an advisory lock, and the external id makes a
 * redelivery a no-op. Realtime events go out after commit.
 *
 * The automation hooks in at three points, none on the common path of a ticket
 * open with an agent: group messages are dropped first when the company ignores
 * groups; a contact without an active ticket whose closed ticket waits for its
 * rating answers that rating (decision 6); and a stored customer message of a
 * pending ticket goes to the bot (chatbot, integrations, business hours).
 */
export async function ingestMessage(services: AppServices, input: InboundMessage): Promise<IngestResult> {
  const scope: TenantScope = { companyId: input.companyId };
  if (input.isGroup && (await groupMessagesIgnored(services, scope))) {
    return { duplicate: false, ticketId: null, messageId: null, ticketCreated: false, ignored: true };
  }
  const number = input.from.replace(/[^\d-]/g, '') || input.from;
  const preview = lastMessagePreview(input);
  const fast = await ingestIntoActiveTicket(services, input, number, preview);
  if (fast === 'duplicate') return { duplicate: true, ticketId: null, messageId: null, ticketCreated: false };
  if (fast) {
    await publishCreated(services, scope, fast.ticketId, fast.messageId);
    await afterStored(services, input, fast.ticketId, fast.messageId, false, fast.hints);
    return { duplicate: false, ticketId: fast.ticketId, messageId: fast.messageId, ticketCreated: false };
  }
  try {
    const outcome = await services.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`chat:${input.companyId}:${input.whatsappId}:${number}`}, 0))`);

      let [contact] = await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.companyId, input.companyId), eq(contacts.number, number)))
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
      let ticket: Pick<TicketRow, 'id' | 'status' | 'isGroup' | 'chatbot' | 'useIntegration' | 'promptId' | 'queueId'> | null = contactCreated
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
            ticket = { id: awaiting.id, status: 'closed', isGroup: false, chatbot: false, useIntegration: false, promptId: null, queueId: null };
          }
        }
      }
      if (!ticket) {
        const [created] = await tx
          .insert(tickets)
          .values({
            companyId: input.companyId,
            contactId: contact.id,
            whatsappId: input.whatsappId,
            status: 'pending',
            isGroup: input.isGroup ?? false,
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
            and(
              eq(messages.companyId, input.companyId),
              eq(messages.whatsappId, input.whatsappId),
              eq(messages.externalId, input.quotedExternalId),
            ),
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
          source: fromMe ? 'phone' : 'customer',
          ack: fromMe ? 1 : 0,
          read: fromMe,
          mediaType: input.specialType ?? input.media?.mediaType ?? null,
          mediaPath: input.media?.path ?? null,
          mediaName: input.media?.name ?? null,
          quotedMsgId,
          senderName: input.senderName ?? null,
          ...(input.timestamp ? { createdAt: input.timestamp } : {}),
        })
        .onConflictDoNothing()
        .returning({ id: messages.id });
      if (!message) throw new DuplicateMessage();

      await tx
        .update(tickets)
        .set({
          lastMessage: preview,
          // A rating reply lands in a closed ticket: nothing for the agents to read.
          unreadMessages: fromMe || rating ? tickets.unreadMessages : sql`${tickets.unreadMessages} + 1`,
          // The Cloud API's 24-hour customer-service window counts from the customer's last message.
          ...(fromMe ? {} : { lastCustomerMessageAt: input.timestamp ?? new Date() }),
          ...(rating ? {} : { updatedAt: new Date() }),
        })
        .where(eq(tickets.id, ticket.id));
      const hints: TicketHints = {
        status: ticket.status,
        isGroup: ticket.isGroup,
        chatbot: ticket.chatbot,
        useIntegration: ticket.useIntegration,
        promptId: ticket.promptId,
        queueId: ticket.queueId,
        // Not read on this rare path (a ticket found only after the fast path missed it): let the automation look.
        scheduleType: 'unknown',
        botStarted: false,
        menuWait: 0,
      };
      return { ticketId: ticket.id, messageId: message.id, ticketCreated, rating, hints };
    });

    await publishCreated(services, scope, outcome.ticketId, outcome.messageId);
    if (outcome.rating) await answerRatingReply(services, scope, outcome.ticketId, outcome.rating.decision);
    else await afterStored(services, input, outcome.ticketId, outcome.messageId, outcome.ticketCreated, outcome.hints);
    return { duplicate: false, ticketId: outcome.ticketId, messageId: outcome.messageId, ticketCreated: outcome.ticketCreated };
  } catch (error) {
    if (error instanceof DuplicateMessage) return { duplicate: true, ticketId: null, messageId: null, ticketCreated: false };
    throw error;
  }
}

/** The automation's turn on a stored message: calls when they are refused, the bot for pending tickets. */
async function afterStored(
  services: AppServices,
  input: InboundMessage,
  ticketId: number,
  messageId: number,
  ticketCreated: boolean,
  hints: TicketHints,
): Promise<void> {
  if (input.fromMe) return;
  if (input.specialType === 'call_log') {
    await answerRejectedCall(services, input.companyId, ticketId);
    return;
  }
  // A new ticket always gets its turn; the known one only when the row says it may need it.
  if (!ticketCreated && !needsAutomation(hints)) return;
  if (ticketCreated && (input.isGroup || hints.isGroup)) return;
  await runInboundAutomation(services, {
    companyId: input.companyId,
    ticketId,
    messageId,
    ticketCreated,
    body: input.body,
    mediaType: input.specialType ?? input.media?.mediaType ?? null,
    mediaPath: input.media?.path ?? null,
    mediaName: input.media?.name ?? null,
  });
}

async function publishCreated(services: AppServices, scope: TenantScope, ticketId: number, messageId: number): Promise<void> {
  const [ticket] = await loadTicketDetails(services.db, scope, [ticketId]);
  const [message] = await loadMessageDetails(services.db, scope, [messageId]);
  if (ticket && message) services.events.emit('message.created', { companyId: scope.companyId, ticket, message });
}

interface FastPathRow {
  ticket_id: number | null;
  message_id: number | string | null;
  status: string;
  is_group: boolean;
  chatbot: boolean;
  use_integration: boolean;
  prompt_id: number | null;
  queue_id: number | null;
  schedule_type: string | null;
  bot_started: boolean | null;
  menu_wait: number | null;
}

/**
 * The common path in one statement: a known contact writing into its open or
 * pending ticket. The ticket row is locked for the statement (`for update`), which
 * orders the messages of one chat; a redelivered id inserts nothing. Answers null
 * when the contact or the active ticket does not exist yet: the full path then
 * creates them inside a transaction.
 */
async function ingestIntoActiveTicket(
  services: AppServices,
  input: InboundMessage,
  number: string,
  preview: string,
): Promise<{ ticketId: number; messageId: number; hints: TicketHints } | 'duplicate' | null> {
  const fromMe = input.fromMe ?? false;
  const result = (await services.db.execute(sql`
    with c as (
      select id from contacts where company_id = ${input.companyId} and number = ${number}
    ), t as (
      select tk.id, tk.status, tk.is_group, tk.chatbot, tk.use_integration, tk.prompt_id, tk.queue_id, (tk.bot_state ->> 'started') = 'true' as bot_started
      from tickets tk join c on tk.contact_id = c.id
      where tk.company_id = ${input.companyId} and tk.whatsapp_id = ${input.whatsappId} and tk.status in ('open', 'pending')
      for update of tk
    ), m as (
      insert into messages (company_id, ticket_id, contact_id, whatsapp_id, external_id, body, from_me, source, ack, read,
        media_type, media_path, media_name, quoted_msg_id, sender_name, created_at)
      select ${input.companyId}, t.id, c.id, ${input.whatsappId}, ${input.externalId ?? null}, ${input.body}, ${fromMe},
        ${fromMe ? 'phone' : 'customer'}, ${fromMe ? 1 : 0}, ${fromMe},
        ${input.specialType ?? input.media?.mediaType ?? null}, ${input.media?.path ?? null}, ${input.media?.name ?? null},
        ${
          input.quotedExternalId
            ? sql`(select q.id from messages q where q.company_id = ${input.companyId} and q.whatsapp_id = ${input.whatsappId} and q.external_id = ${input.quotedExternalId})`
            : sql`null::bigint`
        },
        ${input.senderName ?? null}, coalesce(${input.timestamp?.toISOString() ?? null}::timestamptz, now())
      from t, c
      on conflict (company_id, whatsapp_id, external_id) where external_id is not null do nothing
      returning id, ticket_id
    ), updated as (
      update tickets set last_message = ${preview}, unread_messages = unread_messages + ${fromMe ? 0 : 1}, updated_at = now(),
        last_customer_message_at = ${fromMe ? sql`last_customer_message_at` : sql`coalesce(${input.timestamp?.toISOString() ?? null}::timestamptz, now())`}
      from m where tickets.id = m.ticket_id
      returning tickets.id
    )
    select t.id as ticket_id, (select id from m) as message_id, t.status, t.is_group, t.chatbot, t.use_integration, t.prompt_id, t.queue_id,
      -- Whether business hours are in use, so a waiting ticket costs the automation nothing when they are not.
      (select s.value from settings s where s.company_id = ${input.companyId} and s.key = 'scheduleType') as schedule_type,
      t.bot_started, (select w.time_use_bot_queues from whatsapps w where w.id = ${input.whatsappId}) as menu_wait
    from t`)) as unknown as { rows: FastPathRow[] };
  const row = result.rows[0];
  if (!row || row.ticket_id === null) return null;
  if (row.message_id === null) return 'duplicate';
  return {
    ticketId: Number(row.ticket_id),
    messageId: Number(row.message_id),
    hints: {
      status: row.status,
      isGroup: row.is_group,
      chatbot: row.chatbot,
      useIntegration: row.use_integration,
      promptId: row.prompt_id === null ? null : Number(row.prompt_id),
      queueId: row.queue_id === null ? null : Number(row.queue_id),
      scheduleType: row.schedule_type,
      botStarted: row.bot_started === true,
      menuWait: Number(row.menu_wait ?? 0),
    },
  };
}
