import type { Db } from '../../platform/db/client.js';
import { createRateLimiter } from '../../platform/http/rate-limiter.js';

/**
 * Login attempt limits per IP and per (email, IP) pair, counted whether or not the
 * email exists, so the 429 reveals nothing about accounts. No limit counts an email
 * alone: guessing one account's password is bounded per source address, and nobody
 * can lock a known email out by failing its logins from somewhere else.
 */
export interface LoginLimiter {
  /** Counts an attempt; false when the IP or the (email, IP) pair is over its limit. */
  attempt(ip: string, email: string): Promise<boolean>;
  reset(): Promise<void>;
}

export function createLoginLimiter(db: Db, options: { perIp: number; perEmailIp: number; windowMs: number }): LoginLimiter {
  const counters = createRateLimiter(db, 'login', options.windowMs);
  return {
    async attempt(ip, email) {
      // An IP over its limit adds no pair counters: rows stay bounded by IPs × perIp.
      if (!(await counters.hit(`ip:${ip}`, options.perIp))) return false;
      return counters.hit(`pair:${ip}\n${email}`, options.perEmailIp);
    },
    reset: () => counters.reset(),
  };
}
