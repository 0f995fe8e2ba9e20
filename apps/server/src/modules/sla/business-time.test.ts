import { describe, expect, it } from 'vitest';
import type { ScheduleRow } from '../../platform/db/schema.js';
import { addBusinessMinutes } from './business-time.js';

const day = (weekdayEn: string, startTime: string, endTime: string, startTimeB = '', endTimeB = ''): ScheduleRow => ({ weekday: weekdayEn, weekdayEn, startTime, endTime, startTimeB, endTimeB });

/** Monday to Friday 08:00–12:00 and 13:00–18:00, Saturday 09:00–13:00, Sunday closed. */
const week: ScheduleRow[] = [
  day('monday', '08:00', '12:00', '13:00', '18:00'),
  day('tuesday', '08:00', '12:00', '13:00', '18:00'),
  day('wednesday', '08:00', '12:00', '13:00', '18:00'),
  day('thursday', '08:00', '12:00', '13:00', '18:00'),
  day('friday', '08:00', '12:00', '13:00', '18:00'),
  day('saturday', '09:00', '13:00'),
  day('sunday', '00:00', '00:00'),
];

describe('addBusinessMinutes', () => {
  it('counts calendar minutes without hours', () => {
    expect(addBusinessMinutes(new Date('2026-03-02T10:00:00Z'), 90, null, 'America/Sao_Paulo').toISOString()).toBe('2026-03-02T11:30:00.000Z');
    expect(addBusinessMinutes(new Date('2026-03-02T10:00:00Z'), 90, [], 'Asia/Tokyo').toISOString()).toBe('2026-03-02T11:30:00.000Z');
  });

  it('walks a week schedule in São Paulo (UTC-3, no daylight saving)', () => {
    const tz = 'America/Sao_Paulo';
    // Monday 2026-03-02 11:30 local: 30 min before lunch, then 30 after it.
    expect(addBusinessMinutes(new Date('2026-03-02T14:30:00Z'), 60, week, tz).toISOString()).toBe('2026-03-02T16:30:00.000Z');
    // Friday 17:00 local + 2 h: 1 h on Friday, 1 h on Saturday from 09:00.
    expect(addBusinessMinutes(new Date('2026-03-06T20:00:00Z'), 120, week, tz).toISOString()).toBe('2026-03-07T13:00:00.000Z');
    // Saturday 12:00 + 3 h: 1 h on Saturday, Sunday closed, 2 h from Monday 08:00.
    expect(addBusinessMinutes(new Date('2026-03-07T15:00:00Z'), 180, week, tz).toISOString()).toBe('2026-03-09T13:00:00.000Z');
    // Sunday night: the clock waits for Monday's opening.
    expect(addBusinessMinutes(new Date('2026-03-08T23:00:00Z'), 30, week, tz).toISOString()).toBe('2026-03-09T11:30:00.000Z');
  });

  it('walks the same schedule in a far zone (Tokyo, UTC+9)', () => {
    // Monday 2026-03-02 17:30 in Tokyo = 08:30 UTC; 90 min: 30 on Monday, 60 from Tuesday 08:00 (Monday 23:00 UTC).
    expect(addBusinessMinutes(new Date('2026-03-02T08:30:00Z'), 90, week, 'Asia/Tokyo').toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });

  it('follows an interval past midnight and a daylight-saving change', () => {
    const night = [day('monday', '22:00', '02:00'), day('tuesday', '00:00', '00:00')];
    // Monday 23:00 in UTC+0 + 2 h: one hour on Monday, one after midnight.
    expect(addBusinessMinutes(new Date('2026-03-02T23:00:00Z'), 120, night, 'UTC').toISOString()).toBe('2026-03-03T01:00:00.000Z');
    // New York moves to UTC-4 on Sunday 2026-03-08: Friday 17:00 (UTC-5) + 2 h ends Monday 09:00 (UTC-4).
    expect(addBusinessMinutes(new Date('2026-03-06T22:00:00Z'), 120, week.filter((d) => d.weekdayEn !== 'saturday'), 'America/New_York').toISOString()).toBe('2026-03-09T13:00:00.000Z');
  });

  it('ends on a schedule whose days are all closed', () => {
    const closed = [day('monday', '00:00', '00:00')];
    expect(addBusinessMinutes(new Date('2026-03-02T10:00:00Z'), 30, closed, 'UTC').toISOString()).toBe('2026-03-02T10:30:00.000Z');
  });
});
