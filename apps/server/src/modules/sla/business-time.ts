import { addToCalendarDate, dayIn, instantOfWallClock } from '@atende/shared';
import type { ScheduleRow } from '../../platform/db/schema.js';

/**
 * SLA time (issue 35): a target of N minutes counts N minutes of the business hours in use
 * (the setting `scheduleType`: the queue's hours, or the company's), walking them in the
 * company's time zone; with hours not in use it counts N minutes of the calendar. Hours are read as the bot reads them
 * (automation/business-hours.ts): one entry per weekday, two intervals, start = end closed,
 * end before start runs past midnight, 23:59 closes at midnight.
 */

const WEEKDAYS_EN = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** How far ahead the walk looks for enough open time (a schedule with a few minutes a week still ends). */
const MAX_DAYS = 366 * 2;

function minutesOf(time: string | undefined): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec((time ?? '').trim());
  if (!match) return null;
  const value = Number(match[1]) * 60 + Number(match[2]);
  return value > 24 * 60 ? null : value;
}

/** The day's intervals as minutes from its local midnight; an overnight one ends after 1440. */
function intervalsOf(schedules: readonly ScheduleRow[], weekday: string): Array<[number, number]> {
  const entry = schedules.find((s) => s.weekdayEn === weekday);
  if (!entry) return [];
  const found: Array<[number, number]> = [];
  for (const [from, to] of [
    [entry.startTime, entry.endTime],
    [entry.startTimeB, entry.endTimeB],
  ] as const) {
    const start = minutesOf(from);
    let end = minutesOf(to);
    if (start === null || end === null || start === end) continue;
    if (end === 23 * 60 + 59) end = 24 * 60;
    found.push([start, end < start ? end + 24 * 60 : end]);
  }
  return found.sort((x, y) => x[0] - y[0]);
}

function weekdayOf(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return WEEKDAYS_EN[new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay()] ?? 'sunday';
}

function instantAt(day: string, minutes: number, timeZone: string): number {
  const [year, month, date] = day.split('-').map(Number);
  return instantOfWallClock({ year: year ?? 1970, month: month ?? 1, day: (date ?? 1) + Math.floor(minutes / 1440), hour: Math.floor((minutes % 1440) / 60), minute: minutes % 60 }, timeZone).getTime();
}

/** The instant `minutes` of open time after `start`. */
export function addBusinessMinutes(start: Date, minutes: number, schedules: readonly ScheduleRow[] | null, timeZone: string): Date {
  if (!schedules || schedules.length === 0) return new Date(start.getTime() + minutes * 60_000);
  let left = minutes * 60_000;
  const from = start.getTime();
  // Yesterday's overnight interval may still be open this morning.
  const first = addToCalendarDate(dayIn(start, timeZone), { days: -1 });
  for (let offset = 0; offset <= MAX_DAYS; offset += 1) {
    const day = addToCalendarDate(first, { days: offset });
    for (const [open, close] of intervalsOf(schedules, weekdayOf(day))) {
      const a = Math.max(instantAt(day, open, timeZone), from);
      const b = instantAt(day, close, timeZone);
      if (b <= a) continue;
      if (b - a >= left) return new Date(a + left);
      left -= b - a;
    }
  }
  // Hours with no open time at all: the target counts calendar time.
  return new Date(from + minutes * 60_000);
}
