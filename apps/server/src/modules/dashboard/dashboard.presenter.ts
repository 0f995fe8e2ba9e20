import type { DashboardAnswer, DashboardAttendant, DashboardCounters, TicketsDayAnswer, TicketsUsersAnswer } from '@atende/shared';
import { dayNumber, dayString, FRT_BUCKETS, histogramPercentile } from './dashboard.policy.js';
import type { Range, Row } from './dashboard.repo.js';

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const minutes = (seconds: unknown): number => Math.round((num(seconds) / 60) * 100) / 100;
const average = (sum: unknown, count: unknown) => (num(count) ? num(sum) / num(count) : 0);

/** The totals of a range as the dashboard's counters; first-response percentiles from its histogram. */
function presentCounters(row: Row | undefined, buckets: Row[], leads: Row | undefined): DashboardCounters {
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

function presentAttendant(row: Row): DashboardAttendant {
  return {
    id: num(row.id),
    name: String(row.name),
    online: Boolean(row.online),
    tickets: num(row.tickets),
    rating: num(row.rated) ? Math.round((num(row.rating_sum) / num(row.rated)) * 100) / 100 : null,
    avgSupportTime: minutes(average(row.support_seconds, row.support_count)),
  };
}

/** `GET /dashboard`. */
export function presentDashboard(read: {
  totals: Row | undefined;
  buckets: Row[];
  leads: Row | undefined;
  attendants: Row[];
  range: Range;
  platform?: { totalCompanies: number; totalWhatsappSessions: number } | undefined;
}): DashboardAnswer {
  return { counters: { ...presentCounters(read.totals, read.buckets, read.leads), ...read.platform }, attendants: read.attendants.map(presentAttendant), range: read.range };
}

/** `GET /dashboard/ticketsUsers`: cycles per agent and their sum. */
export function presentTicketsUsers(list: Row[]): TicketsUsersAnswer {
  const data = list.map((row) => ({ nome: String(row.nome), quantidade: num(row.quantidade) }));
  return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) };
}

/** `GET /dashboard/ticketsDay`: every hour of the day or every day of the range, gaps as zeros, and the sum. */
export function presentTicketsDay(list: Row[], range: Range, perHour: boolean): TicketsDayAnswer {
  const totals = new Map(list.map((row) => [num(row.bucket), num(row.total)]));
  const size = perHour ? 24 : dayNumber(range.to) - dayNumber(range.from) + 1;
  const data = Array.from({ length: size }, (_, index) =>
    perHour ? { horario: `${String(index).padStart(2, '0')}:00`, total: totals.get(index) ?? 0 } : { data: dayString(dayNumber(range.from) + index), total: totals.get(index) ?? 0 },
  );
  return { data, count: data.reduce((sum, row) => sum + row.total, 0) };
}
