import { DEFAULT_SCHEDULES, WEEKDAYS, type ScheduleEntry } from '@atende/shared';

/** Business hours of one weekday as the forms hold them (the server's `schedules` entry). */
export type WeekdayHours = ScheduleEntry;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Seven rows, Monday to Sunday, from whatever is stored. A day the stored list
 * lacks takes its default hours; nothing stored at all gives the spec's default
 * week (part 2 §9), so a form never starts from a blank week.
 */
export function weekRows(stored: readonly Partial<ScheduleEntry>[] | null | undefined): WeekdayHours[] {
  const list = stored ?? [];
  return WEEKDAYS.map(({ weekday, weekdayEn }, index) => {
    const fallback = DEFAULT_SCHEDULES[index] ?? { startTime: '', endTime: '' };
    const entry = list.find((s) => s.weekdayEn === weekdayEn);
    if (!entry) return { weekday, weekdayEn, startTime: fallback.startTime, endTime: fallback.endTime, startTimeB: '', endTimeB: '' };
    return { weekday, weekdayEn, startTime: entry.startTime ?? '', endTime: entry.endTime ?? '', startTimeB: entry.startTimeB ?? '', endTimeB: entry.endTimeB ?? '' };
  });
}

/**
 * The `##:##` input mask (spec part 2 §2.15): keeps up to four digits and puts
 * the colon after the hours, so typing "0830" shows "08:30".
 */
export function maskTime(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

type HoursError = 'validation.invalidTime' | 'validation.required';

export type HoursField = 'startTime' | 'endTime' | 'startTimeB' | 'endTimeB';
type DayErrors = Partial<Record<HoursField, HoursError>>;

/** One interval: closed (both times empty) or open from start to end, each `HH:mm`; one time without the other is refused. */
function validateInterval(startTime: string, endTime: string, fields: [HoursField, HoursField]): DayErrors {
  const start = startTime.trim();
  const end = endTime.trim();
  if (!start && !end) return {};
  const errors: DayErrors = {};
  if (!start) errors[fields[0]] = 'validation.required';
  else if (!HH_MM.test(start)) errors[fields[0]] = 'validation.invalidTime';
  if (!end) errors[fields[1]] = 'validation.required';
  else if (!HH_MM.test(end)) errors[fields[1]] = 'validation.invalidTime';
  return errors;
}

/**
 * A day has up to two intervals (the morning's and the afternoon's). Each is either
 * closed (both times empty, or equal, as the default Sunday 00:00–00:00) or open from
 * start to end, each `HH:mm`. One time without the other is refused: the server would
 * read the interval as closed, which is not what someone who typed one time meant.
 * Intervals that overlap are read as their union (the server does the same).
 */
export function validateDay(day: Pick<WeekdayHours, 'startTime' | 'endTime'> & Partial<Pick<WeekdayHours, 'startTimeB' | 'endTimeB'>>): DayErrors {
  return { ...validateInterval(day.startTime, day.endTime, ['startTime', 'endTime']), ...validateInterval(day.startTimeB ?? '', day.endTimeB ?? '', ['startTimeB', 'endTimeB']) };
}

/** Per weekday (by `weekdayEn`), the errors of the rows that have any. */
export function validateWeek(rows: readonly WeekdayHours[]): Record<string, DayErrors> {
  const result: Record<string, DayErrors> = {};
  for (const row of rows) {
    const errors = validateDay(row);
    if (Object.keys(errors).length > 0) result[row.weekdayEn] = errors;
  }
  return result;
}

/** What `PUT /companies/:id/schedules` and the queue body take: trimmed, in weekday order. */
export function schedulesPayload(rows: readonly WeekdayHours[]): ScheduleEntry[] {
  return rows.map((row) => ({
    weekday: row.weekday,
    weekdayEn: row.weekdayEn,
    startTime: row.startTime.trim(),
    endTime: row.endTime.trim(),
    startTimeB: row.startTimeB.trim(),
    endTimeB: row.endTimeB.trim(),
  }));
}
