import type { AutoAssignMode } from '@atende/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import type { TenantScope } from '../../platform/http/context.js';
import { recordTicketsUpdated } from '../tickets/ticket-webhooks.js';
import { onlineSql } from './presence.repo.js';

type Rows<T> = { rows: T[] };

export interface AssignQueue {
  id: number;
  mode: Exclude<AutoAssignMode, 'off'>;
  defaultMax: number;
  cursorUserId: number | null;
}

export interface AssignAgent {
  userId: number;
  queueId: number;
  maxOpenTickets: number | null;
  openTickets: number;
  lastAssignedAt: Date | null;
}

export interface WaitingTicket {
  id: number;
  queueId: number;
}

/**
 * The company's assignment lock: every node's round for one company runs alone, so an
 * agent's open tickets are counted with no other round assigning meanwhile (agents belong
 * to several queues, so a lock per queue would not bound their load).
 */
export async function lockCompanyAssignment(tx: DbOrTx, scope: TenantScope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`auto-assign:${scope.companyId}`}, 0))`);
}

export async function autoAssignQueues(tx: DbOrTx, scope: TenantScope): Promise<AssignQueue[]> {
  const result = (await tx.execute(sql`
    select id, auto_assign, default_max_open_tickets, assign_cursor_user_id from queues
    where company_id = ${scope.companyId} and auto_assign <> 'off' order by id`)) as unknown as Rows<{
    id: number;
    auto_assign: AssignQueue['mode'];
    default_max_open_tickets: number;
    assign_cursor_user_id: number | null;
  }>;
  return result.rows.map((r) => ({ id: Number(r.id), mode: r.auto_assign, defaultMax: Number(r.default_max_open_tickets), cursorUserId: r.assign_cursor_user_id === null ? null : Number(r.assign_cursor_user_id) }));
}

/**
 * SQL: the ticket `t` waits for an agent (no bot is still talking to the customer). A ticket
 * created in its arrival queue waits for the bot's first turn (`startDue`, inbound/arrival.ts),
 * except when its contact is one the bot never answers (`disable_bot`): that turn never runs.
 */
const WAITING = `t.status = 'pending' and t.user_id is null and not t.chatbot and not t.use_integration and t.prompt_id is null
  and (coalesce(t.bot_state ->> 'startDue', 'false') <> 'true'
    or exists (select 1 from contacts c where c.id = t.contact_id and c.disable_bot))`;

/**
 * The waiting tickets of those queues, oldest first, locked; a ticket another transaction
 * holds (an agent's accept, the bot's turn) is skipped, and the row lock keeps it from being
 * taken twice. `skipped`: some waiting ticket was left out because another transaction held it.
 */
export async function lockWaitingTickets(tx: DbOrTx, scope: TenantScope, queueIds: number[], limit: number): Promise<{ tickets: WaitingTicket[]; skipped: boolean }> {
  const queues = `{${queueIds.join(',')}}`;
  const result = (await tx.execute(sql`
    select t.id, t.queue_id from tickets t
    where t.company_id = ${scope.companyId} and t.queue_id = any(${queues}::int[]) and ${sql.raw(WAITING)}
    order by t.id limit ${limit}
    for update skip locked`)) as unknown as Rows<{ id: number; queue_id: number }>;
  const tickets = result.rows.map((r) => ({ id: Number(r.id), queueId: Number(r.queue_id) }));
  if (tickets.length >= limit) return { tickets, skipped: false };
  const others = (await tx.execute(sql`
    select exists (select 1 from tickets t
      where t.company_id = ${scope.companyId} and t.queue_id = any(${queues}::int[]) and ${sql.raw(WAITING)}
        and not (t.id = any(${`{${tickets.map((ticket) => ticket.id).join(',')}}`}::int[]))) as skipped`)) as unknown as Rows<{ skipped: boolean }>;
  return { tickets, skipped: others.rows[0]?.skipped === true };
}

/** The online agents of those queues, with the open tickets they hold now (in every queue). */
export async function onlineAgents(tx: DbOrTx, scope: TenantScope, queueIds: number[]): Promise<AssignAgent[]> {
  const result = (await tx.execute(sql`
    select u.id as user_id, uq.queue_id, u.max_open_tickets, u.last_assigned_at,
      (select count(*) from tickets o where o.company_id = ${scope.companyId} and o.user_id = u.id and o.status = 'open')::int as open_tickets
    from user_queues uq join users u on u.id = uq.user_id
    where uq.company_id = ${scope.companyId} and uq.queue_id = any(${`{${queueIds.join(',')}}`}::int[]) and ${sql.raw(onlineSql('u.id'))}
    order by u.id`)) as unknown as Rows<{ user_id: number; queue_id: number; max_open_tickets: number | null; last_assigned_at: string | Date | null; open_tickets: number }>;
  return result.rows.map((r) => ({
    userId: Number(r.user_id),
    queueId: Number(r.queue_id),
    maxOpenTickets: r.max_open_tickets === null ? null : Number(r.max_open_tickets),
    openTickets: Number(r.open_tickets),
    lastAssignedAt: r.last_assigned_at === null ? null : new Date(r.last_assigned_at),
  }));
}

/** Writes the round's choices: each ticket open with its agent (only if still waiting), the agents' time, the queues' cursors. */
export async function applyAssignments(
  tx: DbOrTx,
  scope: TenantScope,
  assignments: { ticketId: number; userId: number }[],
  cursors: Map<number, number>,
): Promise<number[]> {
  if (assignments.length === 0) return [];
  const ticketIds = `{${assignments.map((a) => a.ticketId).join(',')}}`;
  const userIds = `{${assignments.map((a) => a.userId).join(',')}}`;
  const result = (await tx.execute(sql`
    update tickets t set status = 'open', user_id = a.user_id, updated_at = now()
    from unnest(${ticketIds}::int[], ${userIds}::int[]) as a(ticket_id, user_id)
    where t.company_id = ${scope.companyId} and t.id = a.ticket_id and t.status = 'pending' and t.user_id is null
    returning t.id`)) as unknown as Rows<{ id: number }>;
  await tx.execute(sql`
    update users set last_assigned_at = now()
    where company_id = ${scope.companyId} and id = any(${`{${[...new Set(assignments.map((a) => a.userId))].join(',')}}`}::int[])`);
  for (const [queueId, userId] of cursors) {
    await tx.execute(sql`update queues set assign_cursor_user_id = ${userId} where company_id = ${scope.companyId} and id = ${queueId}`);
  }
  const assigned = result.rows.map((r) => Number(r.id));
  // The webhooks' ticket.updated of each, in the round's transaction.
  await recordTicketsUpdated(tx, scope, assigned);
  return assigned;
}

/** Companies with a waiting ticket in an auto-assigning queue (the sweep's list). */
export async function companiesWithWaitingTickets(db: DbOrTx): Promise<number[]> {
  const result = (await db.execute(sql`
    select distinct q.company_id from queues q
    where q.auto_assign <> 'off' and exists (
      select 1 from tickets t where t.company_id = q.company_id and t.queue_id = q.id and ${sql.raw(WAITING)})`)) as unknown as Rows<{ company_id: number }>;
  return result.rows.map((r) => Number(r.company_id));
}

export interface AgentLoadRow {
  id: number;
  name: string;
  online: boolean;
  openTickets: number;
  maxOpenTickets: number | null;
  queueDefault: number | null;
  autoAssignQueueIds: number[];
}

/** Every user of the company with its open tickets, presence and capacity (the dashboard's load). */
export async function agentLoads(db: DbOrTx, scope: TenantScope): Promise<AgentLoadRow[]> {
  const result = (await db.execute(sql`
    select u.id, u.name, ${sql.raw(onlineSql('u.id'))} as online, u.max_open_tickets,
      (select count(*) from tickets o where o.company_id = ${scope.companyId} and o.user_id = u.id and o.status = 'open')::int as open_tickets,
      (select max(q.default_max_open_tickets) from user_queues uq join queues q on q.id = uq.queue_id
        where uq.user_id = u.id and q.auto_assign <> 'off') as queue_default,
      (select coalesce(array_agg(q.id order by q.id), '{}') from user_queues uq join queues q on q.id = uq.queue_id
        where uq.user_id = u.id and q.auto_assign <> 'off') as queue_ids
    from users u where u.company_id = ${scope.companyId}
    order by lower(u.name), u.id`)) as unknown as Rows<{
    id: number;
    name: string;
    online: boolean;
    max_open_tickets: number | null;
    open_tickets: number;
    queue_default: number | null;
    queue_ids: number[] | string;
  }>;
  return result.rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    online: r.online === true,
    openTickets: Number(r.open_tickets),
    maxOpenTickets: r.max_open_tickets === null ? null : Number(r.max_open_tickets),
    queueDefault: r.queue_default === null ? null : Number(r.queue_default),
    autoAssignQueueIds: parseIntArray(r.queue_ids),
  }));
}

/** node-postgres parses int[]; PGlite too, but a text form is read as well. */
function parseIntArray(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map(Number);
}
