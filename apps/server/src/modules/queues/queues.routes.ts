import { IdParams, QueueBody, QueueUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentQueue } from './queues.presenter.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { attachQueueMedia, createQueue, deleteQueue, listCompanyQueues, removeQueueMedia, showQueue, updateQueue, type QueueMediaDeps } from './queues.service.js';

/** Queues (spec part 2 §7): everyone reads them (queue pickers); admins change them. */
export function registerQueueRoutes(scope: FastifyInstance, deps: QueueMediaDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // `companyId` is accepted for compatibility and ignored: the session decides the company.
  app.get('/queue', { schema: { querystring: z.object({ companyId: z.string().optional() }) } }, async (request) => {
    return (await listCompanyQueues(deps, request.ctx)).map(presentQueue);
  });

  app.get('/queue/:id', { schema: { params: IdParams } }, async (request) => {
    return presentQueue(await showQueue(deps, request.ctx, request.params.id));
  });

  app.post('/queue', { schema: { body: QueueBody } }, async (request, reply) => {
    return reply.status(201).send(presentQueue(await createQueue(deps, request.ctx, request.body)));
  });

  app.put('/queue/:id', { schema: { params: IdParams, body: QueueUpdateBody } }, async (request) => {
    return presentQueue(await updateQueue(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/queue/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteQueue(deps, request.ctx, request.params.id);
    return { message: 'Queue deleted' };
  });

  // whaticket v6's queue media: one file (field `file`) sent with the queue's greeting.
  app.post('/queue/:id/media-upload', { schema: { params: IdParams } }, async (request) => {
    return presentQueue(await attachQueueMedia(deps, request.ctx, request.params.id, () => readUpload(request)));
  });

  app.delete('/queue/:id/media-upload', { schema: { params: IdParams } }, async (request) => {
    return presentQueue(await removeQueueMedia(deps, request.ctx, request.params.id));
  });
}
