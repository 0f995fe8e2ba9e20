import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './login-limiter.js';

describe('login limiter', () => {
  it('limits per IP and per (email, IP) pair, never per email alone', () => {
    const limiter = createLoginLimiter({ perIp: 5, perEmailIp: 2, windowMs: 60_000 });
    expect([limiter.attempt('1.1.1.1', 'a@x.com'), limiter.attempt('1.1.1.1', 'a@x.com'), limiter.attempt('1.1.1.1', 'a@x.com')]).toEqual([true, true, false]);
    // Many addresses failing one email do not lock it out of another address.
    for (let i = 0; i < 50; i++) limiter.attempt(`2.2.2.${i}`, 'a@x.com');
    expect(limiter.attempt('3.3.3.3', 'a@x.com')).toBe(true);
    // The per-IP limit counts every email from that address.
    expect([limiter.attempt('1.1.1.1', 'b@x.com'), limiter.attempt('1.1.1.1', 'c@x.com'), limiter.attempt('1.1.1.1', 'd@x.com')]).toEqual([true, true, false]);
  });
});
