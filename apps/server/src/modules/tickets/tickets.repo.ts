import { PAGE_SIZE, type TicketStatus } from '@atende/shared';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { executeNamed, preparedOnce, type Database, type DbOrTx, type SqlExecutor } from '../../platform/db/client.js';
import { contacts, queues, tags, ticketTags, tickets, users, whatsapps } from '../../platform/db/schema.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { isoTimestampSql } from '../../platform/db/json-sql.js';
import { likeContains, phoneSearchDigits } from '../../platform/db/search.js';
import type { TicketDetail } from './tickets.presenter.js';
import { inTenant, inTenantPrepared } from '../../platform/db/tenant.js';

interface TagJson {
  id: number;
  name: string;
  color: string;
}

/** Tickets with contact, user, queue, connection and tags in one statement (tags aggregated per ticket). */
function selectTicketDetails(db: DbOrTx) {
  return db
    .select({
      ticket: tickets,
      contact: {
        id: contacts.id,
        name: contacts.name,
        number: contacts.number,
        profilePicUrl: contacts.profilePicUrl,
        isGroup: contacts.isGroup,
        email: contacts.email,
      },
      userName: users.name,
      queueName: queues.name,
      queueColor: queues.color,
      whatsappName: whatsapps.name,
      whatsappStatus: whatsapps.status,
      whatsappProvider: whatsapps.provider,
      whatsappPix: whatsapps.pix,
      whatsappPixMessage: whatsapps.pixMessage,
      tags: sql<TagJson[]>`coalesce((
        select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
        from ${ticketTags} tt join ${tags} tg on tg.id = tt.tag_id
        where tt.ticket_id = ${tickets.id}
      ), '[]'::json)`,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId));
}

// Planning this join costs more than running it: one statement for one ticket
// (the commonest), one for several.
const ticketDetailStatement = preparedOnce((db) =>
  selectTicketDetails(db)
    .where(inTenantPrepared(tickets, eq(tickets.id, sql.placeholder('id'))))
    .prepare('ticket_detail'),
);
const ticketDetailsStatement = preparedOnce((db) =>
  selectTicketDetails(db)
    .where(inTenantPrepared(tickets, sql`${tickets.id} = any(${sql.placeholder('ids')}::int[])`))
    .prepare('ticket_details'),
);

/** Loads tickets with their relations, in the order of `ids`. */
export async function loadTicketDetails(db: DbOrTx, scope: TenantScope, ids: number[]): Promise<TicketDetail[]> {
  if (ids.length === 0) return [];
  const rows =
    ids.length === 1
      ? await ticketDetailStatement(db).execute({ companyId: scope.companyId, id: ids[0] })
      : await ticketDetailsStatement(db).execute({ companyId: scope.companyId, ids: `{${ids.join(',')}}` });

  const byId = new Map(
    rows.map((row): [number, TicketDetail] => [
      row.ticket.id,
      {
        ...row.ticket,
        contact: row.contact,
        user: row.ticket.userId !== null && row.userName !== null ? { id: row.ticket.userId, name: row.userName } : null,
        queue:
          row.ticket.queueId !== null && row.queueName !== null
            ? { id: row.ticket.queueId, name: row.queueName, color: row.queueColor ?? '' }
            : null,
        whatsapp:
          row.ticket.whatsappId !== null && row.whatsappName !== null
            ? { id: row.ticket.whatsappId, name: row.whatsappName, status: row.whatsappStatus ?? '', provider: row.whatsappProvider ?? '', pix: row.whatsappPix ?? '', pixMessage: row.whatsappPixMessage ?? '' }
            : null,
        tags: typeof row.tags === 'string' ? (JSON.parse(row.tags) as TagJson[]) : row.tags,
      },
    ]),
  );
  // Keep the caller's order (the list's sort).
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * `presentTicket` of a ticket `t` (its contact `c`, user `u`, queue `q` and connection
 * `w`, left joined) as a JSON object built by PostgreSQL. The ticket lists and the
 * inbound batch's webhook events (inbound/ingest-batch.ts) use it.
 */
export const PRESENTED_TICKET_OBJECT = `json_build_object(
    'id', t.id, 'uuid', t.uuid, 'status', t.status,
    'userId', t.user_id,
    'user', case when t.user_id is not null and u.name is not null then json_build_object('id', t.user_id, 'name', u.name) end,
    'queueId', t.queue_id,
    'queue', case when t.queue_id is not null and q.name is not null then json_build_object('id', t.queue_id, 'name', q.name, 'color', q.color) end,
    'whatsappId', t.whatsapp_id,
    'whatsapp', case when t.whatsapp_id is not null and w.name is not null
      then json_build_object('id', t.whatsapp_id, 'name', w.name, 'status', w.status, 'provider', w.provider, 'pix', w.pix, 'pixMessage', w.pix_message) end,
    'contactId', t.contact_id,
    'contact', json_build_object('id', c.id, 'name', c.name, 'number', c.number, 'profilePicUrl', c.profile_pic_url, 'isGroup', c.is_group, 'email', c.email),
    'isGroup', t.is_group, 'chatbot', t.chatbot, 'unreadMessages', t.unread_messages, 'lastMessage', t.last_message,
    'useIntegration', t.use_integration, 'promptId', t.prompt_id, 'integrationId', t.integration_id,
    'tags', coalesce((
      select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
      from ticket_tags tt join tags tg on tg.id = tt.tag_id
      where tt.ticket_id = t.id), '[]'::json),
    'ticketUsers', case when t.user_id is not null and u.name is not null
      then json_build_array(json_build_object('ticketId', t.id, 'userId', t.user_id, 'queueId', t.queue_id,
        'user', json_build_object('id', t.user_id, 'name', u.name),
        'queue', case when t.queue_id is not null and q.name is not null then json_build_object('id', t.queue_id, 'name', q.name, 'color', q.color) end))
      else '[]'::json end,
    'companyId', t.company_id,
    'code', t.id::text,
    'slaDueAt', case when t.sla_due_at is not null then ${isoTimestampSql('t.sla_due_at')} end,
    'slaWarnAt', case when t.sla_due_at is not null and t.sla_warn_at is not null then ${isoTimestampSql('t.sla_warn_at')} end,
    'slaState', case when t.sla_due_at is null then null when t.sla_due_at <= now() then 'breached'
      when t.sla_warn_at <= now() then 'warning' else 'ok' end,
    'createdAt', ${isoTimestampSql('t.created_at')},
    'updatedAt', ${isoTimestampSql('t.updated_at')}
  )`;

/**
 * The JSON array `presentTicket` would give for these tickets (in the order of
 * `ids`), built by PostgreSQL in one prepared statement. The ticket lists are the
 * hottest read of the product: building 20 presented tickets in the server (rows of
 * every ticket column, their dates, then JSON) cost it about twice the rest of the
 * request. `tickets.repo.test.ts` checks that both give the same tickets.
 */
export const PRESENTED_TICKETS = `
  select coalesce(json_agg(${PRESENTED_TICKET_OBJECT} order by page.n), '[]'::json)::text as tickets
  from unnest($2::int[]) with ordinality page(id, n)
  join tickets t on t.id = page.id and t.company_id = $1
  join contacts c on c.id = t.contact_id
  left join users u on u.id = t.user_id
  left join queues q on q.id = t.queue_id
  left join whatsapps w on w.id = t.whatsapp_id`;

/** `presentTicket` of each of these tickets, as JSON text (an array, in the order of `ids`). */
export async function presentTicketsInDatabase(executor: SqlExecutor, scope: TenantScope, ids: number[]): Promise<string> {
  if (ids.length === 0) return '[]';
  const [row] = (await executor.executeSql(PRESENTED_TICKETS, [scope.companyId, `{${ids.join(',')}}`], { name: 'presented_tickets' })).rows;
  return String(row?.tickets ?? '[]');
}

export async function findTicketDetail(db: DbOrTx, scope: TenantScope, id: number): Promise<TicketDetail | null> {
  const [ticket] = await loadTicketDetails(db, scope, [id]);
  return ticket ?? null;
}

/**
 * Takes the ticket's row lock for the transaction that decides its next state: a
 * concurrent change (another agent's accept, a kanban move) waits, then decides on
 * what this one committed (ARCHITECTURE.md §3 rule 16).
 */
export async function lockTicket(tx: DbOrTx, scope: TenantScope, ticketId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(inTenant(tickets, scope, eq(tickets.id, ticketId)))
    .for('update');
  return rows.length > 0;
}

export async function findTicketIdByUuid(db: DbOrTx, scope: TenantScope, uuid: string): Promise<number | null> {
  const [row] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(inTenant(tickets, scope, eq(tickets.uuid, uuid)))
    .limit(1);
  return row?.id ?? null;
}

export async function findActiveTicket(db: DbOrTx, scope: TenantScope, contactId: number, whatsappId: number | null) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(
      inTenant(tickets, scope, eq(tickets.contactId, contactId), whatsappId === null ? sql`${tickets.whatsappId} is null` : eq(tickets.whatsappId, whatsappId), inArray(tickets.status, ['open', 'pending'])),
    )
    .limit(1);
  return row ?? null;
}

export type TicketChange = Partial<typeof tickets.$inferInsert>;

/** An agent's new ticket; a second active ticket of the contact on the connection is refused by the unique index. */
export async function insertTicket(
  db: DbOrTx,
  scope: TenantScope,
  values: Pick<typeof tickets.$inferInsert, 'contactId' | 'whatsappId' | 'queueId' | 'status' | 'userId'>,
): Promise<number | null> {
  const [created] = await db
    .insert(tickets)
    .values({ ...values, companyId: scope.companyId })
    .returning({ id: tickets.id });
  return created?.id ?? null;
}

export async function updateTicketRow(db: DbOrTx, scope: TenantScope, id: number, change: TicketChange): Promise<void> {
  await db
    .update(tickets)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(tickets, scope, eq(tickets.id, id)));
}

export async function deleteTicketRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(tickets).where(inTenant(tickets, scope, eq(tickets.id, id)));
}

/** The list row's last message after an outgoing send (messages/outgoing-messages.ts). */
export async function setTicketLastMessage(db: DbOrTx, scope: TenantScope, id: number, lastMessage: string): Promise<void> {
  await db
    .update(tickets)
    .set({ lastMessage, updatedAt: new Date() })
    .where(inTenant(tickets, scope, eq(tickets.id, id)));
}

/** The agent opened the conversation: nothing unread any more. */
export async function clearUnreadMessages(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.update(tickets).set({ unreadMessages: 0 }).where(inTenant(tickets, scope, eq(tickets.id, id)));
}

/**
 * Who may open a ticket (spec part 1 §6): admins any; a user the tickets assigned
 * to it, tickets without a queue, and tickets of its own queues.
 */
export function canSeeTicket(ctx: RequestContext, ticket: { userId: number | null; queueId: number | null; status: string }): boolean {
  if (ctx.user.profile === 'admin') return true;
  if (ticket.userId === ctx.user.id || ticket.queueId === null) return true;
  if (ctx.user.queueIds.includes(ticket.queueId)) return true;
  return ctx.user.allTicket === 'enabled' && ticket.status === 'pending';
}

/** Up to `limit` tickets of one status (open or pending), oldest change first, in the given queues when some are named; for closing them all. */
export async function listTicketsByStatus(db: DbOrTx, scope: TenantScope, status: 'open' | 'pending', queueIds: number[] | null, limit: number) {
  return db
    .select({ id: tickets.id, userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
    .from(tickets)
    .where(inTenant(tickets, scope, eq(tickets.status, status), queueIds ? inArray(tickets.queueId, queueIds) : undefined))
    .orderBy(tickets.updatedAt, tickets.id)
    .limit(limit);
}

export interface TicketListFilters {
  searchParam: string;
  pageNumber: number;
  status?: TicketStatus;
  showAll: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  withUnreadMessages: boolean;
  date?: string;
  updatedAt?: string;
  /** `sla`: closest to breach first. */
  sortBy?: 'updatedAt' | 'sla';
}

const intArray = (values: number[]) => sql`${`{${values.join(',')}}`}::int[]`;

/**
 * A value the planner does not look at: a sub-select's result. A search's plan is
 * the same whatever its words (the list order walked, matches looked up in hashed
 * sets), but with the words as plain parameters PostgreSQL plans the statement on
 * every call (~0.5 ms, as much as running it) because each word's own estimate makes
 * that plan look cheaper than the generic one. Through sub-selects both estimates
 * agree and the statement is planned once per connection.
 */
const planOnce = (value: SQL) => sql`(select ${value})`;

/** One letter-or-digit run is one word for the full-text parser: no grouping needed. */
const SINGLE_WORD = /^[\p{L}\p{N}]+$/u;

/** How many of a word's entries a search counts to find its rarest word: enough to tell rare from common. */
const WORD_COUNT_CAP = 5000;

/**
 * The company's tickets with a message holding every word of `term`, split as
 * messages are (`message_words`, migration 0009), from message_terms by index-only
 * scans. Several words: the messages of the rarest one (counted up to a cap; the
 * longer word on a tie) are the candidates, and each of the other words is looked up
 * for that message, so a common word costs a lookup per candidate, not a read of all
 * its messages. A search without words (only punctuation) finds none.
 */
function ticketsWithWords(companyId: number, term: string): SQL {
  const words = sql`message_words(${term})`;
  if (SINGLE_WORD.test(term)) {
    return sql`select mt.ticket_id from message_terms mt where mt.company_id = ${companyId} and mt.term = any(${planOnce(words)}::text[])`;
  }
  return sql`
    select mt.ticket_id from message_terms mt
    where mt.company_id = ${companyId}
      and mt.term = (
        select w from unnest(${words}) w
        order by (select count(*) from (select 1 from message_terms f where f.company_id = ${companyId} and f.term = w limit ${WORD_COUNT_CAP}) capped),
          length(w) desc, w
        limit 1)
      and not exists (
        select 1 from unnest(${words}) other
        where other <> mt.term
          and not exists (select 1 from message_terms x where x.company_id = ${companyId} and x.term = other and x.message_id = mt.message_id))`;
}

/**
 * The ticket lists. Without showAll (or for non-admins, who never get it) a user
 * sees its own tickets and the pending ones, of the selected queues (limited to
 * its own queues) or without a queue; allTicket adds every pending ticket.
 * Unread tickets come first, then the most recently updated.
 */
export async function listTickets(database: Pick<Database, 'sql'>, ctx: RequestContext, filters: TicketListFilters) {
  const conditions = ticketListConditions(ctx, filters);

  // The limit is written into the statement and the first page has no offset: with
  // a LIMIT or OFFSET parameter a generic plan guesses 10% of the rows, so PostgreSQL
  // would plan the statement on every call instead of once per connection.
  const offset = (filters.pageNumber - 1) * PAGE_SIZE;
  const rows = await executeNamed<{ id: number }>(
    database.sql,
    sql`
    select t.id from tickets t
    where ${sql.join(conditions, sql` and `)}
    order by ${filters.sortBy === 'sla' ? sql`t.sla_due_at asc nulls last, t.id asc` : sql`(t.unread_messages > 0) desc, t.updated_at desc, t.id desc`}
    limit ${sql.raw(String(PAGE_SIZE + 1))}${offset > 0 ? sql` offset ${offset}` : sql``}`,
  );
  const ids = rows.map((r) => Number(r.id));
  const hasMore = ids.length > PAGE_SIZE;
  return { ticketsJson: await presentTicketsInDatabase(database.sql, ctx, ids.slice(0, PAGE_SIZE)), hasMore };
}

/**
 * How many tickets the list with these filters holds in all (its pages ignored):
 * the tickets manager's badges and the top bar's bell. A separate request so the
 * list itself stays one LIMITed index walk; the count reads the same index
 * (tickets_list_order_idx: company, status) without building any ticket.
 */
export async function countTickets(database: Pick<Database, 'sql'>, ctx: RequestContext, filters: TicketListFilters): Promise<number> {
  const conditions = ticketListConditions(ctx, filters);
  const [row] = await executeNamed<{ count: number | string }>(
    database.sql,
    sql`select count(*)::int as count from tickets t where ${sql.join(conditions, sql` and `)}`,
  );
  return Number(row?.count ?? 0);
}

/** The WHERE of the ticket lists (and their counts): the visibility rules and the filters. */
function ticketListConditions(ctx: RequestContext, filters: TicketListFilters): SQL[] {
  const conditions: SQL[] = [sql`t.company_id = ${ctx.companyId}`];
  if (filters.status) conditions.push(sql`t.status = ${filters.status}`);

  const isAdmin = ctx.user.profile === 'admin';
  const seesAll = isAdmin && filters.showAll;
  if (!seesAll) {
    const selected = filters.queueIds ?? ctx.user.queueIds;
    const allowed = isAdmin ? selected : selected.filter((id) => ctx.user.queueIds.includes(id));
    const scope = sql`(t.user_id = ${ctx.user.id} or t.status = 'pending') and (t.queue_id is null or t.queue_id = any(${intArray(allowed)}))`;
    conditions.push(ctx.user.allTicket === 'enabled' ? sql`((${scope}) or t.status = 'pending')` : sql`(${scope})`);
  } else if (filters.queueIds) {
    conditions.push(sql`(t.queue_id is null or t.queue_id = any(${intArray(filters.queueIds)}))`);
  }
  if (filters.users?.length) conditions.push(sql`t.user_id = any(${intArray(filters.users)})`);
  if (filters.tags?.length) {
    conditions.push(sql`exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id = any(${intArray(filters.tags)}))`);
  }
  if (filters.withUnreadMessages) conditions.push(sql`t.unread_messages > 0`);
  if (filters.date) conditions.push(sql`(t.created_at at time zone ${ctx.company.timezone})::date = ${filters.date}::date`);
  if (filters.updatedAt) conditions.push(sql`(t.updated_at at time zone ${ctx.company.timezone})::date = ${filters.updatedAt}::date`);

  const term = filters.searchParam.trim().toLowerCase();
  if (term) {
    const like = likeContains(term);
    const digits = phoneSearchDigits(term);
    // Each branch is its own indexed lookup: trigrams on contacts, the messages'
    // words on message_terms (a ticket matches when one message holds every word).
    conditions.push(sql`(
      t.contact_id in (
        select ct.id from contacts ct
        where ct.company_id = ${ctx.companyId}
          and (lower(ct.name) like ${planOnce(sql`${like}::text`)} ${digits ? sql`or ct.number like ${planOnce(sql`${likeContains(digits)}::text`)}` : sql``})
      )
      or t.id in (${ticketsWithWords(ctx.companyId, term)})
    )`);
  }
  return conditions;
}
