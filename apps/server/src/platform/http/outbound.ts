import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The one way the server calls a URL a tenant chose (integration URLs, the
 * token endpoint of a Dialogflow key). A tenant admin must not make the server
 * talk to its own network: loopback, private, shared (CGNAT), link-local (cloud
 * metadata at 169.254.169.254), multicast, unspecified and reserved addresses,
 * IPv4 and IPv6 (mapped, NAT64 and 6to4 forms included), are refused unless the
 * operator lists them in OUTBOUND_ALLOW_PRIVATE.
 *
 * The check runs on the address actually connected to: the connection's own DNS
 * lookup is replaced by one that drops refused addresses, so a name that
 * resolves to a public address when saved and to 127.0.0.1 when called (DNS
 * rebinding) is refused at connect time. Redirects are followed by hand, each
 * hop checked the same way, at most `maxRedirects` of them.
 */

export type RefusedRange = 'loopback' | 'private' | 'shared' | 'link-local' | 'multicast' | 'unspecified' | 'reserved' | 'scheme';

/** A URL or address the policy refuses; `reason` names the kind of range. */
export class OutboundRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly reason: RefusedRange,
    readonly address: string | null = null,
  ) {
    super(reason === 'scheme' ? `only http and https URLs may be called (${host})` : `${host} is a ${reason} address${address && address !== host ? ` (${address})` : ''}, refused`);
  }
}

/** Anything but a complete answer: cannot connect, timed out, too large. */
export class OutboundNetworkError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

export interface OutboundPolicy {
  /** Answers why the address is refused for this host, or null when it may be reached. */
  refusal(host: string, address: string): RefusedRange | null;
}

/** Operator-configured peers (OPENAI_BASE_URL, DIALOGFLOW_BASE_URL): every address allowed. */
export const TRUSTED_OUTBOUND: OutboundPolicy = { refusal: () => null };

const V4_RANGES: [string, number, RefusedRange][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_RANGES: [string, number, RefusedRange][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // IPv4-compatible (deprecated) addresses; the mapped, NAT64 and 6to4 forms are unwrapped below.
  ['::', 96, 'reserved'],
  ['64:ff9b:1::', 48, 'private'],
  ['100::', 64, 'reserved'],
  ['2001::', 32, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

function rangeLists() {
  return V4_RANGES.map(([net, prefix, reason]) => ({ reason, list: subnet(net, prefix, 'ipv4') })).concat(
    V6_RANGES.map(([net, prefix, reason]) => ({ reason, list: subnet(net, prefix, 'ipv6') })),
  );
}

function subnet(net: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return list;
}

const RANGES = rangeLists();

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0] ?? '';
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const bytes = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${(((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0)).toString(16)}:${(((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** An IPv6 address that carries an IPv4 one the packets end up at (mapped, NAT64, 6to4). */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g6 = 0, h = 0] = g;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) return v4Of(g6, h);
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return v4Of(g6, h);
  if (a === 0x2002) return v4Of(b, c);
  return null;
}

/** Why an address may not be called by default, or null for a public address. */
export function refusedRange(address: string): RefusedRange | null {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return refusedRange(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const plain = family === 6 ? (address.split('%')[0] ?? address) : address;
  for (const range of RANGES) if (range.list.check(plain, type)) return range.reason;
  if (plain === '255.255.255.255') return 'reserved';
  return null;
}

/** One entry of OUTBOUND_ALLOW_PRIVATE: an address, a CIDR block or a host name. */
export function parseAllowEntry(entry: string): { kind: 'subnet'; net: string; prefix: number; type: 'ipv4' | 'ipv6' } | { kind: 'host'; host: string } | null {
  const [net = '', prefixText, extra] = entry.split('/');
  const family = isIP(net);
  if (family !== 0 && extra === undefined) {
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
    return prefix >= 0 && prefix <= max ? { kind: 'subnet', net, prefix, type: family === 4 ? 'ipv4' : 'ipv6' } : null;
  }
  const host = entry.toLowerCase().replace(/\.$/, '');
  return /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)*$/.test(host) ? { kind: 'host', host } : null;
}

export function splitAllowList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The policy of the deployment: refuse internal ranges except the listed addresses, blocks and hosts. */
export function createOutboundPolicy(allowList: string[]): OutboundPolicy {
  const allowed = new BlockList();
  const hosts = new Set<string>();
  for (const entry of allowList) {
    const parsed = parseAllowEntry(entry);
    if (!parsed) throw new Error(`invalid outbound allow-list entry: ${entry}`);
    if (parsed.kind === 'host') hosts.add(parsed.host);
    else allowed.addSubnet(parsed.net, parsed.prefix, parsed.type);
  }
  return {
    refusal(host, address) {
      if (hosts.has(host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, ''))) return null;
      const reason = refusedRange(address);
      if (!reason) return null;
      const family = isIP(address);
      const inner = family === 6 ? embeddedIpv4(address) : null;
      if (allowed.check(inner ?? address.split('%')[0] ?? address, inner || family === 4 ? 'ipv4' : 'ipv6')) return null;
      return reason;
    },
  };
}

const policies = new WeakMap<object, OutboundPolicy>();

/** The policy for a loaded config, built once. */
export function outboundPolicy(config: { outboundAllowPrivate: string[] }): OutboundPolicy {
  let policy = policies.get(config);
  if (!policy) {
    policy = createOutboundPolicy(config.outboundAllowPrivate);
    policies.set(config, policy);
  }
  return policy;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * A DNS lookup that hands the socket only addresses the policy allows. Node calls
 * it for every connection to a host name (with `all` when it tries several
 * addresses), so the address connected to is always one that passed.
 */
function guardedLookup(policy: OutboundPolicy, onRefused: (error: OutboundRefusedError) => void): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const passing = addresses.filter((entry) => policy.refusal(hostname, entry.address) === null);
      const first = passing[0];
      if (!first) {
        const refused = addresses[0];
        const refusal = new OutboundRefusedError(hostname, (refused && policy.refusal(hostname, refused.address)) || 'reserved', refused?.address ?? null);
        onRefused(refusal);
        return callback(refusal, '', 0);
      }
      if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, passing);
      else callback(null, first.address, first.family);
    });
  };
}

/** Refuses a URL before any connection: its scheme, or a literal address in it. */
function refuseLiteral(policy: OutboundPolicy, url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError(url.href, 'scheme');
  const host = bareHost(url);
  if (isIP(host)) {
    const reason = policy.refusal(host, host);
    if (reason) throw new OutboundRefusedError(host, reason, host);
  }
}

/**
 * The check made when an admin saves a URL: the scheme, a literal address, and
 * what the name resolves to now. A name that does not resolve (yet) is accepted:
 * every call checks again at connect time.
 */
export async function checkOutboundUrl(policy: OutboundPolicy, raw: string, timeoutMs = 3_000): Promise<void> {
  const url = new URL(raw);
  refuseLiteral(policy, url);
  const host = bareHost(url);
  if (isIP(host)) return;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs);
    dnsLookup(host, { all: true }, (error, found) => {
      clearTimeout(timer);
      resolve(error ? [] : found);
    });
  });
  if (addresses.length === 0) return;
  const refusals = addresses.map((entry) => ({ address: entry.address, reason: policy.refusal(host, entry.address) }));
  // Any internal answer is refused when saving: the name is meant for a public peer.
  const refused = refusals.find((entry) => entry.reason !== null);
  if (refused?.reason) throw new OutboundRefusedError(host, refused.reason, refused.address);
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | FormData | URLSearchParams;
  /** Budget of the whole exchange, redirects and body included. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Larger answers are cut off with an error. */
  maxBytes?: number;
  /** Keep-alive connections to reuse (createOutboundAgents); a fresh connection per call without. */
  agents?: OutboundAgents;
}

/**
 * Keep-alive connections for a caller that calls the same peers often (the event
 * webhooks' sender). Each connection is opened through the policy's guarded lookup,
 * so a pooled socket is one to an address that passed; it is reused only for the
 * same host and port, under the same policy.
 */
export interface OutboundAgents {
  http: HttpAgent;
  https: HttpsAgent;
  lookup: LookupFunction;
  destroy(): void;
}

export function createOutboundAgents(policy: OutboundPolicy, options: { maxSockets: number }): OutboundAgents {
  const lookup = guardedLookup(policy, () => undefined);
  const http = new HttpAgent({ keepAlive: true, maxSockets: options.maxSockets, lookup });
  const https = new HttpsAgent({ keepAlive: true, maxSockets: options.maxSockets, lookup });
  return {
    http,
    https,
    lookup,
    destroy() {
      http.destroy();
      https.destroy();
    },
  };
}

export interface OutboundResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  /** The URL that answered (after redirects). */
  url: string;
}

async function encodeBody(body: OutboundRequest['body']): Promise<{ bytes?: Buffer; contentType?: string }> {
  if (body === undefined) return {};
  if (typeof body === 'string') return { bytes: Buffer.from(body) };
  if (body instanceof Uint8Array) return { bytes: Buffer.from(body) };
  // FormData and URLSearchParams: let the platform encode them and name the boundary.
  const encoded = new Response(body);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? undefined };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function once(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  policy: OutboundPolicy,
  signal: AbortSignal,
  maxBytes: number,
  agents: OutboundAgents | undefined,
  afterStaleSocket = false,
): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    let refused: OutboundRefusedError | null = null;
    const lookup = agents?.lookup ?? guardedLookup(policy, (error) => (refused = error));
    const secure = url.protocol === 'https:';
    // Without the caller's pool, a fresh agent per call: no pooled socket connected under another check is reused.
    const agent = agents ? (secure ? agents.https : agents.http) : secure ? new HttpsAgent({ keepAlive: false, lookup }) : new HttpAgent({ keepAlive: false, lookup });
    const send = secure ? httpsRequest : httpRequest;
    const request = send(url, { method, headers: body ? { ...headers, 'content-length': String(body.length) } : headers, agent, lookup, signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy(new OutboundNetworkError(`answer from ${url.host} larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error) => reject(error instanceof OutboundNetworkError ? error : new OutboundNetworkError(`answer from ${url.host} interrupted`)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', (error) => {
      // A pooled keep-alive connection the peer had just closed: the request never reached it, so it is
      // sent once more on a new connection (Node's documented advice for `reusedSocket`).
      const code = (error as NodeJS.ErrnoException).code;
      if (!refused && !signal.aborted && !afterStaleSocket && request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
        once(url, method, headers, body, policy, signal, maxBytes, agents, true).then(resolve, reject);
        return;
      }
      if (refused) reject(refused);
      else if (error instanceof OutboundRefusedError) reject(error);
      else if (signal.aborted) reject(new OutboundNetworkError(`no answer from ${url.host}`, true));
      else reject(new OutboundNetworkError(`cannot reach ${url.host}`));
    });
    request.end(body);
  });
}

/** One call (with its redirects) under the policy; answers whatever status the peer gave. */
export async function outboundFetch(policy: OutboundPolicy, raw: string, init: OutboundRequest): Promise<OutboundResponse> {
  const signal = AbortSignal.timeout(init.timeoutMs);
  const maxRedirects = init.maxRedirects ?? 3;
  const maxBytes = init.maxBytes ?? 10 * 1024 * 1024;
  const encoded = await encodeBody(init.body);
  let method = (init.method ?? 'GET').toUpperCase();
  let headers: Record<string, string> = { ...init.headers };
  if (encoded.contentType && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = encoded.contentType;
  let body = encoded.bytes;
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    refuseLiteral(policy, url);
    const answer = await once(url, method, headers, body, policy, signal, maxBytes, init.agents);
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || !location) return { ...answer, url: url.href };
    if (hop >= maxRedirects) throw new OutboundNetworkError(`more than ${maxRedirects} redirects from ${url.host}`);
    const next = new URL(location, url);
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without a body.
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length)$/i.test(name)));
    }
    // Credentials stay with the origin they were meant for.
    if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(authorization|cookie)$/i.test(name)));
    url = next;
  }
}
