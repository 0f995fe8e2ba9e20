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
 * The dashboard (issue 21) reads `ticket_cycles`, which database triggers keep
 * per ticket cycle. Days are the company's (its time zone); every value of the
 * request reaches SQL as a parameter; the company is always the session's.
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

/** The cycles of the company queued in the range, with the filters, as a WHERE clause on `c`. */
function cycleScope(scope: TenantScope, range: Range, filters: Filters): SQL {
  const parts: SQL[] = [
    sql`c.company_id = ${scope.companyId}`,
    sql`c.queued_at >= (${range.from}::date)::timestamp at time zone ${range.timeZone}`,
    sql`c.queued_at < (${range.to}::date + 1)::timestamp at time zone ${range.timeZone}`,
  ];
  if (filters.queueIds) parts.push(sql`c.queue_id = any(${`{${filters.queueIds.join(',')}}`}::int[])`);
  if (filters.whatsappIds) parts.push(sql`c.whatsapp_id = any(${`{${filters.whatsappIds.join(',')}}`}::int[])`);
  return sql.join(parts, sql` and `);
}

type Row = Record<string, string | number | boolean | null>;

async function rows<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const minutes = (seconds: unknown): number => Math.round((num(seconds) / 60) * 100) / 100;
const optionalMinutes = (seconds: unknown): number | null => (seconds === null || seconds === undefined ? null : minutes(seconds));

async function readCounters(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<DashboardCounters> {
  const [row] = await rows<Row>(
    db,
    sql`select
      count(*) filter (where c.started_at is not null and c.finished_at is null) as happening,
      count(*) filter (where c.started_at is null and c.finished_at is null) as pending,
      count(*) filter (where c.finished_at is not null) as finished,
      avg(extract(epoch from c.finished_at - c.started_at)) filter (where c.finished_at is not null and c.started_at is not null) as support_seconds,
      avg(extract(epoch from c.started_at - c.queued_at)) filter (where c.started_at is not null) as wait_seconds,
      percentile_cont(0.5) within group (order by extract(epoch from c.first_response_at - c.queued_at)) filter (where c.first_response_at is not null) as first_median,
      percentile_cont(0.9) within group (order by extract(epoch from c.first_response_at - c.queued_at)) filter (where c.first_response_at is not null) as first_p90,
      count(*) filter (where c.rating = 1) as rated_1,
      count(*) filter (where c.rating = 2) as rated_2,
      count(*) filter (where c.rating = 3) as rated_3,
      count(*) filter (where c.rating is not null and c.finished_at is not null) as rated_finished
    from ticket_cycles c where ${cycleScope(scope, range, filters)}`,
  );
  const whatsappFilter = filters.whatsappIds ? sql` and whatsapp_id = any(${`{${filters.whatsappIds.join(',')}}`}::int[])` : sql``;
  const [leads] = await rows<Row>(
    db,
    sql`select count(*) as total from contacts
      where company_id = ${scope.companyId} and is_group = false
        and created_at >= (${range.from}::date)::timestamp at time zone ${range.timeZone}
        and created_at < (${range.to}::date + 1)::timestamp at time zone ${range.timeZone}${whatsappFilter}`,
  );
  const finished = num(row?.finished);
  return {
    supportHappening: num(row?.happening),
    supportPending: num(row?.pending),
    supportFinished: finished,
    leads: num(leads?.total),
    avgSupportTime: minutes(row?.support_seconds),
    avgWaitTime: minutes(row?.wait_seconds),
    firstResponseMedian: optionalMinutes(row?.first_median),
    firstResponseP90: optionalMinutes(row?.first_p90),
    ratings: { 1: num(row?.rated_1), 2: num(row?.rated_2), 3: num(row?.rated_3) },
    ratingResponseRate: finished ? Math.round((num(row?.rated_finished) / finished) * 1000) / 10 : 0,
  };
}

async function readAttendants(db: Db, scope: TenantScope, range: Range, filters: Filters): Promise<DashboardAttendant[]> {
  const list = await rows<Row>(
    db,
    sql`select u.id, u.name, u.online, coalesce(s.tickets, 0) as tickets, s.rating, s.support_seconds
    from users u
    left join (
      select c.user_id, count(*) as tickets, avg(c.rating) as rating,
        avg(extract(epoch from c.finished_at - c.started_at)) filter (where c.finished_at is not null and c.started_at is not null) as support_seconds
      from ticket_cycles c where ${cycleScope(scope, range, filters)} and c.user_id is not null
      group by c.user_id
    ) s on s.user_id = u.id
    where u.company_id = ${scope.companyId}
    order by lower(u.name), u.id`,
  );
  return list.map((row) => ({
    id: num(row.id),
    name: String(row.name),
    online: Boolean(row.online),
    tickets: num(row.tickets),
    rating: row.rating === null ? null : Math.round(num(row.rating) * 100) / 100,
    avgSupportTime: minutes(row.support_seconds),
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
    sql`select u.name as nome, count(*) as quantidade
    from ticket_cycles c join users u on u.id = c.user_id and u.company_id = c.company_id
    where ${cycleScope(scope, range, query)}
    group by u.id, u.name order by count(*) desc, lower(u.name)`,
  );
  const data = list.map((row) => ({ nome: String(row.nome), quantidade: num(row.quantidade) }));
  return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) };
}

/** `GET /dashboard/ticketsDay`: cycles queued per day of the range, or per hour when it is one day; gaps are zeros. */
export async function readTicketsDay(services: AppServices, scope: TenantScope, query: DashboardChartQuery): Promise<TicketsDayAnswer> {
  const timeZone = await companyTimeZone(services.db, scope);
  const range = resolveRange(timeZone, { from: query.initialDate, to: query.finalDate });
  const perHour = range.from === range.to;
  const bucket = perHour ? sql`extract(hour from c.queued_at at time zone ${timeZone})::int` : sql`((c.queued_at at time zone ${timeZone})::date - ${range.from}::date)`;
  const list = await rows<Row>(services.db, sql`select ${bucket} as bucket, count(*) as total from ticket_cycles c where ${cycleScope(scope, range, query)} group by 1`);
  const totals = new Map(list.map((row) => [num(row.bucket), num(row.total)]));
  const size = perHour ? 24 : dayNumber(range.to) - dayNumber(range.from) + 1;
  const data = Array.from({ length: size }, (_, index) =>
    perHour ? { horario: `${String(index).padStart(2, '0')}:00`, total: totals.get(index) ?? 0 } : { data: dayString(dayNumber(range.from) + index), total: totals.get(index) ?? 0 },
  );
  return { data, count: data.reduce((sum, row) => sum + row.total, 0) };
}
