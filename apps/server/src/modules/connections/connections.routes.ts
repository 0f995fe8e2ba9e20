import { ConnectionCreateBody, ConnectionListQuery, ConnectionUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { sessionAction } from './connections.sessions.js';
import { createConnection, deleteConnection, listCompanyConnections, present, showConnection, updateConnection } from './connections.service.js';

const SessionQuery = z.object({ session: z.string().max(10).optional() });

/**
 * Connections (spec part 2 §2.2, §7). Every user may list them (ticket screens
 * name connections); the rules `connections-page:*` gate changes, and only
 * those allowed to edit see the API token, the Cloud API settings (secrets
 * masked) and, with session detail, the QR code.
 */
export function registerConnectionRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/whatsapp', { schema: { querystring: ConnectionListQuery } }, async (request) => {
    return listCompanyConnections(services, request.ctx, request.query.session !== '0');
  });

  app.get('/whatsapp/:id', { schema: { params: IdParams, querystring: SessionQuery } }, async (request) => {
    const connection = await showConnection(services, request.ctx, request.params.id);
    return present(services, request.ctx, connection, request.query.session !== '0');
  });

  app.post('/whatsapp', { schema: { body: ConnectionCreateBody } }, async (request, reply) => {
    const connection = await createConnection(services, request.ctx, request.body);
    return reply.status(201).send(present(services, request.ctx, connection, true));
  });

  app.put('/whatsapp/:id', { schema: { params: IdParams, body: ConnectionUpdateBody } }, async (request) => {
    const connection = await updateConnection(services, request.ctx, request.params.id, request.body);
    return present(services, request.ctx, connection, true);
  });

  app.delete('/whatsapp/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteConnection(services, request.ctx, request.params.id);
    return { message: 'Whatsapp deleted.' };
  });

  app.post('/whatsappsession/:id', { schema: { params: IdParams } }, async (request) => sessionAction(services, request.ctx, request.params.id, 'retry'));
  app.put('/whatsappsession/:id', { schema: { params: IdParams } }, async (request) => sessionAction(services, request.ctx, request.params.id, 'newQr'));
  app.delete('/whatsappsession/:id', { schema: { params: IdParams } }, async (request) => sessionAction(services, request.ctx, request.params.id, 'disconnect'));
}
