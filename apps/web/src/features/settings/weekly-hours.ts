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
    if (!entry) return { weekday, weekdayEn, startTime: fallback.startTime, endTime: fallback.endTime };
    return { weekday, weekdayEn, startTime: entry.startTime ?? '', endTime: entry.endTime ?? '' };
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

export type HoursError = 'validation.invalidTime' | 'validation.required';

/**
 * A day is either closed (both times empty, or equal, as the default Sunday
 * 00:00–00:00) or open from start to end, each `HH:mm`. One time without the
 * other is refused: the server would read the day as closed, which is not what
 * someone who typed one time meant.
 */
export function validateDay(day: Pick<WeekdayHours, 'startTime' | 'endTime'>): { startTime?: HoursError; endTime?: HoursError } {
  const start = day.startTime.trim();
  const end = day.endTime.trim();
  if (!start && !end) return {};
  const errors: { startTime?: HoursError; endTime?: HoursError } = {};
  if (!start) errors.startTime = 'validation.required';
  else if (!HH_MM.test(start)) errors.startTime = 'validation.invalidTime';
  if (!end) errors.endTime = 'validation.required';
  else if (!HH_MM.test(end)) errors.endTime = 'validation.invalidTime';
  return errors;
}

/** Per weekday (by `weekdayEn`), the errors of the rows that have any. */
export function validateWeek(rows: readonly WeekdayHours[]): Record<string, { startTime?: HoursError; endTime?: HoursError }> {
  const result: Record<string, { startTime?: HoursError; endTime?: HoursError }> = {};
  for (const row of rows) {
    const errors = validateDay(row);
    if (errors.startTime || errors.endTime) result[row.weekdayEn] = errors;
  }
  return result;
}

/** What `PUT /companies/:id/schedules` and the queue body take: trimmed, in weekday order. */
export function schedulesPayload(rows: readonly WeekdayHours[]): ScheduleEntry[] {
  return rows.map((row) => ({ weekday: row.weekday, weekdayEn: row.weekdayEn, startTime: row.startTime.trim(), endTime: row.endTime.trim() }));
}
