import { createHash } from 'node:crypto';
import { eq, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimits } from '../db/schema.js';

/**
 * Counters per key, in the database (`rate_limits`): every API node counts the same
 * window, so a client gets `limit` per window whatever node it reaches. Keys are
 * stored as `<limiter name>:<SHA-256 of the key>`, never an address or e-mail in
 * clear; expired rows are deleted at most once a minute per node.
 *
 * Two kinds of counter share the table:
 * - fixed windows (`hit`, `take`): `count` hits until `reset_at`, then a new window;
 * - back-off gates (`enterBackoff`): `count` attempts admitted, and `reset_at` is the
 *   time the gate opens again plus the period after which the count is forgotten.
 *
 * Each node also remembers the keys it found refused until they open again
 * (`refusedFor`), so a flood of refused requests costs no statement.
 */
export interface RateLimiter {
  /** Counts a hit of the key; false when the key is over its limit in the current window. */
  hit(key: string, limit: number): Promise<boolean>;
  /**
   * Counts one hit on each key in one statement. When any key is over its limit,
   * every hit is given back and the answer says how long until the latest of them
   * opens. Used to count an attempt before its outcome is known, so parallel
   * attempts cannot all pass before the first is counted.
   */
  take(entries: readonly { key: string; limit: number }[]): Promise<Admission>;
  /** Takes back one hit of each key (an attempt that turned out not to count). */
  giveBack(keys: readonly string[]): Promise<void>;
  /**
   * A back-off gate: the first `free` attempts of the period pass at once; from then on
   * an admitted attempt closes the gate for `baseMs × 2^(n − free)` (capped at `maxMs`),
   * so parallel attempts find it closed. The count is forgotten `forgetMs` after the
   * gate last opened. Admission is one statement; a closed gate changes nothing.
   */
  enterBackoff(key: string, options: BackoffOptions): Promise<Admission>;
  /** Takes back an admitted attempt that turned out not to count, and opens the gate it closed. */
  leaveBackoff(key: string, options: BackoffOptions): Promise<void>;
  /** Deletes the keys' counters (a success that clears them). */
  forget(keys: readonly string[]): Promise<void>;
  /** While this node remembers the key refused: milliseconds until it opens (0: ask the database). */
  refusedFor(key: string): number;
  /** Forgets this limiter's counters, in the database and in memory (tests). */
  reset(): Promise<void>;
}

type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

interface BackoffOptions {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

const SWEEP_EVERY_MS = 60_000;
/**
 * A window key found over its limit is refused from memory for at most this long:
 * a flood costs one statement per key and node every few seconds, and a key that was
 * over only because of attempts still in flight (counted before their outcome) is
 * asked again soon. A closed back-off gate is remembered until it opens.
 */
const REMEMBER_WINDOW_REFUSAL_MS = 5_000;
/** Bound of the memory of refused keys per limiter and node. */
const MAX_REMEMBERED = 50_000;

export function createRateLimiter(db: Db, name: string, windowMs: number): RateLimiter {
  let nextSweep = 0;
  /** Key → until when this node answers from memory, and when the key opens (what Retry-After says). */
  const refusedUntil = new Map<string, { until: number; opensAt: number }>();
  const stored = (key: string) => `${name}:${createHash('sha256').update(key).digest('hex')}`;

  async function sweep(): Promise<void> {
    const now = Date.now();
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_EVERY_MS;
    await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`));
  }

  function remember(key: string, untilMs: number, opensAt: number): void {
    if (refusedUntil.size >= MAX_REMEMBERED) {
      const now = Date.now();
      for (const [known, { until }] of refusedUntil) if (until <= now) refusedUntil.delete(known);
      // Still full: drop the oldest half (a Map iterates in insertion order).
      let drop = refusedUntil.size >= MAX_REMEMBERED ? refusedUntil.size / 2 : 0;
      for (const known of refusedUntil.keys()) {
        if (drop-- <= 0) break;
        refusedUntil.delete(known);
      }
    }
    refusedUntil.set(key, { until: untilMs, opensAt });
  }

  const windowEnd = sql`now() + ${windowMs} * interval '1 millisecond'`;
  const ended = sql`${rateLimits.resetAt} <= now()`;
  const countHit = {
    count: sql`case when ${ended} then 1 else ${rateLimits.count} + 1 end`,
    resetAt: sql`case when ${ended} then excluded.reset_at else ${rateLimits.resetAt} end`,
  };

  async function giveBack(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(inArray(rateLimits.key, [...new Set(keys.map(stored))].sort()));
  }

  return {
    async hit(key, limit) {
      await sweep();
      const [row] = await db
        .insert(rateLimits)
        .values({ key: stored(key), count: 1, resetAt: windowEnd })
        .onConflictDoUpdate({ target: rateLimits.key, set: countHit })
        .returning({ count: rateLimits.count });
      return (row?.count ?? 1) <= limit;
    },

    async take(entries) {
      await sweep();
      const limits = new Map<string, { key: string; limit: number }>();
      for (const entry of entries) limits.set(stored(entry.key), entry);
      // One order for every statement, so two nodes taking the same keys never deadlock.
      const keys = [...limits.keys()].sort();
      const rows = await db
        .insert(rateLimits)
        .values(keys.map((key) => ({ key, count: 1, resetAt: windowEnd })))
        .onConflictDoUpdate({ target: rateLimits.key, set: countHit })
        .returning({ key: rateLimits.key, count: rateLimits.count, resetAt: rateLimits.resetAt });
      const over = rows.filter((row) => row.count > (limits.get(row.key)?.limit ?? 0));
      if (over.length === 0) return { admitted: true };
      await giveBack(entries.map((entry) => entry.key));
      const now = Date.now();
      let retryAfterMs = 0;
      for (const row of over) {
        const key = limits.get(row.key)?.key ?? row.key;
        remember(key, Math.min(row.resetAt.getTime(), now + REMEMBER_WINDOW_REFUSAL_MS), row.resetAt.getTime());
        retryAfterMs = Math.max(retryAfterMs, row.resetAt.getTime() - now);
      }
      return { admitted: false, retryAfterMs };
    },

    giveBack,

    async enterBackoff(key, options) {
      await sweep();
      const forget = sql`${options.forgetMs} * interval '1 millisecond'`;
      const admittedCount = sql`case when r.reset_at <= now() then 1 else r.count + 1 end`;
      // The gate the n-th admitted attempt leaves closed behind it (2^30 bounds the power).
      const closedFor = (n: SQL) =>
        sql`(case when ${n} >= ${options.free} then least(${options.baseMs} * power(2, least(${n} - ${options.free}, 30)), ${options.maxMs}) else 0 end) * interval '1 millisecond'`;
      const storedKey = stored(key);
      const result = (await db.execute(sql`
        with entered as (
          insert into rate_limits as r (key, count, reset_at)
          values (${storedKey}, 1, now() + ${forget} + ${closedFor(sql`1`)})
          on conflict (key) do update set
            count = ${admittedCount},
            reset_at = now() + ${forget} + ${closedFor(admittedCount)}
          where r.reset_at - ${forget} <= now()
          returning r.count
        )
        select (select count from entered) as admitted,
               (select extract(epoch from (reset_at - ${forget} - now())) * 1000 from rate_limits where key = ${storedKey}) as wait_ms
      `)) as unknown as { rows: { admitted: number | null; wait_ms: number | string | null }[] };
      const row = result.rows[0];
      if (row?.admitted !== null && row?.admitted !== undefined) return { admitted: true };
      const retryAfterMs = Math.max(0, Math.ceil(Number(row?.wait_ms ?? 0)));
      remember(key, Date.now() + retryAfterMs, Date.now() + retryAfterMs);
      return { admitted: false, retryAfterMs };
    },

    async leaveBackoff(key, options) {
      await db
        .update(rateLimits)
        .set({ count: sql`greatest(${rateLimits.count} - 1, 0)`, resetAt: sql`now() + ${options.forgetMs} * interval '1 millisecond'` })
        .where(eq(rateLimits.key, stored(key)));
    },

    async forget(keys) {
      if (keys.length === 0) return;
      await db.delete(rateLimits).where(inArray(rateLimits.key, keys.map(stored)));
    },

    refusedFor(key) {
      const known = refusedUntil.get(key);
      if (!known) return 0;
      const now = Date.now();
      if (known.until > now) return Math.max(1, known.opensAt - now);
      refusedUntil.delete(key);
      return 0;
    },

    async reset() {
      refusedUntil.clear();
      await db.delete(rateLimits).where(like(rateLimits.key, `${name}:%`));
    },
  };
}
