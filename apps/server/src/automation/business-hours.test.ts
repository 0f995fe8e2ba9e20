import { DEFAULT_SCHEDULES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { closedPeriodKey, isOpenAt } from './business-hours.js';

const SP = 'America/Sao_Paulo';
const at = (iso: string) => new Date(iso);

describe('business hours in the company time zone', () => {
  it('reads the default week: Mon–Fri 08–18, Sat 08–12, Sunday closed', () => {
    // 2024-06-03 is a Monday; São Paulo is UTC-3.
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-03T10:59:00Z'))).toBe(false); // 07:59
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-03T11:00:00Z'))).toBe(true); // 08:00
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-03T20:59:00Z'))).toBe(true); // 17:59
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-03T21:00:00Z'))).toBe(false); // 18:00
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-08T14:00:00Z'))).toBe(true); // Saturday 11:00
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-08T15:30:00Z'))).toBe(false); // Saturday 12:30
    expect(isOpenAt(DEFAULT_SCHEDULES, SP, at('2024-06-09T15:00:00Z'))).toBe(false); // Sunday
  });

  it('uses the time zone, not the server clock: the same instant can be Monday in one place and Sunday in another', () => {
    const instant = at('2024-06-03T02:00:00Z'); // Monday 02:00 UTC = Sunday 23:00 in São Paulo
    const allDayMonday = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '00:00', endTime: '23:59' }];
    expect(isOpenAt(allDayMonday, 'UTC', instant)).toBe(true);
    expect(isOpenAt(allDayMonday, SP, instant)).toBe(false);
  });

  it('hours past midnight, empty hours and no configuration', () => {
    const night = [{ weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '22:00', endTime: '06:00' }];
    expect(isOpenAt(night, 'UTC', at('2024-06-07T23:00:00Z'))).toBe(true); // Friday 23:00
    expect(isOpenAt(night, 'UTC', at('2024-06-08T05:00:00Z'))).toBe(true); // Saturday 05:00, still Friday's shift
    expect(isOpenAt(night, 'UTC', at('2024-06-08T07:00:00Z'))).toBe(false);
    expect(isOpenAt([{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '', endTime: '' }], 'UTC', at('2024-06-03T12:00:00Z'))).toBe(false);
    expect(isOpenAt([], 'UTC', at('2024-06-09T12:00:00Z'))).toBe(true);
  });

  it('one closed period from closing time to the next opening, across the night and the weekend', () => {
    const evening = closedPeriodKey(DEFAULT_SCHEDULES, SP, at('2024-06-03T22:00:00Z')); // Monday 19:00
    const dawn = closedPeriodKey(DEFAULT_SCHEDULES, SP, at('2024-06-04T09:00:00Z')); // Tuesday 06:00
    expect(evening).toBe('2024-06-04T08:00');
    expect(dawn).toBe(evening);
    // Saturday afternoon and Sunday wait for Monday.
    expect(closedPeriodKey(DEFAULT_SCHEDULES, SP, at('2024-06-08T18:00:00Z'))).toBe('2024-06-10T08:00');
    expect(closedPeriodKey(DEFAULT_SCHEDULES, SP, at('2024-06-09T18:00:00Z'))).toBe('2024-06-10T08:00');
    const never = DEFAULT_SCHEDULES.map((s) => ({ ...s, startTime: '00:00', endTime: '00:00' }));
    expect(closedPeriodKey(never, SP, at('2024-06-09T18:00:00Z'))).toBe('never');
  });

  it('two intervals a day (whaticket v6): open in the morning and the afternoon, closed over lunch with its own closed period', () => {
    const split = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00', startTimeB: '13:00', endTimeB: '18:00' }];
    expect(isOpenAt(split, 'UTC', at('2024-06-03T09:00:00Z'))).toBe(true);
    expect(isOpenAt(split, 'UTC', at('2024-06-03T12:30:00Z'))).toBe(false);
    expect(isOpenAt(split, 'UTC', at('2024-06-03T13:00:00Z'))).toBe(true);
    expect(isOpenAt(split, 'UTC', at('2024-06-03T18:00:00Z'))).toBe(false);
    expect(closedPeriodKey(split, 'UTC', at('2024-06-03T12:30:00Z'))).toBe('2024-06-03T13:00');
    expect(closedPeriodKey(split, 'UTC', at('2024-06-03T07:00:00Z'))).toBe('2024-06-03T08:00');
    expect(closedPeriodKey(split, 'UTC', at('2024-06-03T19:00:00Z'))).toBe('2024-06-10T08:00');
    // Only the afternoon: the morning left empty, as v6 sends a closed interval.
    const afternoon = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '', endTime: '', startTimeB: '14:00', endTimeB: '16:00' }];
    expect(isOpenAt(afternoon, 'UTC', at('2024-06-03T09:00:00Z'))).toBe(false);
    expect(isOpenAt(afternoon, 'UTC', at('2024-06-03T15:00:00Z'))).toBe(true);
  });
});
