import { afterEach, describe, expect, it } from 'vitest';
import { formatTicketTime } from '../features/tickets/ticket-format';
import { calendarDay, displayTimeZone, formatDate, formatDateTime, formatTime, fromWallClock, setDisplayTimeZone, today, toZonedInput, zonedWallClock } from './dates';

// 01:09 UTC on 2 Nov is 22:09 on 1 Nov in São Paulo and 10:09 on 2 Nov in Tokyo.
const INSTANT = '2026-11-02T01:09:00.000Z';

describe('dates shown in the company zone', () => {
  afterEach(() => setDisplayTimeZone(null));

  it('formats an instant in the zone set by the session, whatever the browser zone', () => {
    setDisplayTimeZone('America/Sao_Paulo');
    expect(displayTimeZone()).toBe('America/Sao_Paulo');
    expect(formatTime(INSTANT)).toBe('22:09');
    expect(formatDate(INSTANT)).toBe('01/11/2026');
    expect(formatDateTime(INSTANT)).toBe('01/11/2026 22:09');
    expect(calendarDay(INSTANT)).toBe('2026-11-01');
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatDateTime(INSTANT)).toBe('02/11/2026 10:09');
    expect(formatDateTime(INSTANT, 'UTC')).toBe('02/11/2026 01:09');
  });

  it('shows a calendar date as written, in any zone', () => {
    for (const zone of ['America/Sao_Paulo', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      setDisplayTimeZone(zone);
      expect(formatDate('2026-11-01')).toBe('01/11/2026');
      expect(calendarDay('2026-11-01')).toBe('2026-11-01');
    }
  });

  it("knows the company's today and a ticket list's time", () => {
    const now = new Date('2026-11-02T01:30:00.000Z');
    expect(today('America/Sao_Paulo', now)).toBe('2026-11-01');
    expect(today('Asia/Tokyo', now)).toBe('2026-11-02');
    expect(formatTicketTime(INSTANT, now, 'America/Sao_Paulo')).toBe('22:09');
    // Same instants, but for a company in Tokyo the ticket is of today too: 10:09.
    expect(formatTicketTime(INSTANT, now, 'Asia/Tokyo')).toBe('10:09');
    expect(formatTicketTime('2026-10-31T12:00:00.000Z', now, 'America/Sao_Paulo')).toBe('31/10/2026');
  });

  it('turns an instant into the wall clock a datetime input or a calendar widget shows, and back', () => {
    const instant = new Date(INSTANT);
    expect(toZonedInput(instant, 'America/Sao_Paulo')).toBe('2026-11-01T22:09');
    expect(toZonedInput(instant, 'Asia/Tokyo')).toBe('2026-11-02T10:09');
    const wall = zonedWallClock(instant, 'America/Sao_Paulo');
    expect([wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes()]).toEqual([2026, 10, 1, 22, 9]);
    expect(fromWallClock(wall)).toBe('2026-11-01T22:09');
  });

  it('answers empty for what is not a date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatTime('x')).toBe('');
  });
});
