import { describe, expect, it } from 'vitest';
import { signupPhone } from './billing-schemas.js';
import { CompanyBody } from './schemas.js';
import { isCalendarDate, isDateTime, isTimeZone } from './validation.js';

describe('calendar dates, date-times and time zones', () => {
  it('accepts only real days of the years 0001 to 9999', () => {
    expect(['2026-01-31', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31'].map(isCalendarDate)).toEqual([true, true, true, true, true]);
    expect(['2026-02-29', '1900-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '2026-1-1', '20260101', ' 2026-01-01'].map(isCalendarDate)).toEqual(
      Array(11).fill(false),
    );
  });

  it('accepts ISO date-times on real days with real times', () => {
    expect(['2026-01-31T10:00', '2026-01-31 23:59:59', '2026-01-31T10:00:00.123Z', '2026-01-31T10:00:00-03:00', '2026-01-31T10:00+0530'].map(isDateTime)).toEqual([true, true, true, true, true]);
    expect(['2026-02-30T10:00', '2026-01-31T24:00', '2026-01-31T10:60', '2026-01-31T10:00:61', '2026-01-31', '2026-01-31T10:00+25:00'].map(isDateTime)).toEqual(Array(6).fill(false));
  });

  it('accepts IANA time zone names only', () => {
    expect(['America/Sao_Paulo', 'UTC', 'Europe/Lisbon', 'America/Argentina/Buenos_Aires', 'Etc/GMT+3'].map(isTimeZone)).toEqual([true, true, true, true, true]);
    expect(['Nowhere/City', 'America/Sao Paulo', '+03:00', 'GMT+3', '', "UTC'; drop table x; --", 'a'.repeat(65)].map(isTimeZone)).toEqual(Array(7).fill(false));
  });

  it('a company due date: empty or not a date is null (spec), an impossible or unstorable one is refused', () => {
    const dueDate = CompanyBody.shape.dueDate;
    expect(dueDate.parse('2026-03-01')).toBe('2026-03-01');
    expect(dueDate.parse('')).toBeNull();
    expect(dueDate.parse('soon')).toBeNull();
    for (const bad of ['2026-02-30', '2026-13-01', '0000-01-01', '9999-12-31T23:00:00-14:00', 1e15]) expect(dueDate.safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe('the sign-up phone', () => {
  it('takes the mask’s 10 or 11 digits, and the same number with 55 in front as whaticket v6 sends it', () => {
    expect(signupPhone().parse('(11) 98765-4321')).toBe('11987654321');
    expect(signupPhone().parse('5511987650009')).toBe('11987650009');
    expect(signupPhone().parse('551133334444')).toBe('1133334444');
    for (const refused of ['123', '119876543210', '5511', '44 20 7946 0958 123']) expect(signupPhone().safeParse(refused).success, refused).toBe(false);
  });
});
