import { PAGE_SIZE, type MessageData } from '@atende/shared';
import { and, asc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { preparedOnce, type DbOrTx, type SqlExecutor } from '../../platform/db/client.js';
import { isoTimestampSql } from '../../platform/db/json-sql.js';
import { contacts, messages, tickets, type MessageRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { MessageDetail, PresentedMessageJson } from './messages.presenter.js';
import { inTenant, inTenantPrepared, sameTenant } from '../../platform/db/tenant.js';

const quoted = alias(messages, 'quoted');

/**
 * The message's quote, looked up for each message. The lookups are a LATERAL
 * subquery with a limit and a scalar subquery, which PostgreSQL runs per message
 * through the primary keys: as plain joins, the generic plan of the several-message
 * statement merged the batch with a scan of the whole contacts key (the newest
 * messages being those of the newest contacts), ~5 ms instead of ~0.1.
 */
function quotedMessage(db: DbOrTx) {
  return db
    .select({
      id: quoted.id,
      body: quoted.body,
      fromMe: quoted.fromMe,
      mediaType: quoted.mediaType,
      isDeleted: quoted.isDeleted,
      // Written out: inside the subquery drizzle leaves the alias's columns unqualified.
      contactName: sql<string | null>`(select qc.name from ${contacts} qc where qc.id = quoted.contact_id)`.as('contact_name'),
    })
    .from(quoted)
    // The quoted message is always of the same company as the message (same ticket history).
    .where(and(eq(quoted.id, messages.quotedMsgId), sameTenant(quoted, messages)))
    .limit(1)
    .as('quoted_message');
}

function selectMessageDetails(db: DbOrTx) {
  const quote = quotedMessage(db);
  return db
    .select({
      message: messages,
      contactName: sql<string>`(select c.name from ${contacts} c where c.id = ${messages.contactId})`,
      quotedId: quote.id,
      quotedBody: quote.body,
      quotedFromMe: quote.fromMe,
      quotedMediaType: quote.mediaType,
      quotedDeleted: quote.isDeleted,
      quotedContactName: quote.contactName,
    })
    .from(messages)
    .leftJoinLateral(quote, sql`true`)
    .$dynamic();
}

type MessageDetailRow = Awaited<ReturnType<typeof selectMessageDetails>>[number];

function toDetail(row: MessageDetailRow): MessageDetail {
  return {
    ...row.message,
    contact: { id: row.message.contactId, name: row.contactName },
    quoted:
      row.quotedId !== null
        ? {
            id: row.quotedId,
            body: row.quotedBody ?? '',
            fromMe: row.quotedFromMe ?? false,
            mediaType: row.quotedMediaType,
            isDeleted: row.quotedDeleted ?? false,
            contactName: row.quotedContactName ?? '',
          }
        : null,
  };
}

// Read for every message stored or sent (its realtime event): one statement for one
// message (the commonest), one for several.
const messageDetailStatement = preparedOnce((db) =>
  selectMessageDetails(db)
    .where(inTenantPrepared(messages, eq(messages.id, sql.placeholder('id'))))
    .prepare('message_detail'),
);
const messageDetailsStatement = preparedOnce((db) =>
  selectMessageDetails(db)
    .where(inTenantPrepared(messages, sql`${messages.id} = any(${sql.placeholder('ids')}::bigint[])`))
    .prepare('message_details'),
);

/** Messages with their contact and quoted message, in the order of `ids`. */
export async function loadMessageDetails(db: DbOrTx, scope: TenantScope, ids: number[]): Promise<MessageDetail[]> {
  if (ids.length === 0) return [];
  const rows =
    ids.length === 1
      ? await messageDetailStatement(db).execute({ companyId: scope.companyId, id: ids[0] })
      : await messageDetailsStatement(db).execute({ companyId: scope.companyId, ids: `{${ids.join(',')}}` });
  const byId = new Map(rows.map((row): [number, MessageDetail] => [row.message.id, toDetail(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * `presentMessage` of a message `m` (its contact `c` with id and name, the quoted
 * message `qm` and its contact `qc`) as a JSON object built by PostgreSQL, without
 * its media URL (the server signs one). The conversation page and the inbound
 * batch's webhook events (inbound/ingest-batch.ts) use it.
 */
export const PRESENTED_MESSAGE_OBJECT = `json_build_object(
      'id', m.id, 'ticketId', m.ticket_id, 'contactId', m.contact_id, 'userId', m.user_id,
      'body', case when m.is_deleted then '' else m.body end,
      'fromMe', m.from_me, 'source', m.source, 'ack', m.ack, 'read', m.read,
      'mediaType', coalesce(m.media_type, 'chat'), 'mediaUrl', null::text, 'mediaName', m.media_name,
      'isDeleted', m.is_deleted, 'isEdited', m.is_edited, 'senderName', m.sender_name,
      'sendStatus', m.send_status, 'sendError', m.send_error,
      'dataJson', case when m.is_deleted then null else m.data_json - 'pollSecret' - 'pollVotes' end,
      'contact', json_build_object('id', m.contact_id, 'name', c.name),
      'quotedMsgId', m.quoted_msg_id,
      'quotedMsg', case when qm.id is not null then json_build_object(
        'id', qm.id, 'body', case when qm.is_deleted then '' else qm.body end, 'fromMe', qm.from_me,
        'mediaType', coalesce(qm.media_type, 'chat'), 'isDeleted', qm.is_deleted, 'contact', json_build_object('name', coalesce(qc.name, ''))) end,
      'createdAt', ${isoTimestampSql('m.created_at')},
      'updatedAt', ${isoTimestampSql('m.updated_at')}
    )`;

/**
 * `presentMessage` of each message `m` of a page (its contact `c`, the quoted
 * message `qm` and its contact `qc`) as JSON text built by PostgreSQL, with the
 * media file the server still has to sign a URL for. `messages.repo.test.ts` checks
 * that both give the same messages.
 */
function conversationPageSql(connectionCondition: string): string {
  return `
  select ${PRESENTED_MESSAGE_OBJECT}::text as message,
    case when m.media_path <> '' and not m.is_deleted then m.media_path end as media_path
  from messages m
  join contacts c on c.id = m.contact_id
  -- The quoted message is always of the same company as the message (same ticket history).
  left join messages qm on qm.id = m.quoted_msg_id and qm.company_id = m.company_id
  left join contacts qc on qc.id = qm.contact_id
  where m.company_id = $1 and m.contact_id = $2 and ${connectionCondition}
  order by m.created_at desc, m.id desc
  limit $3 offset $4`;
}

// Planned once per connection: this is the hottest read of the conversation screen.
export const CONVERSATION_PAGE = conversationPageSql('m.whatsapp_id = $5');
// The connection was deleted: rare, so not worth a prepared statement of its own.
const ORPHAN_CONVERSATION_PAGE = conversationPageSql('m.whatsapp_id is null');

/**
 * One page of a conversation, newest page first (spec part 1 §4), in one
 * statement. The history covers the contact's earlier tickets on the same
 * connection (decision 2), so the client can draw the boundaries between them.
 * A page is returned oldest first, ready to display.
 */
export async function pageConversation(
  executor: SqlExecutor,
  scope: TenantScope,
  ticket: { contactId: number; whatsappId: number | null },
  pageNumber: number,
): Promise<{ messages: PresentedMessageJson[]; hasMore: boolean }> {
  const values = [scope.companyId, ticket.contactId, PAGE_SIZE + 1, (pageNumber - 1) * PAGE_SIZE];
  const { rows } =
    ticket.whatsappId === null
      ? await executor.executeSql(ORPHAN_CONVERSATION_PAGE, values)
      : await executor.executeSql(CONVERSATION_PAGE, [...values, ticket.whatsappId], { name: 'conversation_page' });
  const page = rows.slice(0, PAGE_SIZE).reverse();
  return {
    messages: page.map((row) => ({ json: String(row.message), mediaPath: typeof row.media_path === 'string' ? row.media_path : null })),
    hasMore: rows.length > PAGE_SIZE,
  };
}

/** Opening the conversation reads its messages; answers the channel ids of those that were unread (read receipts). */
export async function markTicketMessagesRead(db: DbOrTx, scope: TenantScope, ticketId: number): Promise<string[]> {
  const rows = await db
    .update(messages)
    .set({ read: true })
    .where(inTenant(messages, scope, eq(messages.ticketId, ticketId), eq(messages.read, false)))
    .returning({ externalId: messages.externalId });
  return rows.flatMap((r) => (r.externalId ? [r.externalId] : []));
}

/** What a reply needs of the message it quotes: its channel id and whose conversation it is. */
export async function findQuotedMessage(db: DbOrTx, scope: TenantScope, id: number): Promise<{ externalId: string | null; contactId: number } | null> {
  const [row] = await db
    .select({ externalId: messages.externalId, contactId: messages.contactId })
    .from(messages)
    .where(inTenant(messages, scope, eq(messages.id, id)))
    .limit(1);
  return row ?? null;
}

/** Deleted for everyone: the row stays, its text and file are no longer shown. */
export async function markMessageDeleted(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db
    .update(messages)
    .set({ isDeleted: true, updatedAt: sql`now()` })
    .where(inTenant(messages, scope, eq(messages.id, id)));
}

/** An agent edited one of our sent texts (the channel took the edit): the new text and the edited mark, unless it was deleted meanwhile. */
export async function saveEditedBody(db: DbOrTx, scope: TenantScope, id: number, body: string): Promise<boolean> {
  const rows = await db
    .update(messages)
    .set({ body, isEdited: true, updatedAt: sql`now()` })
    .where(inTenant(messages, scope, eq(messages.id, id), eq(messages.isDeleted, false)))
    .returning({ id: messages.id });
  return rows.length > 0;
}

/** An edited text that is its ticket's newest message becomes the list row's preview (the list's order stays). Answers whether it was. */
export async function refreshEditedPreview(db: DbOrTx, scope: TenantScope, ticketId: number, messageId: number, preview: string): Promise<boolean> {
  const newest = db
    .select({ id: messages.id })
    .from(messages)
    .where(inTenant(messages, scope, eq(messages.ticketId, ticketId)))
    .orderBy(sql`${messages.createdAt} desc`, sql`${messages.id} desc`)
    .limit(1);
  const rows = await db
    .update(tickets)
    .set({ lastMessage: preview })
    .where(inTenant(tickets, scope, eq(tickets.id, ticketId), sql`${messageId} = (${newest})`))
    .returning({ id: tickets.id });
  return rows.length > 0;
}

/**
 * Our account's reaction to a message, kept with the customers' ones in `reactions` under `from: 'me'`
 * (what WhatsApp Web's echo of it records too, so the echo changes nothing): one per account, the
 * latest wins, '' takes it back.
 */
export async function saveOwnReaction(db: DbOrTx, scope: TenantScope, id: number, emoji: string): Promise<boolean> {
  const added = emoji ? sql`jsonb_build_array(jsonb_build_object('from', 'me', 'emoji', ${emoji}::text))` : sql`'[]'::jsonb`;
  const rows = await db
    .update(messages)
    .set({
      dataJson: sql`jsonb_set(coalesce(${messages.dataJson}, '{}'::jsonb), '{reactions}',
        coalesce((select jsonb_agg(r) from jsonb_array_elements(coalesce(${messages.dataJson} -> 'reactions', '[]'::jsonb)) r where r ->> 'from' <> 'me'), '[]'::jsonb) || ${added})`,
      updatedAt: sql`now()`,
    })
    .where(inTenant(messages, scope, eq(messages.id, id), eq(messages.isDeleted, false)))
    .returning({ id: messages.id });
  return rows.length > 0;
}

/** How many messages the company has from one calendar day to another in its time zone, ours or the customers' (`GET /messages-allMe`). */
export async function countCompanyMessages(db: DbOrTx, scope: TenantScope, range: { fromMe: boolean | undefined; dateStart: string; dateEnd: string; timeZone: string }): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(messages)
    .where(
      inTenant(
        messages,
        scope,
        sql`${messages.createdAt} >= (${range.dateStart}::date)::timestamp at time zone ${range.timeZone}`,
        sql`${messages.createdAt} < (${range.dateEnd}::date + 1)::timestamp at time zone ${range.timeZone}`,
        ...(range.fromMe === undefined ? [] : [eq(messages.fromMe, range.fromMe)]),
      ),
    );
  return row?.count ?? 0;
}

/** An outgoing message as stored before the channel sees it (outgoing-messages.ts). */
export type PendingMessageValues = Omit<typeof messages.$inferInsert, 'companyId'>;

/** Inserts the messages of one send; answers their ids in arrival order. */
export async function insertPendingMessages(db: DbOrTx, scope: TenantScope, values: PendingMessageValues[]): Promise<number[]> {
  const rows = await db
    .insert(messages)
    .values(values.map((value) => ({ ...value, companyId: scope.companyId })))
    .returning({ id: messages.id });
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

export async function findPendingMessage(db: DbOrTx, scope: TenantScope, id: number): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(inTenant(messages, scope, eq(messages.id, id), eq(messages.sendStatus, 'pending')))
    .limit(1);
  return row ?? null;
}

/** What the channel said of a refused send (Cloud API: Meta's code, title and details), shown with the message. */
export type SendFailure = NonNullable<MessageData['failure']>;

/** The channel refused a pending message: failed, with the error code and what the channel said (only while it is still pending). */
/** A message's columns once it failed with our code, keeping the channel's own words (`dataJson.failure`) when it gave them. */
export function failedWith(code: string, failure?: SendFailure) {
  return {
    sendStatus: 'failed' as const,
    sendError: code,
    ...(failure ? { dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || jsonb_build_object('failure', ${JSON.stringify(failure)}::jsonb)` } : {}),
    updatedAt: new Date(),
  };
}

export async function markSendFailed(db: DbOrTx, scope: TenantScope, id: number, code: string, failure?: SendFailure): Promise<void> {
  await db
    .update(messages)
    .set(failedWith(code, failure))
    .where(inTenant(messages, scope, eq(messages.id, id), eq(messages.sendStatus, 'pending')));
}

/** A channel's echo of our own send, stored as a message typed on the phone under the channel's id. */
export async function deleteEchoOf(db: DbOrTx, scope: TenantScope, whatsappId: number, externalId: string, sentId: number): Promise<void> {
  await db
    .delete(messages)
    .where(
      inTenant(messages, scope, eq(messages.whatsappId, whatsappId), eq(messages.externalId, externalId), eq(messages.source, 'phone'), ne(messages.id, sentId)),
    );
}

/** The channel took the message: its id, its ack (acks only move forward) and what it said beyond them. */
export async function markSent(db: DbOrTx, scope: TenantScope, id: number, sent: { externalId: string; ack: number; data?: MessageData }): Promise<void> {
  await db
    .update(messages)
    .set({
      externalId: sent.externalId,
      ack: sql`greatest(${messages.ack}, ${sent.ack})`,
      sendStatus: 'sent',
      sendError: null,
      ...(sent.data ? { dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || ${JSON.stringify(sent.data)}::jsonb` } : {}),
      updatedAt: new Date(),
    })
    .where(inTenant(messages, scope, eq(messages.id, id)));
}

/**
 * Our message that a channel reports as sent (a status naming our send key) while it has no
 * channel id: its sender stopped, or got no answer, before storing the id. It takes the
 * channel's id and counts as sent. Answers its id, or null when no unsent message has that key.
 */
export async function attachSentByKey(db: DbOrTx, ref: TenantScope & { whatsappId: number; externalId: string }, key: string): Promise<number | null> {
  // A message nothing else keys is sent under its own row's key (`message-<id>`, outgoing-messages.ts).
  const ownRow = /^message-(\d{1,15})$/.exec(key)?.[1];
  const keyed = ownRow ? and(eq(messages.id, Number(ownRow)), sql`${messages.sendPayload} ->> 'idempotencyKey' is null`) : sql`${messages.sendPayload} ->> 'idempotencyKey' = ${key}`;
  const [row] = await db
    .update(messages)
    .set({ externalId: ref.externalId, sendStatus: 'sent', sendError: null, ack: sql`greatest(${messages.ack}, 1)`, updatedAt: new Date() })
    .where(
      inTenant(
        messages,
        ref,
        eq(messages.whatsappId, ref.whatsappId),
        isNull(messages.externalId),
        eq(messages.fromMe, true),
        keyed,
        inArray(messages.sendStatus, ['pending', 'failed']),
      ),
    )
    .returning({ id: messages.id });
  return row?.id ?? null;
}

/** A failed message claimed back to pending for a retry; false when it is not failed (any more) or was deleted. */
export async function claimFailedMessage(db: DbOrTx, scope: TenantScope, id: number): Promise<boolean> {
  const [claimed] = await db
    .update(messages)
    .set({ sendStatus: 'pending', sendError: null, sendAttempts: sql`${messages.sendAttempts} + 1`, updatedAt: new Date() })
    .where(inTenant(messages, scope, eq(messages.id, id), eq(messages.sendStatus, 'failed'), eq(messages.isDeleted, false)))
    .returning({ id: messages.id });
  return claimed !== undefined;
}

/**
 * Pending messages of every company untouched since `staleBefore` (their node stopped),
 * oldest first, at most `limit`. Messages of the outbound engine (a key in their payload)
 * are re-checked by it (outbound/).
 */
export async function listStalePendingMessages(db: DbOrTx, staleBefore: Date, limit: number) {
  return db
    .select({ id: messages.id, companyId: messages.companyId, createdAt: messages.createdAt, sendAttempts: messages.sendAttempts, isDeleted: messages.isDeleted })
    .from(messages)
    .where(and(eq(messages.sendStatus, 'pending'), lte(messages.updatedAt, staleBefore), sql`${messages.sendPayload} ->> 'idempotencyKey' is null`))
    .orderBy(asc(messages.id))
    .limit(limit);
}

function stillStale(scope: TenantScope, id: number, staleBefore: Date) {
  return inTenant(messages, scope, eq(messages.id, id), eq(messages.sendStatus, 'pending'), lte(messages.updatedAt, staleBefore));
}

/** A stale message given up: failed with ERR_SEND_INTERRUPTED for the agent to retry; null when another node took it. */
export async function giveUpStaleMessage(db: DbOrTx, scope: TenantScope, id: number, staleBefore: Date): Promise<{ id: number; ticketId: number } | null> {
  const [given] = await db
    .update(messages)
    .set({ sendStatus: 'failed', sendError: 'ERR_SEND_INTERRUPTED', updatedAt: new Date() })
    .where(stillStale(scope, id, staleBefore))
    .returning({ id: messages.id, ticketId: messages.ticketId });
  return given ?? null;
}

/** A stale message claimed for one more attempt (so two nodes never send it twice); false when another node took it. */
export async function claimStaleMessage(db: DbOrTx, scope: TenantScope, id: number, staleBefore: Date): Promise<boolean> {
  const [claimed] = await db
    .update(messages)
    .set({ sendAttempts: sql`${messages.sendAttempts} + 1`, updatedAt: new Date() })
    .where(stillStale(scope, id, staleBefore))
    .returning({ id: messages.id });
  return claimed !== undefined;
}
