/**
 * Login attempt limits per IP and per email, counted whether or not the email
 * exists, so the 429 reveals nothing about accounts. Fixed windows kept in this
 * process's memory: with several API nodes each node counts on its own, which
 * still bounds guessing to (nodes × limit) per window.
 */
export interface LoginLimiter {
  /** Counts an attempt; false when the IP or the email is over its limit. */
  attempt(ip: string, email: string): boolean;
  reset(): void;
}

export function createLoginLimiter(options: { perIp: number; perEmail: number; windowMs: number }): LoginLimiter {
  const counters = new Map<string, { count: number; resetAt: number }>();

  function hit(key: string, limit: number, now: number): boolean {
    const entry = counters.get(key);
    if (!entry || entry.resetAt <= now) {
      counters.set(key, { count: 1, resetAt: now + options.windowMs });
      return true;
    }
    entry.count += 1;
    return entry.count <= limit;
  }

  function sweep(now: number): void {
    if (counters.size < 10_000) return;
    for (const [key, entry] of counters) if (entry.resetAt <= now) counters.delete(key);
  }

  return {
    attempt(ip, email) {
      const now = Date.now();
      sweep(now);
      const ipOk = hit(`ip:${ip}`, options.perIp, now);
      const emailOk = hit(`email:${email}`, options.perEmail, now);
      return ipOk && emailOk;
    },
    reset: () => counters.clear(),
  };
}
