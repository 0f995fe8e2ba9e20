import { createHmac, timingSafeEqual } from 'node:crypto';
import { startFakeHttp, type FakeHttp, type FakeReply, type FakeRequest } from './fake-http.js';

/**
 * What an n8n workflow (Webhook node) or any HTTP receiver looks like to us: it
 * takes the POSTed JSON and answers; the test scripts the answer. It can check
 * the HMAC-SHA256 signature header on the raw body as a receiver would.
 */
export interface FakeWebhookReceiver extends FakeHttp {
  respond(handler: (request: FakeRequest) => FakeReply): void;
  /** Whether a request carries a valid `x-atende-signature` for this secret. */
  signatureValid(request: FakeRequest, secret: string): boolean;
}

export async function startFakeWebhookReceiver(): Promise<FakeWebhookReceiver> {
  let handler: (request: FakeRequest) => FakeReply = () => ({ status: 200, json: {} });
  const server = await startFakeHttp((request) => handler(request));
  return {
    ...server,
    respond(next) {
      handler = next;
    },
    signatureValid(request, secret) {
      const given = String(request.headers['x-atende-signature'] ?? '');
      const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
      return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    },
  };
}
