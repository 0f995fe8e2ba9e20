import { describe, expect, it } from 'vitest';
import { maskTime, schedulesPayload, validateDay, validateWeek, weekRows } from './weekly-hours';

describe('weekly hours', () => {
  it('starts from the default week, Monday to Sunday, when nothing is stored', () => {
    const rows = weekRows([]);
    expect(rows.map((r) => r.weekdayEn)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(rows[0]).toMatchObject({ weekday: 'Segunda-feira', startTime: '08:00', endTime: '18:00' });
    expect(rows[5]).toMatchObject({ startTime: '08:00', endTime: '12:00' });
    expect(rows[6]).toMatchObject({ startTime: '00:00', endTime: '00:00' });
    expect(weekRows(null)).toEqual(rows);
  });

  it('keeps stored days (in weekday order, whatever the stored order) and fills the missing ones', () => {
    const rows = weekRows([
      { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '10:00', endTime: '14:00' },
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '', endTime: '' },
    ]);
    expect(rows[0]).toMatchObject({ weekdayEn: 'monday', startTime: '', endTime: '' });
    expect(rows[1]).toMatchObject({ weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' });
    expect(rows[6]).toMatchObject({ weekdayEn: 'sunday', startTime: '10:00', endTime: '14:00' });
  });

  it('masks typing as ##:##', () => {
    expect(maskTime('0')).toBe('0');
    expect(maskTime('08')).toBe('08');
    expect(maskTime('083')).toBe('08:3');
    expect(maskTime('0830')).toBe('08:30');
    expect(maskTime('08:305')).toBe('08:30');
    expect(maskTime('ab1c2:3x4')).toBe('12:34');
  });

  it('accepts HH:mm pairs and closed days, refuses half-typed or impossible times', () => {
    expect(validateDay({ startTime: '08:00', endTime: '18:00' })).toEqual({});
    expect(validateDay({ startTime: '', endTime: '' })).toEqual({});
    expect(validateDay({ startTime: '22:00', endTime: '02:00' })).toEqual({});
    expect(validateDay({ startTime: '24:00', endTime: '18:00' })).toEqual({ startTime: 'validation.invalidTime' });
    expect(validateDay({ startTime: '08:60', endTime: '8:00' })).toEqual({ startTime: 'validation.invalidTime', endTime: 'validation.invalidTime' });
    expect(validateDay({ startTime: '08:00', endTime: '' })).toEqual({ endTime: 'validation.required' });
    expect(validateDay({ startTime: '', endTime: '08:00' })).toEqual({ startTime: 'validation.required' });
  });

  it('names only the weekdays with errors and sends trimmed rows', () => {
    const rows = weekRows([]);
    rows[2] = { ...rows[2]!, startTime: '7:00' };
    expect(validateWeek(rows)).toEqual({ wednesday: { startTime: 'validation.invalidTime' } });
    rows[2] = { ...rows[2]!, startTime: ' 07:00 ' };
    expect(validateWeek(schedulesPayload(rows))).toEqual({});
    expect(schedulesPayload(rows)[2]).toEqual({ weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '07:00', endTime: '18:00', startTimeB: '', endTimeB: '' });
  });

  it("a second interval a day (whaticket v6's afternoon): read from what is stored, checked like the first, sent with it", () => {
    const rows = weekRows([{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00', startTimeB: '13:00', endTimeB: '18:00' }]);
    expect(rows[0]).toMatchObject({ startTimeB: '13:00', endTimeB: '18:00' });
    expect(rows[1]).toMatchObject({ startTimeB: '', endTimeB: '' });
    expect(validateDay({ startTime: '08:00', endTime: '12:00', startTimeB: '13:00', endTimeB: '' })).toEqual({ endTimeB: 'validation.required' });
    expect(validateDay({ startTime: '', endTime: '', startTimeB: '25:00', endTimeB: '18:00' })).toEqual({ startTimeB: 'validation.invalidTime' });
    expect(validateDay({ startTime: '08:00', endTime: '12:00', startTimeB: '', endTimeB: '' })).toEqual({});
    expect(schedulesPayload(rows)[0]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00', startTimeB: '13:00', endTimeB: '18:00' });
  });
});
