import {
  DASHBOARD_MAX_DAYS,
  type DashboardAnswer,
  type DashboardAttendant,
  type DashboardCounters,
  type TicketsDayAnswer,
  type TicketsUsersAnswer,
} from '@atende/shared';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import type { Db } from '../../platform/db/client.js';
import { companies } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { DashboardChartQuery, DashboardQuery } from './dashboard.schemas.js';

/**
 * The dashboard (issue 21) reads the daily totals (`ticket_cycle_days`,
 * `contact_days`) that database triggers keep from `ticket_cycles` and `contacts`,
 * so a 90-day range reads a few hundred rows instead of every cycle; a one-day
 * chart reads its cycles by hour. Days are the company's (its time zone); every
 * value of the request reaches SQL as a parameter; the company is always the
 * session's.
 */

interface Range {
  from: string;
  to: string;
  timeZone: string;
}

interface Filters {
  queueIds?: number[];
  whatsappIds?: number[];
}

const DAY_MS = 86_400_000;

/** Today in a time zone, as yyyy-MM-dd. */
function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayString = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

async function companyTimeZone(db: Db, scope: TenantScope): Promise<string> {
  const [row] = await db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, scope.companyId));
  return row?.timezone ?? 'America/Sao_Paulo';
}

/**
 * The days a request covers: the last `days` days (today included), or
 * `from`..`to`; a missing end is today, a missing start the first day of the end's
 * month (spec part 1 §9: the default is this month so far).
 */
export function resolveRange(timeZone: string, input: { days?: number; from?: string; to?: string }, now = new Date()): Range {
  const today = todayIn(timeZone, now);
  let to = input.to ?? today;
  let from = input.from ?? `${to.slice(0, 8)}01`;
  if (input.days && !input.from && !input.to) {
    to = today;
    from = dayString(dayNumber(today) - (input.days - 1));
  }
  if (dayNumber(from) > dayNumber(to)) throw new AppError('ERR_VALIDATION', undefined, { message: 'The start comes after the end', fields: { date_from: ['validation.invalidDate'] } });
  if (dayNumber(to) - dayNumber(from) + 1 > DASHBOARD_MAX_DAYS) {
    throw new AppError('ERR_VALIDATION', undefined, { message: `At most ${DASHBOARD_MAX_DAYS} days at once`, fields: { date_from: ['validation.tooLong'] } });
  }
  return { from, to, timeZone };
}

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

const idArray = (ids: number[]) => `{${ids.join(',')}}`;

/** The daily totals of the range with the filters, as a WHERE clause on `d` (`ticket_cycle_days`). */
function dayScope(scope: TenantScope, range: Range, filters: Filters): SQL {
  const parts: SQL[] = [sql`d.company_id = ${scope.companyId}`, sql`d.day between ${range.from}::date and ${range.to}::date`];
  if (filters.queueIds) parts.push(sql`d.queue_id = any(${idArray(filters.queueIds)}::int[])`);
  if (filters.whatsappIds) parts.push(sql`d.whatsapp_id = any(${idArray(filters.whatsappIds)}::int[])`);
  return sql.join(parts, sql` and `);
}

type Row = Record<string, string | number | boolean | null>;

async function rows<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const minutes = (seconds: unknown): number => Math.round((num(seconds) / 60) * 100) / 100;
const average = (sum: unknown, count: unknown) => (num(count) ? num(sum) / num(count) : 0);

/**
 * The first-response histogram's buckets (0-based index → lower bound in seconds),
 * as migration 0020's `frt_bucket` fills them: a minute each under an hour, 15
 * minutes each up to 8 hours, 2 hours each up to 48 hours, then one.
 */
export const FRT_BUCKETS = 109;
export function frtBucketStart(index: number): number {
  if (index < 60) return index * 60;
  if (index < 88) return 3600 + (index - 60) * 900;
  if (index < 108) return 28_800 + (index - 88) * 7200;
  return 172_800;
}

/**
 * A percentile (0–1) of the first responses in a histogram, as `percentile_cont`
 * would give over the values rounded down to their bucket's start; null when empty.
 */
export function histogramPercentile(counts: number[], fraction: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = fraction * (total - 1);
  const valueAt = (position: number) => {
    let seen = 0;
    for (let index = 0; index < counts.length; index += 1) {
      seen += counts[index] ?? 0;
      if (position < seen) return frtBucketStart(index);
    }
    return frtBucketStart(counts.length - 1);
  };
  const low = valueAt(Math.floor(rank));
  const high = valueAt(Math.ceil(rank));
  return low + (rank - Math.floor(rank)) * (high - low);
}

async function readCounters(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<DashboardCounters> {
  const [row] = await rows<Row>(
    db,
    sql`select sum(d.happening) as happening, sum(d.pending) as pending, sum(d.finished) as finished,
      sum(d.support_seconds) as support_seconds, sum(d.support_count) as support_count,
      sum(d.wait_seconds) as wait_seconds, sum(d.wait_count) as wait_count,
      sum(d.rated_1) as rated_1, sum(d.rated_2) as rated_2, sum(d.rated_3) as rated_3, sum(d.rated_finished) as rated_finished
    from ticket_cycle_days d where ${dayScope(scope, range, filters)}`,
  );
  const buckets = await rows<Row>(db, sql`select d.bucket, sum(d.n) as n from ticket_cycle_frt d where ${dayScope(scope, range, filters)} group by d.bucket`);
  const whatsappFilter = filters.whatsappIds ? sql` and d.whatsapp_id = any(${idArray(filters.whatsappIds)}::int[])` : sql``;
  const [leads] = await rows<Row>(
    db,
    sql`select sum(d.created) as total from contact_days d
      where d.company_id = ${scope.companyId} and d.day between ${range.from}::date and ${range.to}::date${whatsappFilter}`,
  );
  const finished = num(row?.finished);
  const frt = new Array<number>(FRT_BUCKETS).fill(0);
  for (const bucket of buckets) frt[num(bucket.bucket)] = num(bucket.n);
  const percentile = (fraction: number) => {
    const seconds = histogramPercentile(frt, fraction);
    return seconds === null ? null : minutes(seconds);
  };
  return {
    supportHappening: num(row?.happening),
    supportPending: num(row?.pending),
    supportFinished: finished,
    leads: num(leads?.total),
    avgSupportTime: minutes(average(row?.support_seconds, row?.support_count)),
    avgWaitTime: minutes(average(row?.wait_seconds, row?.wait_count)),
    firstResponseMedian: percentile(0.5),
    firstResponseP90: percentile(0.9),
    ratings: { 1: num(row?.rated_1), 2: num(row?.rated_2), 3: num(row?.rated_3) },
    ratingResponseRate: finished ? Math.round((num(row?.rated_finished) / finished) * 1000) / 10 : 0,
  };
}

async function readAttendants(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<DashboardAttendant[]> {
  const list = await rows<Row>(
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
  return list.map((row) => ({
    id: num(row.id),
    name: String(row.name),
    online: Boolean(row.online),
    tickets: num(row.tickets),
    rating: num(row.rated) ? Math.round((num(row.rating_sum) / num(row.rated)) * 100) / 100 : null,
    avgSupportTime: minutes(average(row.support_seconds, row.support_count)),
  }));
}

/** `GET /dashboard`: the counters and the attendants of the range. */
export async function readDashboard(services: AppServices, scope: TenantScope, query: DashboardQuery): Promise<DashboardAnswer> {
  const timeZone = await companyTimeZone(services.db, scope);
  const range = resolveRange(timeZone, { days: query.days, from: query.date_from, to: query.date_to });
  const filters = { queueIds: query.queueIds, whatsappIds: query.whatsappIds };
  const [counters, attendants] = await Promise.all([readCounters(services.db, scope, range, filters), readAttendants(services.db, scope, range, filters)]);
  return { counters, attendants, range };
}

/** `GET /dashboard/ticketsUsers`: cycles per agent in the range, most first. */
export async function readTicketsUsers(services: AppServices, scope: TenantScope, query: DashboardChartQuery): Promise<TicketsUsersAnswer> {
  const timeZone = await companyTimeZone(services.db, scope);
  const range = resolveRange(timeZone, { from: query.initialDate, to: query.finalDate });
  const list = await rows<Row>(
    services.db,
    sql`select u.name as nome, sum(d.queued) as quantidade
    from ticket_cycle_days d join users u on u.id = d.user_id and u.company_id = d.company_id
    where ${dayScope(scope, range, query)}
    group by u.id, u.name having sum(d.queued) > 0 order by sum(d.queued) desc, lower(u.name)`,
  );
  const data = list.map((row) => ({ nome: String(row.nome), quantidade: num(row.quantidade) }));
  return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) };
}

/** `GET /dashboard/ticketsDay`: cycles queued per day of the range, or per hour when it is one day; gaps are zeros. */
export async function readTicketsDay(services: AppServices, scope: TenantScope, query: DashboardChartQuery): Promise<TicketsDayAnswer> {
  const timeZone = await companyTimeZone(services.db, scope);
  const range = resolveRange(timeZone, { from: query.initialDate, to: query.finalDate });
  const perHour = range.from === range.to;
  // One day reads its few cycles by hour; longer ranges read the daily totals.
  const list = perHour
    ? await rows<Row>(services.db, sql`select extract(hour from c.queued_at at time zone ${timeZone})::int as bucket, count(*) as total from ticket_cycles c where ${cycleScope(scope, range, query)} group by 1`)
    : await rows<Row>(services.db, sql`select (d.day - ${range.from}::date) as bucket, sum(d.queued) as total from ticket_cycle_days d where ${dayScope(scope, range, query)} group by 1`);
  const totals = new Map(list.map((row) => [num(row.bucket), num(row.total)]));
  const size = perHour ? 24 : dayNumber(range.to) - dayNumber(range.from) + 1;
  const data = Array.from({ length: size }, (_, index) =>
    perHour ? { horario: `${String(index).padStart(2, '0')}:00`, total: totals.get(index) ?? 0 } : { data: dayString(dayNumber(range.from) + index), total: totals.get(index) ?? 0 },
  );
  return { data, count: data.reduce((sum, row) => sum + row.total, 0) };
}
