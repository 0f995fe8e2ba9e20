import { KanbanQuery, TicketTagParams, TicketTagsParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTicket } from '../tickets/tickets.presenter.js';
import { presentKanbanPage } from './kanban.presenter.js';
import { listKanban, moveTicketToTag, removeTicketFromLanes, type KanbanDeps } from './kanban.service.js';

/** The kanban board's routes (spec part 2 §7), behind the plan flag useKanban. */
export function registerKanbanRoutes(scope: FastifyInstance, deps: KanbanDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/ticket/kanban', { schema: { querystring: KanbanQuery } }, async (request, reply) => {
    const page = await listKanban(deps, request.ctx, request.query);
    return reply.type('application/json; charset=utf-8').send(presentKanbanPage(page));
  });

  app.delete('/ticket-tags/:ticketId', { schema: { params: TicketTagsParams } }, async (request) => {
    return presentTicket(await removeTicketFromLanes(deps, request.ctx, request.params.ticketId));
  });

  app.put('/ticket-tags/:ticketId/:tagId', { schema: { params: TicketTagParams } }, async (request) => {
    return presentTicket(await moveTicketToTag(deps, request.ctx, request.params.ticketId, request.params.tagId));
  });
}
