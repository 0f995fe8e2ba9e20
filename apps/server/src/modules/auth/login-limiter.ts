import { createRateLimiter } from '../../platform/http/rate-limiter.js';

/**
 * Login attempt limits per IP and per (email, IP) pair, counted whether or not the
 * email exists, so the 429 reveals nothing about accounts. No limit counts an email
 * alone: guessing one account's password is bounded per source address, and nobody
 * can lock a known email out by failing its logins from somewhere else.
 */
export interface LoginLimiter {
  /** Counts an attempt; false when the IP or the (email, IP) pair is over its limit. */
  attempt(ip: string, email: string): boolean;
  reset(): void;
}

export function createLoginLimiter(options: { perIp: number; perEmailIp: number; windowMs: number }): LoginLimiter {
  const counters = createRateLimiter(options.windowMs);
  return {
    attempt(ip, email) {
      // An IP over its limit adds no pair counters: memory stays bounded by IPs × perIp.
      if (!counters.hit(`ip:${ip}`, options.perIp)) return false;
      return counters.hit(`pair:${ip}\n${email}`, options.perEmailIp);
    },
    reset: () => counters.reset(),
  };
}
