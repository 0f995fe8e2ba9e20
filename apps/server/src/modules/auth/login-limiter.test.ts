import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { createRateLimiter } from '../../platform/http/rate-limiter.js';
import { openTestDatabase } from '../../test/test-database.js';
import { createLoginLimiter, type LoginLimiter } from './login-limiter.js';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const SECRET = 'test-access-secret-0123456789abcdefghijklmnop';
const limits = { perIp: 5, perEmailIp: 2, windowMs: 60_000, lockoutAfter: 100, lockoutMaxMs: 60_000, secret: SECRET };

/** Enters an attempt and settles it: a right password or a wrong one. */
async function attempt(limiter: LoginLimiter, ip: string, email: string, outcome: 'fails' | 'succeeds' = 'fails', deviceCookie?: string) {
  const admission = await limiter.enter({ ip, email, deviceCookie });
  if (!admission.admitted) return 'refused';
  if (outcome === 'succeeds') return admission.attempt.succeeded();
  return 'failed';
}

describe('login limiter', () => {
  it('counts failures per IP and per (email, IP) pair; successes give their count back', async () => {
    const limiter = createLoginLimiter(database.db, limits);
    const fail = async (ip: string, emails: string[]) => {
      const answers: string[] = [];
      for (const email of emails) answers.push(await attempt(limiter, ip, email));
      return answers;
    };
    expect(await fail('1.1.1.1', ['a@x.com', 'a@x.com', 'a@x.com'])).toEqual(['failed', 'failed', 'refused']);
    // The per-IP limit counts every email from that address.
    expect(await fail('1.1.1.1', ['b@x.com', 'c@x.com', 'd@x.com', 'e@x.com'])).toEqual(['failed', 'failed', 'failed', 'refused']);
    // Successes count nothing, however many.
    for (let i = 0; i < 20; i++) expect(await attempt(limiter, '4.4.4.4', 'agent@x.com', 'succeeds')).toEqual(expect.any(String));
    expect(await fail('4.4.4.4', ['agent@x.com', 'agent@x.com', 'agent@x.com'])).toEqual(['failed', 'failed', 'refused']);
    await limiter.reset();
  });

  it('judges an attempt with the account\'s device cookie by that device alone', async () => {
    const limiter = createLoginLimiter(database.db, { ...limits, lockoutAfter: 1 });
    const cookie = await attempt(limiter, '5.5.5.5', 'owner@x.com', 'succeeds');
    // The account's gate closes after its first failure (lockoutAfter 1) ...
    expect(await attempt(limiter, '6.6.6.6', 'owner@x.com')).toBe('failed');
    expect(await attempt(limiter, '7.7.7.7', 'owner@x.com', 'succeeds')).toBe('refused');
    // ... but not for the owner's device, which keeps its own count (2 failures).
    expect(await attempt(limiter, '7.7.7.7', 'owner@x.com', 'fails', cookie)).toBe('failed');
    expect(await attempt(limiter, '7.7.7.7', 'owner@x.com', 'fails', cookie)).toBe('failed');
    expect(await attempt(limiter, '8.8.8.8', 'owner@x.com', 'succeeds', cookie)).toBe('refused');
    // A cookie of another account is no device of this one.
    expect(await attempt(limiter, '9.9.9.9', 'other@x.com', 'succeeds', cookie)).toEqual(expect.any(String));
    await limiter.reset();
  });

  it('remembers what it refused: a flood on a refused key costs no statement', async () => {
    let statements = 0;
    const counted = new Proxy(database.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || !['insert', 'update', 'delete', 'execute', 'select'].includes(String(property))) return value;
        return (...args: unknown[]) => {
          statements++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const limiter = createLoginLimiter(counted, { ...limits, lockoutAfter: 2 });
    for (let i = 0; i < 5; i++) await attempt(limiter, `10.0.0.${i}`, 'target@x.com');
    const before = statements;
    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => attempt(limiter, `10.1.${i >> 8}.${i & 255}`, 'target@x.com')));
    expect(new Set(answers)).toEqual(new Set(['refused']));
    expect(statements - before).toBe(0);
    // Another node knows nothing yet: it asks the database once, then remembers too.
    const otherNode = createLoginLimiter(database.db, { ...limits, lockoutAfter: 2 });
    expect(await attempt(otherNode, '10.2.0.1', 'target@x.com')).toBe('refused');
    await limiter.reset();
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
