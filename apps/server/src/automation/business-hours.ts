import type { ScheduleRow } from '../platform/db/schema.js';

/**
 * Business hours (spec part 2 §2.3, §2.15, §9): one entry per weekday, Monday to
 * Sunday, `HH:mm` start and end in the company's time zone (decision 7), and an
 * optional second interval (`startTimeB`–`endTimeB`, whaticket v6's afternoon). An
 * interval whose start equals its end (the spec's Sunday 00:00–00:00) or that has no
 * times is closed; an end before the start runs past midnight; no entries at all
 * means hours are not configured, so always open.
 */

const WEEKDAYS_EN = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

interface LocalDay {
  /** yyyy-MM-dd in the time zone. */
  date: string;
  weekday: (typeof WEEKDAYS_EN)[number];
  /** Minutes since local midnight. */
  minutes: number;
}

function localDay(now: Date, timeZone: string): LocalDay {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  const date = `${get('year')}-${get('month')}-${get('day')}`;
  return { date, weekday: weekdayOf(date), minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

function weekdayOf(date: string): LocalDay['weekday'] {
  const [y, m, d] = date.split('-').map(Number);
  return WEEKDAYS_EN[new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay()] ?? 'sunday';
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

function toMinutes(time: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(time.trim());
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}

interface DayHours {
  start: number;
  end: number;
}

function interval(startTime: string | undefined, endTime: string | undefined): DayHours | null {
  const start = toMinutes(startTime ?? '');
  const end = toMinutes(endTime ?? '');
  if (start === null || end === null || start === end) return null;
  // 23:59 closes at the end of the day, not one minute before it.
  return { start, end: end === 23 * 60 + 59 ? 24 * 60 : end };
}

/** The day's open intervals (none, one or two: the morning's and the afternoon's), earliest first. */
function hoursOf(schedules: ScheduleRow[], weekday: string): DayHours[] {
  const entry = schedules.find((s) => s.weekdayEn === weekday);
  if (!entry) return [];
  return [interval(entry.startTime, entry.endTime), interval(entry.startTimeB, entry.endTimeB)].filter((h): h is DayHours => h !== null).sort((a, b) => a.start - b.start);
}

export function hoursConfigured(schedules: readonly ScheduleRow[] | null | undefined): schedules is ScheduleRow[] {
  return Array.isArray(schedules) && schedules.length > 0;
}

export function isOpenAt(schedules: ScheduleRow[], timeZone: string, now: Date): boolean {
  if (!hoursConfigured(schedules)) return true;
  const today = localDay(now, timeZone);
  const openToday = hoursOf(schedules, today.weekday).some((hours) => (hours.start < hours.end ? today.minutes >= hours.start && today.minutes < hours.end : today.minutes >= hours.start));
  if (openToday) return true;
  // Yesterday's hours may run past midnight into this morning.
  return hoursOf(schedules, weekdayOf(addDays(today.date, -1))).some((hours) => hours.end < hours.start && today.minutes < hours.end);
}

/**
 * Names the closed stretch `now` falls in by the opening that ends it (local
 * `yyyy-MM-ddTHH:mm`), so the out-of-hours notice goes out once per stretch
 * however many messages the customer sends during the night (or the lunch break).
 */
export function closedPeriodKey(schedules: ScheduleRow[], timeZone: string, now: Date): string {
  const today = localDay(now, timeZone);
  for (let offset = 0; offset <= 7; offset++) {
    const date = addDays(today.date, offset);
    const next = hoursOf(schedules, weekdayOf(date)).find((hours) => offset > 0 || hours.start > today.minutes);
    if (!next) continue;
    const hh = String(Math.floor(next.start / 60)).padStart(2, '0');
    const mm = String(next.start % 60).padStart(2, '0');
    return `${date}T${hh}:${mm}`;
  }
  return 'never';
}
