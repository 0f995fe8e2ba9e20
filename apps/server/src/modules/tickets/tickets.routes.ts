import { CloseAllTicketsBody, CreateTicketBody, IdParams, TicketListQuery, UpdateTicketBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTicket } from './tickets.presenter.js';
import { closeAllTickets, countTicketList, createTicket, deleteTicket, listTicketPage, showTicket, showTicketByUuid, updateTicket, type TicketsDeps } from './tickets.service.js';

export function registerTicketRoutes(scope: FastifyInstance, deps: TicketsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/tickets', { schema: { querystring: TicketListQuery } }, async (request, reply) => {
    const page = await listTicketPage(deps, request.ctx, request.query);
    // The tickets come presented from the database (presentTicketsInDatabase) as JSON text.
    return reply.type('application/json; charset=utf-8').send(`{"tickets":${page.ticketsJson},"hasMore":${page.hasMore}}`);
  });

  // Ours (the spec's list answers only tickets and hasMore): the whole list's size
  // for the same query, for the tickets manager's badges and the top bar's bell.
  app.get('/tickets/count', { schema: { querystring: TicketListQuery } }, async (request) => {
    return { count: await countTicketList(deps, request.ctx, request.query) };
  });

  app.get('/tickets/u/:uuid', { schema: { params: z.object({ uuid: z.string().max(64) }) } }, async (request) => {
    return presentTicket(await showTicketByUuid(deps, request.ctx, request.params.uuid));
  });

  app.get('/tickets/:id', { schema: { params: IdParams } }, async (request) => {
    return presentTicket(await showTicket(deps, request.ctx, request.params.id));
  });

  app.post('/tickets', { schema: { body: CreateTicketBody } }, async (request, reply) => {
    const ticket = await createTicket(deps, request.ctx, request.body);
    return reply.status(201).send(presentTicket(ticket));
  });

  // whaticket v6's "close all" of its open or pending tab.
  app.post('/tickets/closeAll', { schema: { body: CloseAllTicketsBody } }, async (request) => {
    return closeAllTickets(deps, request.ctx, request.body.status, request.body.selectedQueueIds ?? null);
  });

  app.put('/tickets/:id', { schema: { params: IdParams, body: UpdateTicketBody } }, async (request) => {
    return presentTicket(await updateTicket(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/tickets/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteTicket(deps, request.ctx, request.params.id);
    return { message: 'ticket deleted' };
  });
}
