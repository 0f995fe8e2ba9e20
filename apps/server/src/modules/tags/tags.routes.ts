import { IdParams, TagBody, TagListQuery, TagSyncBody, TagUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTag, presentTagSummary } from './tags.presenter.js';
import { listTagPage, listTagSummaries } from './tags.repo.js';
import { createTag, deleteTag, showTag, syncTicketTags, updateTag } from './tags.service.js';

export function registerTagRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/tags', { schema: { querystring: TagListQuery } }, async (request) => {
    const page = await listTagPage(services.db, request.ctx, request.query);
    return { tags: page.tags.map(presentTag), hasMore: page.hasMore, count: page.count };
  });

  app.get('/tags/list', { schema: { querystring: z.object({ companyId: z.string().max(20).optional() }) } }, async (request) => {
    return (await listTagSummaries(services.db, request.ctx)).map(presentTagSummary);
  });

  // The kanban board's lanes: one per tag marked kanban.
  app.get('/tags/kanban', async (request) => {
    requireFeature(request.ctx, 'useKanban');
    return { lista: (await listTagSummaries(services.db, request.ctx, { kanbanOnly: true })).map(presentTagSummary) };
  });

  app.get('/tags/:id', { schema: { params: IdParams } }, async (request) => {
    return presentTag(await showTag(services, request.ctx, request.params.id));
  });

  app.post('/tags', { schema: { body: TagBody } }, async (request, reply) => {
    return reply.status(201).send(presentTag(await createTag(services, request.ctx, request.body)));
  });

  app.put('/tags/:id', { schema: { params: IdParams, body: TagUpdateBody } }, async (request) => {
    return presentTag(await updateTag(services, request.ctx, request.params.id, request.body));
  });

  app.delete('/tags/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteTag(services, request.ctx, request.params.id);
    return { message: 'Tag deleted' };
  });

  /** Answers the ticket's tags after the change. */
  app.post('/tags/sync', { schema: { body: TagSyncBody } }, async (request) => {
    const ticket = await syncTicketTags(services, request.ctx, request.body);
    return ticket.tags;
  });
}
