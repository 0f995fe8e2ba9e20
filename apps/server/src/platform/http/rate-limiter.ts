import { createHash } from 'node:crypto';
import { like, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimits } from '../db/schema.js';

/**
 * Fixed-window counters per key, in the database (`rate_limits`): every API node
 * counts the same window, so a client gets `limit` per window whatever node it
 * reaches. One statement per hit (an upsert that starts a new window once the
 * last one ended); expired windows are deleted at most once a minute per node.
 */
export interface RateLimiter {
  /** Counts a hit of the key; false when the key is over its limit in the current window. */
  hit(key: string, limit: number): Promise<boolean>;
  /** Forgets this limiter's counters (tests). */
  reset(): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

export function createRateLimiter(db: Db, name: string, windowMs: number): RateLimiter {
  let nextSweep = 0;

  async function sweep(): Promise<void> {
    const now = Date.now();
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_EVERY_MS;
    await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`));
  }

  return {
    async hit(key, limit) {
      await sweep();
      const ended = sql`${rateLimits.resetAt} <= now()`;
      const [row] = await db
        .insert(rateLimits)
        .values({ key: `${name}:${createHash('sha256').update(key).digest('hex')}`, count: 1, resetAt: sql`now() + ${windowMs} * interval '1 millisecond'` })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${ended} then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${ended} then excluded.reset_at else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count });
      return (row?.count ?? 1) <= limit;
    },
    async reset() {
      await db.delete(rateLimits).where(like(rateLimits.key, `${name}:%`));
    },
  };
}
