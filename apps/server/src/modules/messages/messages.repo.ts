import { PAGE_SIZE } from '@atende/shared';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { preparedOnce, type DbOrTx, type SqlExecutor } from '../../platform/db/client.js';
import { isoTimestampSql } from '../../platform/db/json-sql.js';
import { contacts, messages } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { MessageDetail } from './messages.presenter.js';
import { inTenantPrepared, sameTenant } from '../../platform/db/tenant.js';

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
 * `presentMessage` of each message `m` of a page (its contact `c`, the quoted
 * message `qm` and its contact `qc`) as JSON text built by PostgreSQL, with the
 * media file the server still has to sign a URL for. `messages.repo.test.ts` checks
 * that both give the same messages.
 */
function conversationPageSql(connectionCondition: string): string {
  return `
  select json_build_object(
      'id', m.id, 'ticketId', m.ticket_id, 'contactId', m.contact_id, 'userId', m.user_id,
      'body', case when m.is_deleted then '' else m.body end,
      'fromMe', m.from_me, 'source', m.source, 'ack', m.ack, 'read', m.read,
      'mediaType', m.media_type, 'mediaUrl', null::text, 'mediaName', m.media_name,
      'isDeleted', m.is_deleted, 'isEdited', m.is_edited, 'senderName', m.sender_name,
      'sendStatus', m.send_status, 'sendError', m.send_error,
      'dataJson', case when m.is_deleted then null else m.data_json end,
      'contact', json_build_object('id', m.contact_id, 'name', c.name),
      'quotedMsgId', m.quoted_msg_id,
      'quotedMsg', case when qm.id is not null then json_build_object(
        'id', qm.id, 'body', case when qm.is_deleted then '' else qm.body end, 'fromMe', qm.from_me,
        'mediaType', qm.media_type, 'isDeleted', qm.is_deleted, 'contact', json_build_object('name', coalesce(qc.name, ''))) end,
      'createdAt', ${isoTimestampSql('m.created_at')},
      'updatedAt', ${isoTimestampSql('m.updated_at')}
    )::text as message,
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

/** A message as the API presents it, as JSON text without its media URL, and the media file to sign one for. */
export interface PresentedMessageJson {
  json: string;
  mediaPath: string | null;
}

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
