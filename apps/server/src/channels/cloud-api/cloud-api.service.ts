import type { TemplateSendBody } from '@atende/shared';
import { providerKindOf } from '../../modules/connections/channel-provider.js';
import { findConnection } from '../../modules/connections/connections.repo.js';
import { storeAndDeliver, type Delivery, type OutgoingMessagesDeps } from '../../modules/messages/outgoing-messages.js';
import { showTicket, type TicketsDeps } from '../../modules/tickets/tickets.service.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import type { CloudApiChannels } from './cloud-api.channel.js';
import { customerWindow, type CustomerWindow } from './customer-window.js';
import type { GraphTemplate } from './graph-api.client.js';
import { renderTemplate, templateBodyText } from './message-templates.js';

/** The ticket, the outgoing message's store and send, the media's signed addresses and the registry's Cloud API. */
export type CloudApiDeps = OutgoingMessagesDeps & Pick<TicketsDeps, 'db'> & Pick<Platform, 'media'> & { channels: CloudApiChannels };

async function cloudConnection(deps: Pick<Platform, 'db'>, ctx: RequestContext, whatsappId: number | null): Promise<WhatsappRow> {
  const connection = whatsappId === null ? null : await findConnection(deps.db, ctx, whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  if (providerKindOf(connection.provider) !== 'cloud-api') {
    throw new AppError('ERR_VALIDATION', undefined, { message: 'Message templates exist only on Cloud API connections' });
  }
  return connection;
}

/** The WABA's message templates of a Cloud API connection. */
export async function listConnectionTemplates(deps: CloudApiDeps, ctx: RequestContext, whatsappId: number): Promise<GraphTemplate[]> {
  const connection = await cloudConnection(deps, ctx, whatsappId);
  return deps.channels.cloudApi().provider.listTemplates(connection);
}

/** The 24-hour window of the ticket's customer; null when the ticket's connection has none (not Cloud API). */
export async function ticketWindow(deps: CloudApiDeps, ctx: RequestContext, ticketId: number): Promise<CustomerWindow | null> {
  const ticket = await showTicket(deps, ctx, ticketId);
  const connection = ticket.whatsappId === null ? null : await findConnection(deps.db, ctx, ticket.whatsappId);
  if (!connection || providerKindOf(connection.provider) !== 'cloud-api') return null;
  return customerWindow(deps.db, connection, ticket.contact.number);
}

/**
 * Sends an approved template to the ticket's customer (allowed outside the window).
 * Stored before it is sent, like every outgoing message (ARCHITECTURE §3.14): the
 * delivery says whether the channel took it.
 */
export async function sendTicketTemplate(deps: CloudApiDeps, ctx: RequestContext, ticketId: number, input: TemplateSendBody): Promise<Delivery> {
  const ticket = await showTicket(deps, ctx, ticketId);
  if (ticket.status !== 'open') throw new AppError('ERR_TICKET_NOT_OPEN');
  const connection = await cloudConnection(deps, ctx, ticket.whatsappId);
  const { provider } = deps.channels.cloudApi();
  const { name, language, parameters } = input;
  const template = (await provider.listTemplates(connection)).find((entry) => entry.name === name && entry.language === language);
  if (!template) throw new AppError('ERR_NOT_FOUND', undefined, { message: 'Template not found' });
  const body = renderTemplate(templateBodyText(template), parameters) || name;
  const [delivery] = await storeAndDeliver(deps, ctx, {
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: connection.id,
    userId: ctx.user.id,
    source: 'agent',
    items: [{ message: { to: ticket.contact.number, body }, template: { name, language, parameters } }],
  });
  if (!delivery) throw new AppError('ERR_CREATING_MESSAGE');
  return delivery;
}
