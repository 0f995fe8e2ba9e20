import { id, IdParams, TemplateSendBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { presentMessage } from '../../modules/messages/messages.presenter.js';
import { findConnection } from '../../modules/connections/connections.repo.js';
import { showTicket } from '../../modules/tickets/tickets.service.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { providerKindOf } from '../../modules/connections/channel-provider.js';
import { storeAndDeliver } from '../../modules/messages/outgoing-messages.js';
import { customerWindow } from './customer-window.js';
import type { GraphTemplate } from './graph-api.client.js';

const TicketParams = z.object({ ticketId: id() });

function bodyText(template: GraphTemplate): string {
  return template.components?.find((component) => component.type.toUpperCase() === 'BODY')?.text ?? '';
}

/** How many `{{n}}` parameters the template's body takes. */
function parameterCount(text: string): number {
  const numbers = [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => Number(match[1]));
  return numbers.length === 0 ? 0 : Math.max(...numbers);
}

function render(text: string, parameters: string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);
}

function presentTemplate(template: GraphTemplate) {
  const text = bodyText(template);
  return {
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category ?? null,
    body: text,
    parameters: parameterCount(text),
  };
}

async function cloudConnection(services: AppServices, ctx: RequestContext, whatsappId: number | null): Promise<WhatsappRow> {
  const connection = whatsappId === null ? null : await findConnection(services.db, ctx, whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  if (providerKindOf(connection.provider) !== 'cloud-api') {
    throw new AppError('ERR_VALIDATION', undefined, { message: 'Message templates exist only on Cloud API connections' });
  }
  return connection;
}

/**
 * The Cloud API's composer support: the WABA's message templates, the 24-hour
 * window of a ticket's customer, and sending a template (allowed outside the
 * window). Any user who may open the ticket may use them.
 */
export function registerCloudApiRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/whatsapp/:id/templates', { schema: { params: IdParams } }, async (request) => {
    const connection = await cloudConnection(services, request.ctx, request.params.id);
    const templates = await services.channels.cloudApi().provider.listTemplates(connection);
    return { templates: templates.map(presentTemplate) };
  });

  app.get('/messages/:ticketId/window', { schema: { params: TicketParams } }, async (request) => {
    const ticket = await showTicket(services, request.ctx, request.params.ticketId);
    const connection = ticket.whatsappId === null ? null : await findConnection(services.db, request.ctx, ticket.whatsappId);
    if (!connection || providerKindOf(connection.provider) !== 'cloud-api') return { required: false, open: true, expiresAt: null };
    const window = await customerWindow(services.db, connection, ticket.contact.number);
    return { required: true, open: window.open, expiresAt: window.expiresAt?.toISOString() ?? null };
  });

  app.post('/messages/:ticketId/template', { schema: { params: TicketParams, body: TemplateSendBody } }, async (request, reply) => {
    const { ctx } = request;
    const ticket = await showTicket(services, ctx, request.params.ticketId);
    if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN');
    const connection = await cloudConnection(services, ctx, ticket.whatsappId);
    const { provider } = services.channels.cloudApi();
    const { name, language, parameters } = request.body;
    const template = (await provider.listTemplates(connection)).find((entry) => entry.name === name && entry.language === language);
    if (!template) throw new AppError('ERR_NOT_FOUND', undefined, { message: 'Template not found' });
    // Stored before it is sent, like every outgoing message (ARCHITECTURE §3.14).
    const body = render(bodyText(template), parameters) || name;
    const [delivery] = await storeAndDeliver(services, ctx, {
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: connection.id,
      userId: ctx.user.id,
      source: 'agent',
      items: [{ message: { to: ticket.contact.number, body }, template: { name, language, parameters } }],
    });
    if (!delivery) throw new AppError('ERR_CREATING_MESSAGE');
    const { message, error } = delivery;
    if (error) throw new AppError(error.code, error.statusCode, { ...error.extra, messages: [presentMessage(message, services.media)] });
    return reply.status(201).send([presentMessage(message, services.media)]);
  });
}
