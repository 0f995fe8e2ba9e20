import { describe, expect, it } from 'vitest';
import { defaultSendAt } from './schedule-time';

describe('schedule times in the company zone', () => {
  it('defaults the send time to now plus one hour (spec part 2 §9), in the company zone', () => {
    expect(defaultSendAt('UTC', new Date('2026-01-31T23:15:00Z'))).toBe('2026-02-01T00:15');
    expect(defaultSendAt('America/Sao_Paulo', new Date('2026-01-31T23:15:00Z'))).toBe('2026-01-31T21:15');
  });
});
