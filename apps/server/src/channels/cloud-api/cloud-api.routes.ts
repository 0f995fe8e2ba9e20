import { id, IdParams, TemplateSendBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { presentMessage } from '../../modules/messages/messages.presenter.js';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTemplate, presentTicketWindow } from './cloud-api.presenter.js';
import { listConnectionTemplates, sendTicketTemplate, ticketWindow, type CloudApiDeps } from './cloud-api.service.js';

const TicketParams = z.object({ ticketId: id() });

/**
 * The Cloud API's composer support: the WABA's message templates, the 24-hour
 * window of a ticket's customer, and sending a template (allowed outside the
 * window). Any user who may open the ticket may use them.
 */
export function registerCloudApiRoutes(scope: FastifyInstance, deps: CloudApiDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/whatsapp/:id/templates', { schema: { params: IdParams } }, async (request) => {
    const templates = await listConnectionTemplates(deps, request.ctx, request.params.id);
    return { templates: templates.map(presentTemplate) };
  });

  app.get('/messages/:ticketId/window', { schema: { params: TicketParams } }, async (request) => {
    return presentTicketWindow(await ticketWindow(deps, request.ctx, request.params.ticketId));
  });

  app.post('/messages/:ticketId/template', { schema: { params: TicketParams, body: TemplateSendBody } }, async (request, reply) => {
    const { message, error } = await sendTicketTemplate(deps, request.ctx, request.params.ticketId, request.body);
    if (error) throw new AppError(error.code, error.statusCode, { ...error.extra, messages: [presentMessage(message, deps.media)] });
    return reply.status(201).send([presentMessage(message, deps.media)]);
  });
}
