import type { Db } from '../../platform/db/client.js';
import { createRateLimiter } from '../../platform/http/rate-limiter.js';
import { createDeviceCookies } from './device-cookie.js';

/**
 * Login limits (docs/security.md, "Login limits"). Only FAILED logins count; a success
 * gives its count back. Each attempt is counted before its password is checked and
 * given back when it succeeds, so parallel guesses cannot all pass the check before
 * the first failure is counted, and a refused attempt costs no argon2.
 *
 * - Without a device cookie of the account: failures per address (a call centre's
 *   office shares one), per (e-mail, address) pair, and per account from anywhere,
 *   where from `lockoutAfter` failures on each attempt waits 1 s, 2 s, 4 s... (capped).
 * - With a device cookie the account issued on a successful login: only that device's
 *   own failures count, so another address's flood never locks the owner out.
 *
 * Every refusal is the same 429 whether the e-mail has an account or not.
 */
export interface LoginLimiter {
  /** Admits an attempt before the password is checked, or says how long to wait. */
  enter(input: { ip: string; email: string; deviceCookie?: string }): Promise<LoginAdmission>;
  /**
   * Seconds this node already knows the address is refused (0: not known), for an
   * attempt without a device cookie: the route answers it before reading the body.
   */
  refusedAddress(ip: string): number;
  reset(): Promise<void>;
}

type LoginAdmission = { admitted: true; attempt: LoginAttempt } | { admitted: false; retryAfterSeconds: number };

interface LoginAttempt {
  /**
   * The password was right: the attempt's counts are given back (the pair's and the
   * device's failures are cleared). Answers the device cookie to set.
   * Without this call the attempt stays counted as a failure.
   */
  succeeded(): Promise<string>;
  /**
   * The attempt turned out not to be a guess: the password was right but the account
   * asks for its second factor, which was not sent yet (or a signed-in owner proved
   * itself). Its counts are given back; no device cookie is issued.
   */
  released(): Promise<void>;
}

export interface LoginLimits {
  perIp: number;
  /** Per (email, address) pair, and per device cookie. */
  perEmailIp: number;
  windowMs: number;
  lockoutAfter: number;
  lockoutMaxMs: number;
  /** Signs the device cookies (a key is derived from it). */
  secret: string;
}

export function createLoginLimiter(db: Db, limits: LoginLimits): LoginLimiter {
  const counters = createRateLimiter(db, 'login', limits.windowMs);
  const devices = createDeviceCookies(limits.secret);
  const backoff = { free: limits.lockoutAfter, baseMs: 1000, maxMs: limits.lockoutMaxMs, forgetMs: limits.windowMs };
  const refused = (ms: number): LoginAdmission => ({ admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) });

  return {
    async enter({ ip, email, deviceCookie }) {
      const deviceId = devices.deviceOf(deviceCookie, email);
      if (deviceId) {
        const device = `device:${deviceId}`;
        const known = counters.refusedFor(device);
        if (known > 0) return refused(known);
        const taken = await counters.take([{ key: device, limit: limits.perEmailIp }]);
        if (!taken.admitted) return refused(taken.retryAfterMs);
        return {
          admitted: true,
          attempt: {
            async succeeded() {
              await counters.forget([device]);
              return devices.issue(email, deviceId);
            },
            released: () => counters.giveBack([device]),
          },
        };
      }

      const address = `ip:${ip}`;
      const pair = `pair:${ip}\n${email}`;
      const account = `account:${email}`;
      // What this node already knows is refused costs no statement (a flood stays cheap).
      const known = Math.max(counters.refusedFor(address), counters.refusedFor(pair), counters.refusedFor(account));
      if (known > 0) return refused(known);
      const taken = await counters.take([
        { key: address, limit: limits.perIp },
        { key: pair, limit: limits.perEmailIp },
      ]);
      if (!taken.admitted) return refused(taken.retryAfterMs);
      const gate = await counters.enterBackoff(account, backoff);
      if (!gate.admitted) {
        await counters.giveBack([address, pair]);
        return refused(gate.retryAfterMs);
      }
      return {
        admitted: true,
        attempt: {
          async succeeded() {
            // The address and the account keep their other failures (an owner signing in
            // from a new device gives an attacker of the account no fresh attempts), and
            // the account's gate this attempt closed opens again. This pair proved it
            // knows the password: it starts clean.
            await counters.giveBack([address]);
            await counters.leaveBackoff(account, backoff);
            await counters.forget([pair]);
            return devices.issue(email);
          },
          async released() {
            await counters.giveBack([address, pair]);
            await counters.leaveBackoff(account, backoff);
          },
        },
      };
    },
    refusedAddress(ip) {
      const known = counters.refusedFor(`ip:${ip}`);
      return known > 0 ? Math.max(1, Math.ceil(known / 1000)) : 0;
    },
    reset: () => counters.reset(),
  };
}
