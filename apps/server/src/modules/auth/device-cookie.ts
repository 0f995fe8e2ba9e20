import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP "Slow down online guessing attacks with device cookies"): a
 * successful login leaves the browser a cookie naming a random device id, signed for
 * that account's e-mail. A later login of the same e-mail that presents it is judged
 * by that device's own failure counter, not by the account's lock-out, so an
 * attacker failing the account from elsewhere never locks its owner out.
 */
export const DEVICE_COOKIE = 'jdv';
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

export interface DeviceCookies {
  /** A cookie value for this e-mail: the given device id kept, or a new one. */
  issue(email: string, deviceId?: string): string;
  /** The device id when the cookie was issued for this e-mail by this server; else null. */
  deviceOf(cookie: string | undefined, email: string): string | null;
}

export function createDeviceCookies(secret: string): DeviceCookies {
  // A key of its own, derived from the JWT secret, so a cookie can never pass for a token.
  const key = Buffer.from(hkdfSync('sha256', secret, 'atende', 'login-device-cookies', 32));
  const sign = (deviceId: string, email: string) => createHmac('sha256', key).update(`${deviceId}\n${email}`).digest();
  return {
    issue(email, deviceId = randomBytes(16).toString('base64url')) {
      return `${deviceId}.${sign(deviceId, email).toString('base64url')}`;
    },
    deviceOf(cookie, email) {
      const match = cookie ? /^([\w-]{22})\.([\w-]{43})$/.exec(cookie) : null;
      if (!match?.[1] || !match[2]) return null;
      const given = Buffer.from(match[2], 'base64url');
      const expected = sign(match[1], email);
      return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
    },
  };
}
