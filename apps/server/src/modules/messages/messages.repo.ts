import { PAGE_SIZE } from '@atende/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, messages } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { MessageDetail } from './messages.presenter.js';

const quoted = alias(messages, 'quoted');
const quotedContact = alias(contacts, 'quoted_contact');

function selectMessageDetails(db: DbOrTx) {
  return db
    .select({
      message: messages,
      contactName: contacts.name,
      quotedId: quoted.id,
      quotedBody: quoted.body,
      quotedFromMe: quoted.fromMe,
      quotedMediaType: quoted.mediaType,
      quotedDeleted: quoted.isDeleted,
      quotedContactName: quotedContact.name,
    })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contactId))
    // The quoted message is always of the same company as the message (same ticket history).
    .leftJoin(quoted, and(eq(quoted.id, messages.quotedMsgId), eq(quoted.companyId, messages.companyId)))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId))
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

/** Messages with their contact and quoted message, in the order of `ids`. */
export async function loadMessageDetails(db: DbOrTx, scope: TenantScope, ids: number[]): Promise<MessageDetail[]> {
  if (ids.length === 0) return [];
  const rows = await selectMessageDetails(db).where(and(eq(messages.companyId, scope.companyId), inArray(messages.id, ids)));
  const byId = new Map(rows.map((row): [number, MessageDetail] => [row.message.id, toDetail(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function preparePage(db: DbOrTx) {
  return selectMessageDetails(db)
    .where(
      and(
        eq(messages.companyId, sql.placeholder('companyId')),
        eq(messages.contactId, sql.placeholder('contactId')),
        eq(messages.whatsappId, sql.placeholder('whatsappId')),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('conversation_page');
}

// Planned once per connection: this is the hottest read of the conversation screen.
const preparedPages = new WeakMap<DbOrTx, ReturnType<typeof preparePage>>();

/**
 * One page of a conversation, newest page first (spec part 1 §4), in one
 * statement. The history covers the contact's earlier tickets on the same
 * connection (decision 2), so the client can draw the boundaries between them.
 * A page is returned oldest first, ready to display.
 */
export async function pageConversation(
  db: DbOrTx,
  scope: TenantScope,
  ticket: { contactId: number; whatsappId: number | null },
  pageNumber: number,
) {
  const offset = (pageNumber - 1) * PAGE_SIZE;
  if (ticket.whatsappId === null) {
    // The connection was deleted: rare, so not worth a prepared statement of its own.
    const orphanRows = await selectMessageDetails(db)
      .where(and(eq(messages.companyId, scope.companyId), eq(messages.contactId, ticket.contactId), sql`${messages.whatsappId} is null`))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(PAGE_SIZE + 1)
      .offset(offset);
    return { messages: orphanRows.slice(0, PAGE_SIZE).reverse().map(toDetail), hasMore: orphanRows.length > PAGE_SIZE };
  }
  let statement = preparedPages.get(db);
  if (!statement) {
    statement = preparePage(db);
    preparedPages.set(db, statement);
  }
  const rows = await statement.execute({
    companyId: scope.companyId,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    limit: PAGE_SIZE + 1,
    offset,
  });
  const hasMore = rows.length > PAGE_SIZE;
  return { messages: rows.slice(0, PAGE_SIZE).reverse().map(toDetail), hasMore };
}
