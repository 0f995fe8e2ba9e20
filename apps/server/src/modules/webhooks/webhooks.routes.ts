import { id, WebhookBody, WebhookDeliveriesQuery, WebhookUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentCreatedWebhook, presentWebhook, presentWebhookDelivery } from './webhooks.presenter.js';
import { createWebhook, deleteWebhook, listWebhookDeliveries, listWebhooks, retryWebhookDelivery, updateWebhook, type WebhooksDeps } from './webhooks.service.js';

const WebhookParams = z.object({ id: id() });
const DeliveryParams = z.object({ id: id(), deliveryId: id() });

export function registerWebhookRoutes(scope: FastifyInstance, deps: WebhooksDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/webhooks', async (request) => ({ webhooks: (await listWebhooks(deps, request.ctx)).map(presentWebhook) }));

  app.post('/webhooks', { schema: { body: WebhookBody } }, async (request, reply) => {
    const { row, secret } = await createWebhook(deps, request.ctx, request.body);
    return reply.status(201).header('cache-control', 'no-store').send(presentCreatedWebhook(row, secret));
  });

  app.put('/webhooks/:id', { schema: { params: WebhookParams, body: WebhookUpdateBody } }, async (request) =>
    presentWebhook(await updateWebhook(deps, request.ctx, request.params.id, request.body)),
  );

  app.delete('/webhooks/:id', { schema: { params: WebhookParams } }, async (request, reply) => {
    await deleteWebhook(deps, request.ctx, request.params.id);
    return reply.status(204).send();
  });

  app.get('/webhooks/:id/deliveries', { schema: { params: WebhookParams, querystring: WebhookDeliveriesQuery } }, async (request) => {
    const { rows, hasMore } = await listWebhookDeliveries(deps, request.ctx, request.params.id, request.query);
    return { deliveries: rows.map(presentWebhookDelivery), hasMore };
  });

  app.post('/webhooks/:id/deliveries/:deliveryId/retry', { schema: { params: DeliveryParams } }, async (request, reply) =>
    reply.status(202).send({ delivery: presentWebhookDelivery(await retryWebhookDelivery(deps, request.ctx, request.params.id, request.params.deliveryId)) }),
  );
}
