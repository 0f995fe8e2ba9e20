import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import type { ScheduleRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';

/**
 * The SLA sweep's queries. They look across companies (like the automation's timers) to find due work;
 * every write names the company of the row it found.
 */

async function rows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const asDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

export interface ClockToStart {
  id: number;
  companyId: number;
  startedAt: Date;
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
  warnPercent: number;
  /** The hours the company's `scheduleType` setting puts in use: the queue's, the company's, or none (calendar time). */
  schedules: ScheduleRow[];
  timeZone: string;
}

/** Tickets whose clock started and whose due instants are not written yet (sla_pending). */
export async function clocksToStart(db: DbOrTx, limit: number): Promise<ClockToStart[]> {
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select t.id, t.company_id, t.sla_started_at, q.sla_first_response_minutes, q.sla_resolution_minutes, q.sla_warn_percent,
        case coalesce(st.value, 'disabled') when 'queue' then q.schedules when 'company' then c.schedules else '[]'::jsonb end as schedules, c.timezone
      from tickets t join queues q on q.id = t.queue_id and q.company_id = t.company_id join companies c on c.id = t.company_id
        left join settings st on st.company_id = t.company_id and st.key = 'scheduleType'
      where t.sla_pending order by t.id limit ${limit}`,
  );
  return found.map((row) => ({
    id: Number(row.id),
    companyId: Number(row.company_id),
    startedAt: asDate(row.sla_started_at) ?? new Date(0),
    firstResponseMinutes: row.sla_first_response_minutes === null ? null : Number(row.sla_first_response_minutes),
    resolutionMinutes: row.sla_resolution_minutes === null ? null : Number(row.sla_resolution_minutes),
    warnPercent: Number(row.sla_warn_percent),
    schedules: (typeof row.schedules === 'string' ? JSON.parse(row.schedules) : row.schedules) as ScheduleRow[],
    timeZone: String(row.timezone),
  }));
}

interface ClockDues {
  firstResponseDueAt: Date | null;
  firstResponseWarnAt: Date | null;
  resolutionDueAt: Date | null;
  resolutionWarnAt: Date | null;
}

/** Writes a clock's due instants, unless the clock started again meanwhile (another queue, a reopen); PostgreSQL keeps microseconds, a Date milliseconds. */
export async function writeClockDues(db: DbOrTx, scope: TenantScope, ticketId: number, startedAt: Date, dues: ClockDues): Promise<void> {
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  await db.execute(sql`update tickets set sla_pending = false,
      sla_first_response_due_at = ${iso(dues.firstResponseDueAt)}::timestamptz, sla_first_response_warn_at = ${iso(dues.firstResponseWarnAt)}::timestamptz,
      sla_resolution_due_at = ${iso(dues.resolutionDueAt)}::timestamptz, sla_resolution_warn_at = ${iso(dues.resolutionWarnAt)}::timestamptz
    where id = ${ticketId} and company_id = ${scope.companyId} and sla_pending
      and date_trunc('milliseconds', sla_started_at) = ${startedAt.toISOString()}::timestamptz`);
}

/** A pending ticket whose queue was deleted keeps no clock. */
export async function dropOrphanClocks(db: DbOrTx): Promise<void> {
  await db.execute(sql`update tickets set sla_pending = false, sla_started_at = null where sla_pending and queue_id is null`);
}

type BreachKind = 'first_response' | 'resolution';

interface DueBreach {
  ticketId: number;
  companyId: number;
  kind: BreachKind;
  dueAt: Date;
  userId: number | null;
  queueId: number | null;
}

/** Running targets past their due instant with no breach recorded for that clock yet. */
export async function dueBreaches(db: DbOrTx, now: Date, limit: number): Promise<DueBreach[]> {
  const at = now.toISOString();
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select t.id, t.company_id, t.user_id, t.queue_id, k.kind, k.due_at
      from tickets t cross join lateral (values
        ('first_response', case when t.sla_first_responded_at is null then t.sla_first_response_due_at end),
        ('resolution', t.sla_resolution_due_at)) as k(kind, due_at)
      where t.sla_due_at <= ${at}::timestamptz and k.due_at <= ${at}::timestamptz
        and not exists (select 1 from ticket_sla_breaches b where b.ticket_id = t.id and b.kind = k.kind and b.due_at = k.due_at)
      order by k.due_at, t.id limit ${limit}`,
  );
  return found.map((row) => ({
    ticketId: Number(row.id),
    companyId: Number(row.company_id),
    kind: row.kind as BreachKind,
    dueAt: asDate(row.due_at) ?? new Date(0),
    userId: row.user_id === null ? null : Number(row.user_id),
    queueId: row.queue_id === null ? null : Number(row.queue_id),
  }));
}

/** Records a breach; null when it was recorded already (another node, a retried run): that writer notifies. */
export async function insertBreach(db: DbOrTx, scope: TenantScope, breach: DueBreach, breachedAt: Date): Promise<number | null> {
  const inserted = await rows<{ id: number }>(
    db,
    sql`insert into ticket_sla_breaches (company_id, ticket_id, kind, due_at, breached_at, user_id, queue_id)
      values (${scope.companyId}, ${breach.ticketId}, ${breach.kind}, ${breach.dueAt.toISOString()}::timestamptz, ${breachedAt.toISOString()}::timestamptz, ${breach.userId}, ${breach.queueId})
      on conflict (ticket_id, kind, due_at) do nothing returning id`,
  );
  return inserted[0] ? Number(inserted[0].id) : null;
}

/**
 * Who hears of a queue's breach: the assigned agent and the queue's admins (admins among the queue's users;
 * when the queue has none, every admin of the company, so a breach is never unheard).
 */
export async function breachRecipients(db: DbOrTx, scope: TenantScope, queueId: number | null, userId: number | null): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`with queue_admins as (
        select u.id from users u join user_queues uq on uq.user_id = u.id and uq.company_id = u.company_id
        where u.company_id = ${scope.companyId} and u.profile = 'admin' and uq.queue_id = ${queueId})
      select id from queue_admins
      union select u.id from users u where u.company_id = ${scope.companyId} and u.profile = 'admin' and not exists (select 1 from queue_admins)
      union select u.id from users u where u.company_id = ${scope.companyId} and u.id = ${userId}`,
  );
  return found.map((row) => Number(row.id)).sort((a, b) => a - b);
}

export interface BreachDetail {
  id: number;
  ticketId: number;
  ticketUuid: string;
  contactName: string;
  kind: BreachKind;
  dueAt: Date;
  breachedAt: Date;
  userId: number | null;
  queueId: number | null;
  queueName: string | null;
}

function toBreachDetail(row: Record<string, unknown>): BreachDetail {
  return {
    id: Number(row.id),
    ticketId: Number(row.ticket_id),
    ticketUuid: String(row.uuid),
    contactName: String(row.contact_name),
    kind: row.kind as BreachKind,
    dueAt: asDate(row.due_at) ?? new Date(0),
    breachedAt: asDate(row.breached_at) ?? new Date(0),
    userId: row.user_id === null ? null : Number(row.user_id),
    queueId: row.queue_id === null ? null : Number(row.queue_id),
    queueName: row.queue_name === null || row.queue_name === undefined ? null : String(row.queue_name),
  };
}

const BREACH_COLUMNS = sql`b.id, b.ticket_id, t.uuid, c.name as contact_name, b.kind, b.due_at, b.breached_at, b.user_id, b.queue_id, q.name as queue_name
  from ticket_sla_breaches b join tickets t on t.id = b.ticket_id join contacts c on c.id = t.contact_id left join queues q on q.id = b.queue_id`;

export async function findBreach(db: DbOrTx, scope: TenantScope, id: number): Promise<BreachDetail | null> {
  const [row] = await rows<Record<string, unknown>>(db, sql`select ${BREACH_COLUMNS} where b.company_id = ${scope.companyId} and b.id = ${id}`);
  return row ? toBreachDetail(row) : null;
}

/** The breaches a user was told of (the rule of `breachRecipients`), newest first. */
export async function listBreachesFor(db: DbOrTx, scope: TenantScope, user: { id: number; profile: string }, since: Date, limit: number): Promise<BreachDetail[]> {
  const admin = user.profile === 'admin';
  const found = await rows<Record<string, unknown>>(
    db,
    sql`select ${BREACH_COLUMNS}
      where b.company_id = ${scope.companyId} and b.breached_at >= ${since.toISOString()}::timestamptz
        and (b.user_id = ${user.id} or (${admin} and (
          exists (select 1 from user_queues uq where uq.user_id = ${user.id} and uq.queue_id = b.queue_id)
          or not exists (select 1 from user_queues uq join users u on u.id = uq.user_id where uq.queue_id = b.queue_id and u.profile = 'admin'))))
      order by b.breached_at desc, b.id desc limit ${limit}`,
  );
  return found.map(toBreachDetail);
}

export interface SlaTallyRow {
  queueId: number | null;
  queueName: string | null;
  queueColor: string | null;
  userId: number | null;
  userName: string | null;
  day: string | null;
  group: 'queue' | 'agent' | 'day' | 'total';
  firstResponseMet: number;
  firstResponseMissed: number;
  resolutionMet: number;
  resolutionMissed: number;
}

/**
 * Targets due from `from` (inclusive) to `to` (exclusive), judged at `now`: met when answered (first response)
 * or closed (resolution) by the due instant; missed when done later, or not done by the due instant (before
 * the ticket closed, for a first response). Counted per queue, per agent (the ticket's), per due day in `timeZone`.
 */
export async function slaTallies(db: DbOrTx, scope: TenantScope, range: { from: Date; to: Date; timeZone: string; queueIds?: number[] }, now: Date): Promise<SlaTallyRow[]> {
  const queueFilter = range.queueIds?.length ? sql`and t.queue_id = any(${`{${range.queueIds.join(',')}}`}::int[])` : sql``;
  const at = now.toISOString();
  const found = await rows<Record<string, unknown>>(
    db,
    sql`with judged as (
        select t.queue_id, t.user_id, k.kind, to_char(k.due_at at time zone ${range.timeZone}, 'YYYY-MM-DD') as day,
          case when k.done_at is not null and k.done_at <= k.due_at then 'met'
            when k.done_at is not null or k.due_at <= coalesce(t.closed_at, ${at}::timestamptz) then 'missed' end as outcome
        from tickets t cross join lateral (values
          ('first_response', t.sla_first_response_due_at, t.sla_first_responded_at),
          ('resolution', t.sla_resolution_due_at, case when t.status = 'closed' then t.closed_at end)) as k(kind, due_at, done_at)
        where t.company_id = ${scope.companyId} and k.due_at >= ${range.from.toISOString()}::timestamptz and k.due_at < ${range.to.toISOString()}::timestamptz ${queueFilter})
      select grouping(j.queue_id) as gq, grouping(j.user_id) as gu, grouping(j.day) as gd, j.queue_id, q.name as queue_name, q.color as queue_color,
        j.user_id, u.name as user_name, j.day,
        count(*) filter (where j.kind = 'first_response' and j.outcome = 'met') as frm,
        count(*) filter (where j.kind = 'first_response' and j.outcome = 'missed') as frx,
        count(*) filter (where j.kind = 'resolution' and j.outcome = 'met') as rm,
        count(*) filter (where j.kind = 'resolution' and j.outcome = 'missed') as rx
      from judged j left join queues q on q.id = j.queue_id left join users u on u.id = j.user_id
      where j.outcome is not null
      group by grouping sets ((j.queue_id, q.name, q.color), (j.user_id, u.name), (j.day), ())
      order by j.day nulls last, q.name nulls last, u.name nulls last`,
  );
  return found.map((row) => ({
    queueId: row.queue_id === null ? null : Number(row.queue_id),
    queueName: (row.queue_name as string | null) ?? null,
    queueColor: (row.queue_color as string | null) ?? null,
    userId: row.user_id === null ? null : Number(row.user_id),
    userName: (row.user_name as string | null) ?? null,
    day: (row.day as string | null) ?? null,
    group: Number(row.gq) === 0 ? 'queue' : Number(row.gu) === 0 ? 'agent' : Number(row.gd) === 0 ? 'day' : 'total',
    firstResponseMet: Number(row.frm),
    firstResponseMissed: Number(row.frx),
    resolutionMet: Number(row.rm),
    resolutionMissed: Number(row.rx),
  }));
}
