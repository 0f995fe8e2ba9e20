import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { createRateLimiter } from '../../platform/http/rate-limiter.js';
import { openTestDatabase } from '../../test/test-database.js';
import { createLoginLimiter } from './login-limiter.js';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('login limiter', () => {
  it('limits per IP and per (email, IP) pair, never per email alone', async () => {
    const limiter = createLoginLimiter(database.db, { perIp: 5, perEmailIp: 2, windowMs: 60_000 });
    const attempts = async (ip: string, emails: string[]) => {
      const answers: boolean[] = [];
      for (const email of emails) answers.push(await limiter.attempt(ip, email));
      return answers;
    };
    expect(await attempts('1.1.1.1', ['a@x.com', 'a@x.com', 'a@x.com'])).toEqual([true, true, false]);
    // Many addresses failing one email do not lock it out of another address.
    for (let i = 0; i < 50; i++) await limiter.attempt(`2.2.2.${i}`, 'a@x.com');
    expect(await limiter.attempt('3.3.3.3', 'a@x.com')).toBe(true);
    // The per-IP limit counts every email from that address.
    expect(await attempts('1.1.1.1', ['b@x.com', 'c@x.com', 'd@x.com'])).toEqual([true, true, false]);
  });
});

describe('rate limiter', () => {
  it('counts one window for every node that shares the database, then starts a new one', async () => {
    // Two API nodes: two limiters of the same name on one database.
    const first = createRateLimiter(database.db, 'shared', 400);
    const second = createRateLimiter(database.db, 'shared', 400);
    expect([await first.hit('9.9.9.9', 3), await second.hit('9.9.9.9', 3), await first.hit('9.9.9.9', 3), await second.hit('9.9.9.9', 3)]).toEqual([true, true, true, false]);
    // Another limiter's counters and another key are apart.
    expect(await createRateLimiter(database.db, 'other', 400).hit('9.9.9.9', 1)).toBe(true);
    expect(await first.hit('8.8.8.8', 3)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await second.hit('9.9.9.9', 3)).toBe(true);
  });

  it('keeps no address or e-mail in clear, and reset forgets only its own counters', async () => {
    const signup = createRateLimiter(database.db, 'signup-test', 60_000);
    const other = createRateLimiter(database.db, 'reset-test', 60_000);
    await signup.hit('203.0.113.7\nana@example.com', 1);
    await other.hit('203.0.113.7', 1);
    const keys = ((await database.db.execute(sql`select key from rate_limits`)) as unknown as { rows: { key: string }[] }).rows.map((row) => row.key);
    expect(keys.some((key) => key.includes('203.0.113.7') || key.includes('ana@'))).toBe(false);
    await signup.reset();
    expect(await signup.hit('203.0.113.7\nana@example.com', 1)).toBe(true);
    expect(await other.hit('203.0.113.7', 1)).toBe(false);
  });
});
