/**
 * Fixed-window counters per key, in this process's memory: with several API nodes
 * each node counts on its own, which still bounds a client to (nodes × limit) per
 * window. Memory stays bounded: expired windows are swept once the map is large.
 */
export interface RateLimiter {
  /** Counts a hit of the key; false when the key is over its limit in the current window. */
  hit(key: string, limit: number): boolean;
  reset(): void;
}

export function createRateLimiter(windowMs: number): RateLimiter {
  const counters = new Map<string, { count: number; resetAt: number }>();

  function sweep(now: number): void {
    if (counters.size < 10_000) return;
    for (const [key, entry] of counters) if (entry.resetAt <= now) counters.delete(key);
  }

  return {
    hit(key, limit) {
      const now = Date.now();
      sweep(now);
      const entry = counters.get(key);
      if (!entry || entry.resetAt <= now) {
        counters.set(key, { count: 1, resetAt: now + windowMs });
        return true;
      }
      entry.count += 1;
      return entry.count <= limit;
    },
    reset: () => counters.clear(),
  };
}
