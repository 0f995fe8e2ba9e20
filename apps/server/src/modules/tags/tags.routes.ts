import { IdParams, TagBody, TagListQuery, TagSyncBody, TagUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTag, presentTagSummary } from './tags.presenter.js';
import { createTag, deleteTag, listKanbanLanes, listTagOptions, listTags, showTag, syncTicketTags, updateTag, type TagsDeps } from './tags.service.js';

export function registerTagRoutes(scope: FastifyInstance, deps: TagsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/tags', { schema: { querystring: TagListQuery } }, async (request) => {
    const page = await listTags(deps, request.ctx, request.query);
    return { tags: page.tags.map(presentTag), hasMore: page.hasMore, count: page.count };
  });

  // `companyId` is accepted for compatibility and ignored: the session decides the company.
  app.get('/tags/list', { schema: { querystring: z.object({ companyId: z.string().max(20).optional() }) } }, async (request) => {
    return (await listTagOptions(deps, request.ctx)).map(presentTagSummary);
  });

  app.get('/tags/kanban', async (request) => {
    return { lista: (await listKanbanLanes(deps, request.ctx)).map(presentTagSummary) };
  });

  app.get('/tags/:id', { schema: { params: IdParams } }, async (request) => {
    return presentTag(await showTag(deps, request.ctx, request.params.id));
  });

  app.post('/tags', { schema: { body: TagBody } }, async (request, reply) => {
    return reply.status(201).send(presentTag(await createTag(deps, request.ctx, request.body)));
  });

  app.put('/tags/:id', { schema: { params: IdParams, body: TagUpdateBody } }, async (request) => {
    return presentTag(await updateTag(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/tags/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteTag(deps, request.ctx, request.params.id);
    return { message: 'Tag deleted' };
  });

  /** Answers the ticket's tags after the change. */
  app.post('/tags/sync', { schema: { body: TagSyncBody } }, async (request) => {
    const ticket = await syncTicketTags(deps, request.ctx, request.body);
    return ticket.tags;
  });
}
