import { count, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { companies, whatsapps } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';

/**
 * The dashboard (issue 21) reads the daily totals (`ticket_cycle_days`,
 * `contact_days`) that database triggers keep from `ticket_cycles` and `contacts`,
 * so a 90-day range reads a few hundred rows instead of every cycle; a one-day
 * chart reads its cycles by hour. Days are the company's (its time zone); every
 * value of the request reaches SQL as a parameter; the company is always the
 * session's.
 */

/** The days a request covers, in the company's time zone (yyyy-MM-dd, both included). */
export interface Range {
  from: string;
  to: string;
  timeZone: string;
}

export interface Filters {
  queueIds?: number[];
  whatsappIds?: number[];
}

/** A row as the database answers it: sums and counts may come as text (bigint, numeric). */
export type Row = Record<string, string | number | boolean | null>;

export async function companyTimeZone(db: Db, scope: TenantScope): Promise<string> {
  const [row] = await db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, scope.companyId));
  return row?.timezone ?? 'America/Sao_Paulo';
}

/** The whole platform's companies and connected connections (a super user's dashboard cards). */
export async function platformTotals(db: Db): Promise<{ totalCompanies: number; totalWhatsappSessions: number }> {
  const [[companyCount], [sessionCount]] = await Promise.all([
    db.select({ n: count() }).from(companies),
    db.select({ n: count() }).from(whatsapps).where(eq(whatsapps.status, 'CONNECTED')),
  ]);
  return { totalCompanies: companyCount?.n ?? 0, totalWhatsappSessions: sessionCount?.n ?? 0 };
}

const idArray = (ids: number[]) => `{${ids.join(',')}}`;

/** The cycles of the company queued in the range, with the filters, as a WHERE clause on `c` (raw cycles). */
function cycleScope(scope: TenantScope, range: Range, filters: Filters): SQL {
  const parts: SQL[] = [
    sql`c.company_id = ${scope.companyId}`,
    sql`c.queued_at >= (${range.from}::date)::timestamp at time zone ${range.timeZone}`,
    sql`c.queued_at < (${range.to}::date + 1)::timestamp at time zone ${range.timeZone}`,
  ];
  if (filters.queueIds) parts.push(sql`c.queue_id = any(${idArray(filters.queueIds)}::int[])`);
  if (filters.whatsappIds) parts.push(sql`c.whatsapp_id = any(${idArray(filters.whatsappIds)}::int[])`);
  return sql.join(parts, sql` and `);
}

/** The daily totals of the range with the filters, as a WHERE clause on `d` (`ticket_cycle_days`). */
function dayScope(scope: TenantScope, range: Range, filters: Filters): SQL {
  const parts: SQL[] = [sql`d.company_id = ${scope.companyId}`, sql`d.day between ${range.from}::date and ${range.to}::date`];
  if (filters.queueIds) parts.push(sql`d.queue_id = any(${idArray(filters.queueIds)}::int[])`);
  if (filters.whatsappIds) parts.push(sql`d.whatsapp_id = any(${idArray(filters.whatsappIds)}::int[])`);
  return sql.join(parts, sql` and `);
}

async function rows<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The counters' sums over the range's daily totals (one row). */
export async function counterTotals(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<Row | undefined> {
  const [row] = await rows<Row>(
    db,
    sql`select sum(d.happening) as happening, sum(d.pending) as pending, sum(d.finished) as finished,
      sum(d.support_seconds) as support_seconds, sum(d.support_count) as support_count,
      sum(d.wait_seconds) as wait_seconds, sum(d.wait_count) as wait_count,
      sum(d.rated_1) as rated_1, sum(d.rated_2) as rated_2, sum(d.rated_3) as rated_3, sum(d.rated_finished) as rated_finished
    from ticket_cycle_days d where ${dayScope(scope, range, filters)}`,
  );
  return row;
}

/** The first-response histogram of the range: one row per bucket with responses (`bucket`, `n`). */
export function firstResponseBuckets(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<Row[]> {
  return rows<Row>(db, sql`select d.bucket, sum(d.n) as n from ticket_cycle_frt d where ${dayScope(scope, range, filters)} group by d.bucket`);
}

/** Contacts created in the range (`total`), on the filtered connections. */
export async function leadTotal(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<Row | undefined> {
  const whatsappFilter = filters.whatsappIds ? sql` and d.whatsapp_id = any(${idArray(filters.whatsappIds)}::int[])` : sql``;
  const [leads] = await rows<Row>(
    db,
    sql`select sum(d.created) as total from contact_days d
      where d.company_id = ${scope.companyId} and d.day between ${range.from}::date and ${range.to}::date${whatsappFilter}`,
  );
  return leads;
}

/** Every user of the company with its cycles, ratings and support time in the range. */
export function attendantTotals(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<Row[]> {
  return rows<Row>(
    db,
    sql`select u.id, u.name, u.online, coalesce(s.tickets, 0) as tickets, s.rated, s.rating_sum, s.support_seconds, s.support_count
    from users u
    left join (
      select d.user_id, sum(d.queued) as tickets, sum(d.rated_1 + d.rated_2 + d.rated_3) as rated,
        sum(d.rated_1 + 2 * d.rated_2 + 3 * d.rated_3) as rating_sum, sum(d.support_seconds) as support_seconds, sum(d.support_count) as support_count
      from ticket_cycle_days d where ${dayScope(scope, range, filters)} and d.user_id <> 0
      group by d.user_id
    ) s on s.user_id = u.id
    where u.company_id = ${scope.companyId}
    order by lower(u.name), u.id`,
  );
}

/** Cycles per agent in the range (`nome`, `quantidade`), most first. */
export function ticketsPerUser(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<Row[]> {
  return rows<Row>(
    db,
    sql`select u.name as nome, sum(d.queued) as quantidade
    from ticket_cycle_days d join users u on u.id = d.user_id and u.company_id = d.company_id
    where ${dayScope(scope, range, filters)}
    group by u.id, u.name having sum(d.queued) > 0 order by sum(d.queued) desc, lower(u.name)`,
  );
}

/**
 * Cycles queued per bucket (`bucket`, `total`): the hour of the day when the range is
 * one day (read from its few cycles), else the day's index in the range (the daily totals).
 */
export function ticketsPerBucket(db: Db, scope: TenantScope, range: Range, filters: Filters, perHour: boolean): Promise<Row[]> {
  return perHour
    ? rows<Row>(db, sql`select extract(hour from c.queued_at at time zone ${range.timeZone})::int as bucket, count(*) as total from ticket_cycles c where ${cycleScope(scope, range, filters)} group by 1`)
    : rows<Row>(db, sql`select (d.day - ${range.from}::date) as bucket, sum(d.queued) as total from ticket_cycle_days d where ${dayScope(scope, range, filters)} group by 1`);
}
