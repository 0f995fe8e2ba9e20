import type { TicketReportRow } from '@atende/shared';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import type { Range } from '../dashboard/dashboard.repo.js';

/**
 * whaticket v6's report queries, on Atende's data: the daily totals the dashboard keeps
 * (`ticket_cycle_days`), the cycles (`ticket_cycles`) and the tickets. Every value of the
 * request reaches SQL as a parameter; the company is always the session's.
 */

type Row = Record<string, string | number | null>;

async function rows<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const inDays = (range: Range) => sql`d.day between ${range.from}::date and ${range.to}::date`;

/** Conversations per agent of the company in the range (every agent, none too), fewest first as v6 orders them. */
export function ticketsPerAttendant(db: Db, scope: TenantScope, range: Range) {
  return rows<{ user_name: string; total_tickets: number }>(
    db,
    sql`select u.name as user_name, coalesce(sum(d.queued), 0)::int as total_tickets
    from users u left join ticket_cycle_days d on d.company_id = u.company_id and d.user_id = u.id and ${inDays(range)}
    where u.company_id = ${scope.companyId}
    group by u.id, u.name order by total_tickets asc, lower(u.name)`,
  );
}

/** Conversations per queue of the company in the range, fewest first. */
export function ticketsPerQueue(db: Db, scope: TenantScope, range: Range) {
  return rows<{ name: string; total_tickets: number }>(
    db,
    sql`select q.name, coalesce(sum(d.queued), 0)::int as total_tickets
    from queues q left join ticket_cycle_days d on d.company_id = q.company_id and d.queue_id = q.id and ${inDays(range)}
    where q.company_id = ${scope.companyId}
    group by q.id, q.name order by total_tickets asc, lower(q.name)`,
  );
}

/** Average rating (1–3) per queue of the conversations queued in the range, queues with ratings only. */
export function ratingsPerQueue(db: Db, scope: TenantScope, range: Range) {
  return rows<{ name: string; total_rate: string }>(
    db,
    sql`select q.name, round(sum(d.rated_1 + 2 * d.rated_2 + 3 * d.rated_3)::numeric / sum(d.rated_1 + d.rated_2 + d.rated_3), 2)::text as total_rate
    from ticket_cycle_days d join queues q on q.id = d.queue_id and q.company_id = d.company_id
    where d.company_id = ${scope.companyId} and ${inDays(range)}
    group by q.id, q.name having sum(d.rated_1 + d.rated_2 + d.rated_3) > 0 order by lower(q.name)`,
  );
}

/** Conversations started per hour of the day (the company's clock) in the range, hours with some only. */
export function conversationsPerHour(db: Db, scope: TenantScope, range: Range) {
  return rows<{ message_hour: number; message_count: number }>(
    db,
    sql`select extract(hour from c.queued_at at time zone ${range.timeZone})::int as message_hour, count(*)::int as message_count
    from ticket_cycles c
    where c.company_id = ${scope.companyId}
      and c.queued_at >= (${range.from}::date)::timestamp at time zone ${range.timeZone}
      and c.queued_at < (${range.to}::date + 1)::timestamp at time zone ${range.timeZone}
    group by 1 order by 1`,
  );
}

export interface TicketReportFilters {
  ticketId?: number;
  contactId?: number;
  whatsappIds?: number[];
  userIds?: number[];
  queueIds?: number[];
  statuses?: string[];
  from?: string;
  to?: string;
  search?: string;
}

const idArray = (ids: number[]) => `{${ids.join(',')}}`;

/** The tickets the caller may see (an agent: its own, those of its queues and those without a queue), with the filters. */
function reportScope(ctx: RequestContext, timeZone: string, f: TicketReportFilters): SQL {
  const parts: SQL[] = [sql`t.company_id = ${ctx.companyId}`];
  if (ctx.user.profile !== 'admin') {
    parts.push(sql`(t.user_id = ${ctx.user.id} or t.queue_id is null or t.queue_id = any(${idArray(ctx.user.queueIds)}::int[]))`);
  }
  if (f.ticketId) parts.push(sql`t.id = ${f.ticketId}`);
  if (f.contactId) parts.push(sql`t.contact_id = ${f.contactId}`);
  if (f.whatsappIds) parts.push(sql`t.whatsapp_id = any(${idArray(f.whatsappIds)}::int[])`);
  if (f.userIds) parts.push(sql`t.user_id = any(${idArray(f.userIds)}::int[])`);
  // v6's "no queue" is 0.
  if (f.queueIds) parts.push(sql`coalesce(t.queue_id, 0) = any(${idArray(f.queueIds)}::int[])`);
  if (f.statuses) parts.push(sql`t.status = any(${`{${f.statuses.join(',')}}`}::text[])`);
  if (f.from) parts.push(sql`t.created_at >= (${f.from}::date)::timestamp at time zone ${timeZone}`);
  if (f.to) parts.push(sql`t.created_at < (${f.to}::date + 1)::timestamp at time zone ${timeZone}`);
  if (f.search) {
    const name = sql`c.name ilike ${`%${f.search.replace(/[\\%_]/g, '\\$&')}%`}`;
    const digits = f.search.replace(/\D/g, '');
    parts.push(digits ? sql`(${name} or c.number like ${`%${digits}%`})` : name);
  }
  return sql.join(parts, sql` and `);
}

/** One page of the tickets report, newest first, and how many match. */
export async function ticketReportPage(db: Db, ctx: RequestContext, timeZone: string, filters: TicketReportFilters, page: number, pageSize: number) {
  const where = reportScope(ctx, timeZone, filters);
  const [total] = await rows<{ total: number }>(db, sql`select count(*)::int as total from tickets t join contacts c on c.id = t.contact_id where ${where}`);
  const list = await rows<TicketReportRow>(
    db,
    sql`select t.id, w.name as "whatsappName", c.name as "contactName", u.name as "userName", q.name as "queueName", q.color as "queueColor",
      t.last_message as "lastMessage", t.uuid,
      case t.status when 'open' then 'ABERTO' when 'closed' then 'FECHADO' when 'pending' then 'PENDENTE' else upper(t.status) end as status,
      to_char(t.created_at at time zone ${timeZone}, 'DD/MM/YYYY HH24:MI') as "createdAt",
      to_char(t.closed_at at time zone ${timeZone}, 'DD/MM/YYYY HH24:MI') as "closedAt"
    from tickets t
    join contacts c on c.id = t.contact_id
    left join whatsapps w on w.id = t.whatsapp_id
    left join users u on u.id = t.user_id
    left join queues q on q.id = t.queue_id
    where ${where}
    order by t.created_at desc, t.id desc
    limit ${pageSize} offset ${(page - 1) * pageSize}`,
  );
  return { tickets: list, total: total?.total ?? 0 };
}
