import { describe, expect, it } from 'vitest';
import { addToCalendarDate, dayIn, daysBetween, isCalendarDateText, startOfDayIn } from './calendar-date.js';

describe('calendar dates and zones', () => {
  it('reads the day of an instant in a zone', () => {
    expect(dayIn(new Date('2026-11-02T01:09:00Z'), 'America/Sao_Paulo')).toBe('2026-11-01');
    expect(dayIn(new Date('2026-11-02T01:09:00Z'), 'Asia/Tokyo')).toBe('2026-11-02');
  });

  it('finds when a day begins in a zone, across DST changes', () => {
    expect(startOfDayIn('2026-11-01', 'America/Sao_Paulo').toISOString()).toBe('2026-11-01T03:00:00.000Z');
    expect(startOfDayIn('2026-11-01', 'Asia/Tokyo').toISOString()).toBe('2026-10-31T15:00:00.000Z');
    // New York leaves DST on 1 Nov 2026 at 02:00: the day still starts at 00:00 EDT.
    expect(startOfDayIn('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDayIn('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('moves calendar dates by months (clamped to the month end) and days', () => {
    expect(addToCalendarDate('2026-01-31', { months: 1 })).toBe('2026-02-28');
    expect(addToCalendarDate('2028-01-31', { months: 1 })).toBe('2028-02-29');
    expect(addToCalendarDate('2026-11-30', { months: 3 })).toBe('2027-02-28');
    expect(addToCalendarDate('2026-12-31', { days: 1 })).toBe('2027-01-01');
    expect(addToCalendarDate('2026-03-01', { days: -1 })).toBe('2026-02-28');
    expect(daysBetween('2026-10-27', '2026-11-01')).toBe(5);
    expect(daysBetween('2026-11-01', '2026-10-28')).toBe(-4);
  });

  it('tells a calendar date from an instant', () => {
    expect(isCalendarDateText('2026-11-01')).toBe(true);
    expect(isCalendarDateText('2026-11-01T00:00:00.000Z')).toBe(false);
    expect(isCalendarDateText(null)).toBe(false);
  });
});
