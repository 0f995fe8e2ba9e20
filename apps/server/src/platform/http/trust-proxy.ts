import { parseAllowEntry, splitAllowList } from './outbound.js';

/**
 * Whose `X-Forwarded-For` is believed (Fastify's `trustProxy`): nobody (`false`) or
 * the listed proxies. Every client address the server uses (`request.ip`: login,
 * sign-up and password-reset limits, logs) follows it.
 */
export type TrustProxy = false | string[];

/** proxy-addr's names for address ranges, accepted besides addresses and CIDR blocks. */
const KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Parses `TRUST_PROXY`: unset, empty, `false` or `0` → off; otherwise a comma-separated
 * list of addresses, CIDR blocks and proxy-addr's keywords (a chain of proxies: list
 * each). Refused, with a message saying what to write instead:
 * - `true` (trust every address): any client would choose its own address by sending
 *   the header, the defect this variable exists to close;
 * - a hop count: it cannot tell the proxy from a client that reaches the server
 *   directly with a forged header, and Fastify 5 ignores it for that reason (it
 *   trusts nobody), which would silently count every client as the proxy.
 */
export function parseTrustProxy(value: string | undefined): { value: TrustProxy } | { error: string } {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return { value: false };
  const nameTheProxy = "name the proxy instead: its address or CIDR block, comma-separated (e.g. 10.0.0.5 or 10.0.0.0/8), or 'loopback' for one on this host";
  if (text === 'true') return { error: `true would let every client choose its own address; ${nameTheProxy}` };
  if (/^\d+$/.test(text)) return { error: `a hop count cannot tell the proxy from a client that reaches the server directly; ${nameTheProxy}` };
  const entries = splitAllowList(text);
  const bad = entries.filter((entry) => !KEYWORDS.has(entry) && parseAllowEntry(entry)?.kind !== 'subnet');
  if (bad.length > 0 || entries.length === 0) {
    return { error: `${bad.join(', ') || text} is not an address, a CIDR block (10.0.0.0/8, fd00::/8), loopback, linklocal or uniquelocal` };
  }
  return { value: entries };
}
