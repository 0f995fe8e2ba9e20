import { randomUUID } from 'node:crypto';
import { orderSummary, type SandboxInboundBody } from '@atende/shared';
import { ingestMessage, type InboundDeps } from '../../inbound/ingest.js';
import type { SpecialMediaType } from '../../inbound/inbound-message.js';
import { applyAck, applyEdit, applyReaction, applyRevoke, type DeliveryReportsDeps, type MessageUpdatesDeps } from '../../inbound/message-updates.js';
import { findConnection } from '../../modules/connections/connections.repo.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { stripUnsafeText } from '../../platform/text/unsafe-text.js';
import { inboundFor, outboxFor } from './sandbox.repo.js';

/** The simulated phone's side: the ingest pipeline and the updates of stored messages, as a real provider's events reach them. */
export type SandboxDeps = InboundDeps & DeliveryReportsDeps & Pick<Platform, 'db' | 'media'>;

const SPECIAL_TYPES: Record<SandboxInboundBody['type'], SpecialMediaType | undefined> = {
  text: undefined,
  call: 'call_log',
  location: 'locationMessage',
  vcard: 'vcard',
  order: undefined,
};

/** A sandbox connection of the caller's company; only admins drive the simulated phone. */
export async function sandboxConnection(deps: Pick<Platform, 'db'>, ctx: RequestContext, whatsappId: number): Promise<WhatsappRow> {
  requireAdmin(ctx);
  const connection = await findConnection(deps.db, ctx, whatsappId);
  if (!connection || connection.provider !== 'sandbox') throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
}

/** What the customer "types" enters through the ingest pipeline every provider uses. */
export async function receiveSandboxMessage(
  deps: InboundDeps,
  ctx: RequestContext,
  connection: WhatsappRow,
  body: SandboxInboundBody,
  media: StoredMedia | undefined,
): ReturnType<typeof ingestMessage> {
  const specialType = SPECIAL_TYPES[body.type];
  if (body.type === 'order' && !body.order) throw new AppError('ERR_VALIDATION', undefined, { fields: { order: ['validation.required'] } });
  const order = body.type === 'order' ? body.order : undefined;
  // A text of nothing but NUL is empty once ingest strips it.
  if (!stripUnsafeText(body.body).trim() && !media && !specialType && !order) throw new AppError('ERR_EMPTY_MESSAGE', undefined, { fields: { body: ['Required'] } });
  return ingestMessage(deps, {
    channel: 'sandbox',
    companyId: ctx.companyId,
    whatsappId: connection.id,
    // A real phone gives every message an id; quotes and acks resolve through it.
    externalId: body.id ?? `sandbox-in-${randomUUID()}`,
    from: body.from.replace(/\D/g, ''),
    contactName: body.name,
    body: order ? orderSummary(order) : body.body,
    media,
    specialType,
    ...(order ? { data: { order } } : {}),
    quotedExternalId: body.quotedId ?? null,
  });
}

/** The customer opened the chat: everything sent to that number is read (ack 3). Answers how many changed. */
export async function readSandboxChat(deps: DeliveryReportsDeps, ctx: RequestContext, connection: WhatsappRow, number: string): Promise<number> {
  const sent = await outboxFor(deps.db, ctx, connection.id, number);
  let read = 0;
  for (const { externalId } of sent) {
    if (await applyAck(deps, { companyId: ctx.companyId, whatsappId: connection.id, externalId }, 3)) read += 1;
  }
  return read;
}

const messageRef = (ctx: RequestContext, connection: WhatsappRow, externalId: string) => ({ companyId: ctx.companyId, whatsappId: connection.id, externalId });

export async function editSandboxMessage(deps: MessageUpdatesDeps, ctx: RequestContext, connection: WhatsappRow, externalId: string, body: string): Promise<void> {
  if (!(await applyEdit(deps, messageRef(ctx, connection, externalId), body))) throw new AppError('ERR_NO_MESSAGE_FOUND');
}

/** The customer reacts to one of the product's messages (an empty emoji takes the reaction back). */
export async function reactToSandboxMessage(
  deps: MessageUpdatesDeps,
  ctx: RequestContext,
  connection: WhatsappRow,
  externalId: string,
  from: string,
  emoji: string,
): Promise<void> {
  if (!(await applyReaction(deps, messageRef(ctx, connection, externalId), from.replace(/\D/g, ''), emoji))) throw new AppError('ERR_NO_MESSAGE_FOUND');
}

export async function revokeSandboxMessage(deps: MessageUpdatesDeps, ctx: RequestContext, connection: WhatsappRow, externalId: string): Promise<void> {
  if (!(await applyRevoke(deps, messageRef(ctx, connection, externalId)))) throw new AppError('ERR_NO_MESSAGE_FOUND');
}

/** What the product sent to one number, oldest first. */
export async function sandboxOutbox(deps: Pick<Platform, 'db'>, ctx: RequestContext, connection: WhatsappRow, number: string) {
  return outboxFor(deps.db, ctx, connection.id, number);
}

/** Both sides of the chat with one number: what the customer sent and what the product sent. */
export async function sandboxConversation(deps: Pick<Platform, 'db'>, ctx: RequestContext, connection: WhatsappRow, number: string) {
  const digits = number.replace(/\D/g, '');
  const inbound = await inboundFor(deps.db, ctx, connection.id, digits);
  const outbound = await outboxFor(deps.db, ctx, connection.id, digits);
  return { inbound, outbound };
}
