import { DASHBOARD_MAX_DAYS } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { Range } from './dashboard.repo.js';

const DAY_MS = 86_400_000;

/** Today in a time zone, as yyyy-MM-dd. */
function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayString = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

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
