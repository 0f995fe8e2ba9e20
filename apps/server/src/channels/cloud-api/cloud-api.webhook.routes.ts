import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CLOUD_API_WEBHOOK_PATH } from '../../modules/connections/cloud-api-settings.js';
import { acceptWebhook, Envelope, isWebhookVerifyToken, type CloudApiWebhookDeps } from './cloud-api.webhook.service.js';

/** Meta's webhook payloads are small; a batch of hundreds of statuses still fits. */
const WEBHOOK_BODY_LIMIT = 2 * 1024 * 1024;

const VerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().max(200).optional(),
  'hub.challenge': z.string().max(200).optional(),
});

/**
 * Meta's webhook for every Cloud API connection (public: no session).
 * GET answers `hub.challenge` when `hub.verify_token` is a connection's verify
 * token. POST is accepted only when `X-Hub-Signature-256` is the HMAC of the raw
 * body under the app secret of a connection the payload names; each change is
 * then queued for that connection and Meta gets its 200 at once.
 */
export async function registerCloudApiWebhookRoutes(app: FastifyInstance, deps: CloudApiWebhookDeps): Promise<void> {
  app.get(CLOUD_API_WEBHOOK_PATH, async (request, reply) => {
    const query = VerifyQuery.safeParse(request.query);
    const token = query.success ? query.data['hub.verify_token'] : undefined;
    if (!query.success || query.data['hub.mode'] !== 'subscribe' || !token) return reply.status(403).send({ error: 'ERR_NO_PERMISSION' });
    if (!(await isWebhookVerifyToken(deps, token))) return reply.status(403).send({ error: 'ERR_NO_PERMISSION' });
    return reply.type('text/plain').send(query.data['hub.challenge'] ?? '');
  });

  // The raw bytes are needed for the signature: only this route's scope parses JSON as a buffer.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(CLOUD_API_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : null;
      const signature = request.headers['x-hub-signature-256'];
      if (!raw || typeof signature !== 'string') return reply.status(401).send({ error: 'ERR_INVALID_API_TOKEN' });
      let envelope: Envelope;
      try {
        envelope = Envelope.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return reply.status(401).send({ error: 'ERR_INVALID_API_TOKEN' });
      }
      if (!(await acceptWebhook(deps, raw, signature, envelope))) return reply.status(401).send({ error: 'ERR_INVALID_API_TOKEN' });
      return reply.status(200).send({ received: true });
    });
  });
}
