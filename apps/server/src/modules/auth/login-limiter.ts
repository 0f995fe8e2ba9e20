/**
 * Login attempt limits per IP and per (email, IP) pair, counted whether or not the
 * email exists, so the 429 reveals nothing about accounts. No limit counts an email
 * alone: guessing one account's password is bounded per source address, and nobody
 * can lock a known email out by failing its logins from somewhere else. Fixed windows
 * kept in this process's memory: with several API nodes each node counts on its own,
 * which still bounds guessing to (nodes × limit) per window.
 */
export interface LoginLimiter {
  /** Counts an attempt; false when the IP or the (email, IP) pair is over its limit. */
  attempt(ip: string, email: string): boolean;
  reset(): void;
}

export function createLoginLimiter(options: { perIp: number; perEmailIp: number; windowMs: number }): LoginLimiter {
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
      // An IP over its limit adds no pair counters: memory stays bounded by IPs × perIp.
      if (!hit(`ip:${ip}`, options.perIp, now)) return false;
      return hit(`pair:${ip}\n${email}`, options.perEmailIp, now);
    },
    reset: () => counters.clear(),
  };
}
