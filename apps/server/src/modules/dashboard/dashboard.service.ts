import type { Platform } from '../../platform/platform.js';
import type { TenantScope } from '../../platform/http/context.js';
import { resolveRange } from './dashboard.policy.js';
import {
  attendantTotals,
  companyTimeZone,
  counterTotals,
  firstResponseBuckets,
  leadTotal,
  platformTotals,
  ticketsPerBucket,
  ticketsPerUser,
  type Range,
  type Row,
} from './dashboard.repo.js';
import type { DashboardChartQuery, DashboardQuery } from './dashboard.schemas.js';

export type DashboardDeps = Pick<Platform, 'db'>;

/** `GET /dashboard`: the counters' totals and the attendants of the range; a super user also gets the platform's totals. */
export async function readDashboard(deps: DashboardDeps, scope: TenantScope, query: DashboardQuery, platformWide = false) {
  const timeZone = await companyTimeZone(deps.db, scope);
  const range = resolveRange(timeZone, { days: query.days, from: query.date_from, to: query.date_to });
  const filters = { queueIds: query.queueIds, whatsappIds: query.whatsappIds };
  const [[totals, buckets, leads], attendants, platform] = await Promise.all([
    readCounters(deps, scope, range, filters),
    attendantTotals(deps.db, scope, range, filters),
    platformWide ? platformTotals(deps.db) : undefined,
  ]);
  return { totals, buckets, leads, attendants, range, platform };
}

/** The counters' three reads, one after the other (as one part of the dashboard's answer). */
async function readCounters(deps: DashboardDeps, scope: TenantScope, range: Range, filters: { queueIds?: number[]; whatsappIds?: number[] }): Promise<[Row | undefined, Row[], Row | undefined]> {
  const totals = await counterTotals(deps.db, scope, range, filters);
  const buckets = await firstResponseBuckets(deps.db, scope, range, filters);
  const leads = await leadTotal(deps.db, scope, range, filters);
  return [totals, buckets, leads];
}

/** `GET /dashboard/ticketsUsers`: cycles per agent in the range, most first. */
export async function readTicketsUsers(deps: DashboardDeps, scope: TenantScope, query: DashboardChartQuery): Promise<Row[]> {
  const timeZone = await companyTimeZone(deps.db, scope);
  const range = resolveRange(timeZone, { from: query.initialDate, to: query.finalDate });
  return ticketsPerUser(deps.db, scope, range, { queueIds: query.queueIds, whatsappIds: query.whatsappIds });
}

/** `GET /dashboard/ticketsDay`: cycles queued per day of the range, or per hour when it is one day. */
export async function readTicketsDay(deps: DashboardDeps, scope: TenantScope, query: DashboardChartQuery): Promise<{ list: Row[]; range: Range; perHour: boolean }> {
  const timeZone = await companyTimeZone(deps.db, scope);
  const range = resolveRange(timeZone, { from: query.initialDate, to: query.finalDate });
  const perHour = range.from === range.to;
  const list = await ticketsPerBucket(deps.db, scope, range, { queueIds: query.queueIds, whatsappIds: query.whatsappIds }, perHour);
  return { list, range, perHour };
}
