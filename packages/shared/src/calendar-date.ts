/**
 * Days and wall clocks in a time zone (DECISIONS 7 and 15), zod-free so the web's
 * first-visit bundle can use it. A calendar date is `YYYY-MM-DD` (a due date, a
 * trial's end): a day, never an instant, so it is never moved through a zone. An
 * instant is read in the company's zone to know its day or its clock.
 */

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The wall clock of an instant in a zone. */
export function wallClockIn(date: Date, timeZone: string): WallClock {
  const result: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(date)) if (part.type !== 'literal') result[part.type] = Number(part.value);
  return { year: result.year ?? 1970, month: result.month ?? 1, day: result.day ?? 1, hour: result.hour ?? 0, minute: result.minute ?? 0, second: result.second ?? 0 };
}

const pad = (value: number) => String(value).padStart(2, '0');
const padYear = (value: number) => String(value).padStart(4, '0');

function calendarParts(value: string): { year: number; month: number; day: number } | null {
  const match = CALENDAR_DATE.exec(value);
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
}

/** Whether a value is written as a calendar date (`YYYY-MM-DD`), not an instant. */
export function isCalendarDateText(value: unknown): value is string {
  return typeof value === 'string' && CALENDAR_DATE.test(value);
}

/** The day (`YYYY-MM-DD`) an instant falls on in a zone. */
export function dayIn(date: Date, timeZone: string): string {
  const p = wallClockIn(date, timeZone);
  return `${padYear(p.year)}-${pad(p.month)}-${pad(p.day)}`;
}

/** Days from calendar date `from` to calendar date `to`. */
export function daysBetween(from: string, to: string): number {
  const a = calendarParts(from);
  const b = calendarParts(to);
  if (!a || !b) return Number.NaN;
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

/** A calendar date moved by whole months, then days (31 Jan + 1 month = the last day of February). */
export function addToCalendarDate(day: string, amount: { days?: number; months?: number }): string {
  const p = calendarParts(day);
  if (!p) return day;
  const target = new Date(Date.UTC(p.year, p.month - 1 + (amount.months ?? 0), 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const moved = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(p.day, lastDay) + (amount.days ?? 0)));
  return `${padYear(moved.getUTCFullYear())}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`;
}

/** The instant a wall clock time happens in a zone (the earlier one when a DST change repeats it). */
export function instantOfWallClock(clock: Omit<WallClock, 'second'> & { second?: number }, timeZone: string): Date {
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second ?? 0);
  // The zone's offset near that moment, found twice so a DST change on the day is met.
  let guess = asUtc;
  for (let i = 0; i < 2; i += 1) {
    const w = wallClockIn(new Date(guess), timeZone);
    guess = asUtc - (Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - guess);
  }
  return new Date(guess);
}

/** The instant a day begins in a zone: e.g. when a company whose due date is D stops working (the start of D + 1). */
export function startOfDayIn(day: string, timeZone: string): Date {
  const p = calendarParts(day);
  if (!p) return new Date(Number.NaN);
  return instantOfWallClock({ ...p, hour: 0, minute: 0 }, timeZone);
}
