import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@atende/shared';

/** `whsec_` + 32 random bytes (base64url): shown once, kept sealed to sign every delivery. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * `x-atende-signature`: `sha256=` + the hex HMAC-SHA256, keyed with the whole secret
 * (its text, `whsec_` included), of `<timestamp>.<body>`. The timestamp is signed so a
 * captured delivery cannot be replayed later (receivers refuse old timestamps).
 */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
