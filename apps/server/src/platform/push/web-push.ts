import { createECDH, createCipheriv, createHash, createPrivateKey, hkdfSync, randomBytes, sign, type ECDH } from 'node:crypto';
import type { VapidKeys } from '../config.js';
import { outboundFetch, type OutboundPolicy } from '../http/outbound.js';

/**
 * Web Push without a library: the message encryption of RFC 8291 (aes128gcm, RFC 8188)
 * and the VAPID authorization of RFC 8292, on node:crypto, sent through the outgoing
 * URL policy (platform/http/outbound.ts), which checks the address actually connected
 * to. Knows nothing of tickets: it takes a subscription and bytes.
 */

export interface PushTarget {
  endpoint: string;
  /** The browser's P-256 public key, uncompressed, base64url. */
  p256dh: string;
  /** The browser's 16-byte authentication secret, base64url. */
  auth: string;
}

export interface PushOptions {
  /** How long the push service keeps an undelivered message, in seconds. */
  ttlSeconds: number;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
  /** Messages with the same topic replace each other while undelivered (hashed into the header's alphabet). */
  topic?: string;
}

/** How the push service answered. `gone`: the subscription ended (404, 410): forget it. */
export type PushOutcome = { kind: 'sent'; status: number } | { kind: 'gone'; status: number } | { kind: 'failed'; status: number; detail: string };

/** One record of up to 4096 bytes holds every payload we send (a push service takes 4 KB). */
const RECORD_SIZE = 4096;
const MAX_PAYLOAD = RECORD_SIZE - 16 - 1 - 86 - 16;
/** How long a VAPID token is good for: at most 24 h (RFC 8292); 12 h leaves room for clock skew. */
const VAPID_TOKEN_SECONDS = 12 * 3600;

const bytes = (text: string) => Buffer.from(text, 'utf8');

/**
 * The aes128gcm body of one push message (RFC 8291 §3-4): an ephemeral ECDH key with the
 * browser's, mixed with its auth secret, keys AES-128-GCM over the payload and its
 * padding delimiter. `ephemeral` and `salt` are fixed only by the RFC's worked example.
 */
export function encryptPushPayload(target: Pick<PushTarget, 'p256dh' | 'auth'>, payload: Buffer, fixed?: { ephemeral: ECDH; salt: Buffer }): Buffer {
  if (payload.length > MAX_PAYLOAD) throw new Error(`push payload of ${payload.length} bytes is larger than ${MAX_PAYLOAD}`);
  const uaPublic = Buffer.from(target.p256dh, 'base64url');
  const authSecret = Buffer.from(target.auth, 'base64url');
  if (uaPublic.length !== 65 || uaPublic[0] !== 4) throw new Error('p256dh is not an uncompressed P-256 public key');
  if (authSecret.length !== 16) throw new Error('auth secret is not 16 bytes');
  const ephemeral = fixed?.ephemeral ?? createECDH('prime256v1');
  if (!fixed) ephemeral.generateKeys();
  const asPublic = ephemeral.getPublicKey();
  const salt = fixed?.salt ?? randomBytes(16);

  const ecdhSecret = ephemeral.computeSecret(uaPublic);
  const keyInfo = Buffer.concat([bytes('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, bytes('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, bytes('Content-Encoding: nonce\0'), 12));

  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  // A single record: the payload and the last-record delimiter 0x02, no padding.
  const encrypted = Buffer.concat([cipher.update(payload), cipher.update(Buffer.from([2])), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(16 + 4 + 1);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header.writeUInt8(asPublic.length, 20);
  return Buffer.concat([header, asPublic, encrypted]);
}

/** `Authorization: vapid t=<JWT>, k=<public key>` for the endpoint's origin (RFC 8292 §3). */
function vapidAuthorization(endpoint: string, keys: VapidKeys, subject: string, now: Date): string {
  const audience = new URL(endpoint).origin;
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ typ: 'JWT', alg: 'ES256' })}.${encode({ aud: audience, exp: Math.floor(now.getTime() / 1000) + VAPID_TOKEN_SECONDS, sub: subject })}`;
  const publicKey = Buffer.from(keys.publicKey, 'base64url');
  const key = createPrivateKey({
    key: { kty: 'EC', crv: 'P-256', d: keys.privateKey, x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  // JWS wants the raw r||s signature (IEEE P1363), not DER.
  const signature = sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `vapid t=${unsigned}.${signature}, k=${keys.publicKey}`;
}

/** A Topic header value: at most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4). */
function topicHeader(topic: string): string {
  return createHash('sha256').update(topic).digest('base64url').slice(0, 32);
}

/** Encrypts and posts one message to one subscription; never throws for the peer's answer. */
export async function sendWebPush(
  deps: { policy: OutboundPolicy; vapid: VapidKeys; subject: string; now: Date; timeoutMs: number },
  target: PushTarget,
  payload: string,
  options: PushOptions,
): Promise<PushOutcome> {
  const body = encryptPushPayload(target, bytes(payload));
  const headers: Record<string, string> = {
    authorization: vapidAuthorization(target.endpoint, deps.vapid, deps.subject, deps.now),
    'content-encoding': 'aes128gcm',
    'content-type': 'application/octet-stream',
    ttl: String(options.ttlSeconds),
    urgency: options.urgency ?? 'normal',
  };
  if (options.topic) headers.topic = topicHeader(options.topic);
  // A push service answers 201 and never redirects; a redirect is not followed with our token.
  const answer = await outboundFetch(deps.policy, target.endpoint, { method: 'POST', headers, body, timeoutMs: deps.timeoutMs, maxRedirects: 0, maxBytes: 64 * 1024 });
  if (answer.status >= 200 && answer.status < 300) return { kind: 'sent', status: answer.status };
  if (answer.status === 404 || answer.status === 410) return { kind: 'gone', status: answer.status };
  return { kind: 'failed', status: answer.status, detail: answer.text.slice(0, 200) };
}
