import { KanbanQuery, TicketTagParams, TicketTagsParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTicket } from '../tickets/tickets.presenter.js';
import { listKanban, moveTicketToTag, removeTicketFromLanes } from './kanban.service.js';

/** The kanban board's routes (spec part 2 §7), behind the plan flag useKanban. */
export function registerKanbanRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/ticket/kanban', { schema: { querystring: KanbanQuery } }, async (request, reply) => {
    const page = await listKanban(services, request.ctx, request.query);
    // The cards come presented from the database, as the ticket lists do.
    return reply.type('application/json; charset=utf-8').send(`{"tickets":${page.ticketsJson},"count":${page.count},"hasMore":${page.hasMore}}`);
  });

  app.delete('/ticket-tags/:ticketId', { schema: { params: TicketTagsParams } }, async (request) => {
    return presentTicket(await removeTicketFromLanes(services, request.ctx, request.params.ticketId));
  });

  app.put('/ticket-tags/:ticketId/:tagId', { schema: { params: TicketTagParams } }, async (request) => {
    return presentTicket(await moveTicketToTag(services, request.ctx, request.params.ticketId, request.params.tagId));
  });
}
