import { ConnectionCreateBody, ConnectionListQuery, ConnectionUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RequestContext } from '../../platform/http/context.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { SessionAction } from './channel-provider.js';
import { present, presentSessionAction } from './connections.presenter.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import {
  attachGreetingMedia,
  createConnection,
  deleteConnection,
  listCompanyConnections,
  removeGreetingMedia,
  restartCompanySessions,
  sessionAction,
  showConnection,
  updateConnection,
  type GreetingMediaDeps,
} from './connections.service.js';

const SessionQuery = z.object({ session: z.string().max(10).optional() });

/**
 * Connections (spec part 2 §2.2, §7). Every user may list them (ticket screens
 * name connections); the rules `connections-page:*` gate changes, and only
 * those allowed to edit see the API token, the Cloud API settings (secrets
 * masked) and, with session detail, the QR code.
 */
export function registerConnectionRoutes(scope: FastifyInstance, deps: GreetingMediaDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/whatsapp', { schema: { querystring: ConnectionListQuery } }, async (request) => {
    const session = request.query.session !== '0';
    return (await listCompanyConnections(deps, request.ctx)).map((connection) => present(deps.secrets, request.ctx, connection, session));
  });

  app.get('/whatsapp/:id', { schema: { params: IdParams, querystring: SessionQuery } }, async (request) => {
    const connection = await showConnection(deps, request.ctx, request.params.id);
    return present(deps.secrets, request.ctx, connection, request.query.session !== '0');
  });

  app.post('/whatsapp', { schema: { body: ConnectionCreateBody } }, async (request, reply) => {
    const connection = await createConnection(deps, request.ctx, request.body);
    return reply.status(201).send(present(deps.secrets, request.ctx, connection, true));
  });

  app.put('/whatsapp/:id', { schema: { params: IdParams, body: ConnectionUpdateBody } }, async (request) => {
    const connection = await updateConnection(deps, request.ctx, request.params.id, request.body);
    return present(deps.secrets, request.ctx, connection, true);
  });

  app.delete('/whatsapp/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteConnection(deps, request.ctx, request.params.id);
    return { message: 'Whatsapp deleted.' };
  });

  const session = async (ctx: RequestContext, id: number, action: SessionAction) => presentSessionAction(action, await sessionAction(deps, ctx, id, action));
  app.post('/whatsappsession/:id', { schema: { params: IdParams } }, async (request) => session(request.ctx, request.params.id, 'retry'));
  app.put('/whatsappsession/:id', { schema: { params: IdParams } }, async (request) => session(request.ctx, request.params.id, 'newQr'));
  app.delete('/whatsappsession/:id', { schema: { params: IdParams } }, async (request) => session(request.ctx, request.params.id, 'disconnect'));
  // whaticket v6's greeting media: one file (field `file`) sent with the connection's greeting.
  app.post('/whatsapp/:id/greeting-media', { schema: { params: IdParams } }, async (request) => {
    return present(deps.secrets, request.ctx, await attachGreetingMedia(deps, request.ctx, request.params.id, () => readUpload(request)), true);
  });
  app.delete('/whatsapp/:id/greeting-media', { schema: { params: IdParams } }, async (request) => {
    return present(deps.secrets, request.ctx, await removeGreetingMedia(deps, request.ctx, request.params.id), true);
  });

  // whaticket v6's "restart all" of the connections page.
  app.post('/whatsapp-restart', async (request) => ({ message: 'Whatsapp restart.', restarted: await restartCompanySessions(deps, request.ctx) }));
}
