import { IdParams, QueueBody, QueueUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentQueue } from './queues.presenter.js';
import { listQueues } from './queues.repo.js';
import { createQueue, deleteQueue, showQueue, updateQueue } from './queues.service.js';

export { presentQueue } from './queues.presenter.js';

/** Queues (spec part 2 §7): everyone reads them (queue pickers); admins change them. */
export function registerQueueRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // `companyId` is accepted for compatibility and ignored: the session decides the company.
  app.get('/queue', { schema: { querystring: z.object({ companyId: z.string().optional() }) } }, async (request) => {
    return (await listQueues(services.db, request.ctx)).map(presentQueue);
  });

  app.get('/queue/:id', { schema: { params: IdParams } }, async (request) => {
    return presentQueue(await showQueue(services, request.ctx, request.params.id));
  });

  app.post('/queue', { schema: { body: QueueBody } }, async (request, reply) => {
    return reply.status(201).send(presentQueue(await createQueue(services, request.ctx, request.body)));
  });

  app.put('/queue/:id', { schema: { params: IdParams, body: QueueUpdateBody } }, async (request) => {
    return presentQueue(await updateQueue(services, request.ctx, request.params.id, request.body));
  });

  app.delete('/queue/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteQueue(services, request.ctx, request.params.id);
    return { message: 'Queue deleted' };
  });
}
