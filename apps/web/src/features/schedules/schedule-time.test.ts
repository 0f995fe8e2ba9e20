import { describe, expect, it } from 'vitest';
import { defaultSendAt, toLocalInput, zonedWallClock } from './schedule-time';

describe('schedule times in the company zone', () => {
  it('shows an instant as the company wall clock, whatever the browser zone', () => {
    const instant = new Date('2026-03-10T12:30:00Z');
    expect(toLocalInput(instant, 'America/Sao_Paulo')).toBe('2026-03-10T09:30');
    expect(toLocalInput(instant, 'Asia/Tokyo')).toBe('2026-03-10T21:30');
    const wall = zonedWallClock(instant, 'America/Sao_Paulo');
    expect([wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes()]).toEqual([2026, 2, 10, 9, 30]);
  });

  it('defaults the send time to now plus one hour (spec part 2 §9)', () => {
    expect(defaultSendAt('UTC', new Date('2026-01-31T23:15:00Z'))).toBe('2026-02-01T00:15');
  });
});
