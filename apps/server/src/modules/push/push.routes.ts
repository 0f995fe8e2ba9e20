import { PushSettingsBody, PushSubscriptionBody, PushUnsubscribeBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { changePushSettings, showPushSettings, subscribePush, unsubscribePush, type PushRoutesDeps } from './push.service.js';

/** Web Push (issue 35): every route acts on the caller's own browsers and choices. */
export function registerPushRoutes(scope: FastifyInstance, deps: PushRoutesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  // The key browsers subscribe with (PushManager.subscribe's applicationServerKey).
  app.get('/push/vapid-public-key', async () => ({ publicKey: deps.config.vapid.publicKey }));

  app.get('/push/settings', async (request) => showPushSettings(deps, request.ctx));

  app.put('/push/settings', { schema: { body: PushSettingsBody } }, async (request) => changePushSettings(deps, request.ctx, request.body));

  app.post('/push/subscriptions', { schema: { body: PushSubscriptionBody } }, async (request, reply) =>
    reply.status(201).send(await subscribePush(deps, request.ctx, request.body)),
  );

  app.delete('/push/subscriptions', { schema: { body: PushUnsubscribeBody } }, async (request) => unsubscribePush(deps, request.ctx, request.body.endpoint));
}
