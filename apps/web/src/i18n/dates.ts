import { dayIn, isCalendarDateText, wallClockIn } from '@atende/shared';

/**
 * Every date a person reads or types in the web app goes through here (DECISIONS 7
 * and 15): instants are shown and typed in the company's time zone whatever the
 * browser's, and calendar dates (`YYYY-MM-DD`: due dates) are days, shown as written.
 * The session sets the zone (`setDisplayTimeZone`) before a page renders; signed
 * out (and in tests without a session) the browser's zone is used.
 */

let companyZone: string | null = null;

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Called by the session with the signed-in company's zone (null when signed out). */
export function setDisplayTimeZone(timeZone: string | null | undefined): void {
  companyZone = timeZone || null;
}

/** The zone dates are shown and typed in: the company's, else the browser's. */
export function displayTimeZone(): string {
  return companyZone ?? browserTimeZone();
}

const pad = (value: number) => String(value).padStart(2, '0');

function instant(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The day (`YYYY-MM-DD`) an instant falls on in the zone; a calendar date is its own day. */
export function calendarDay(value: string | Date, timeZone: string = displayTimeZone()): string {
  if (isCalendarDateText(value)) return value;
  const date = instant(value);
  return date ? dayIn(date, timeZone) : '';
}

/** Today in the zone (`YYYY-MM-DD`). */
export function today(timeZone: string = displayTimeZone(), now: Date = new Date()): string {
  return dayIn(now, timeZone);
}

/** DD/MM/yyyy (spec part 1 §1): an instant's day in the zone, a calendar date as written. */
export function formatDate(value: string | Date, timeZone: string = displayTimeZone()): string {
  const day = calendarDay(value, timeZone);
  if (!day) return '';
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/** HH:mm of an instant in the zone. */
export function formatTime(value: string | Date, timeZone: string = displayTimeZone()): string {
  const date = instant(value);
  if (!date) return '';
  const clock = wallClockIn(date, timeZone);
  return `${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** DD/MM/yyyy HH:mm of an instant in the zone. */
export function formatDateTime(value: string | Date, timeZone: string = displayTimeZone()): string {
  const date = instant(value);
  return date ? `${formatDate(date, timeZone)} ${formatTime(date, timeZone)}` : '';
}

/** `yyyy-MM-ddTHH:mm` of an instant in the zone: a datetime-local input's value (the server reads it in the company's zone). */
export function toZonedInput(date: Date, timeZone: string = displayTimeZone()): string {
  return `${dayIn(date, timeZone)}T${formatTime(date, timeZone)}`;
}

/**
 * A Date whose browser-local fields show the instant's wall clock in the zone:
 * what a calendar widget (which lays events out in the browser's time) needs to
 * show company time. `fromWallClock` reads such a Date back.
 */
export function zonedWallClock(date: Date, timeZone: string = displayTimeZone()): Date {
  const p = wallClockIn(date, timeZone);
  return new Date(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The `yyyy-MM-ddTHH:mm` a browser-local Date from a calendar widget shows (a company wall clock). */
export function fromWallClock(date: Date): string {
  return `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
