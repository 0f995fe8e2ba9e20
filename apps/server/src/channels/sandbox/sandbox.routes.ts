import { randomUUID } from 'node:crypto';
import { id, orderSummary, SandboxEditBody, SandboxInboundBody, SandboxMessageRef, SandboxReactBody, SandboxReadBody } from '@atende/shared';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { ingestMessage } from '../../inbound/ingest.js';
import type { SpecialMediaType } from '../../inbound/inbound-message.js';
import { applyAck, applyEdit, applyReaction, applyRevoke } from '../../inbound/message-updates.js';
import { findConnection } from '../../modules/connections/connections.repo.js';
import { contacts, messages, type WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { stripUnsafeText } from '../../platform/text/unsafe-text.js';
import { outboxFor } from './sandbox.repo.js';
import { inTenant } from '../../platform/db/tenant.js';

const Params = z.object({ whatsappId: id() });

const SPECIAL_TYPES: Record<SandboxInboundBody['type'], SpecialMediaType | undefined> = {
  text: undefined,
  call: 'call_log',
  location: 'locationMessage',
  vcard: 'vcard',
  order: undefined,
};
const NumberQuery = z.object({ number: z.string().trim().regex(/^\+?\d{8,15}$/, 'validation.invalidNumber') });

async function sandboxConnection(services: AppServices, ctx: RequestContext, whatsappId: number): Promise<WhatsappRow> {
  requireAdmin(ctx);
  const connection = await findConnection(services.db, ctx, whatsappId);
  if (!connection || connection.provider !== 'sandbox') throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
}

async function readInbound(services: AppServices, request: FastifyRequest): Promise<{ body: SandboxInboundBody; media?: StoredMedia }> {
  if (!request.isMultipart()) {
    const parsed = SandboxInboundBody.safeParse(request.body ?? {});
    if (!parsed.success) throw parsed.error;
    return { body: parsed.data };
  }
  const fields: Record<string, string> = {};
  let media: StoredMedia | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'media' || media) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "media"' });
      media = await services.media.save(request.ctx, { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype });
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  const parsed = SandboxInboundBody.safeParse(fields);
  if (!parsed.success) throw parsed.error;
  return { body: parsed.data, media };
}

/**
 * The simulated customer's phone: what the customer "types" enters through the
 * ingest pipeline every provider uses; what the product sent is read back from
 * the sandbox outbox.
 */
export function registerSandboxRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post('/sandbox/:whatsappId/inbound', { schema: { params: Params }, config: { providerText: true } }, async (request, reply) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const { body, media } = await readInbound(services, request);
    const specialType = SPECIAL_TYPES[body.type];
    if (body.type === 'order' && !body.order) throw new AppError('ERR_VALIDATION', undefined, { fields: { order: ['validation.required'] } });
    const order = body.type === 'order' ? body.order : undefined;
    // A text of nothing but NUL is empty once ingest strips it.
    if (!stripUnsafeText(body.body).trim() && !media && !specialType && !order) throw new AppError('ERR_EMPTY_MESSAGE', undefined, { fields: { body: ['Required'] } });
    const result = await ingestMessage(services, {
      companyId: request.ctx.companyId,
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
    return reply.status(result.duplicate ? 200 : 201).send(result);
  });

  // The customer opened the chat: everything sent to that number is read (ack 3).
  app.post('/sandbox/:whatsappId/read', { schema: { params: Params, body: SandboxReadBody } }, async (request) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const sent = await outboxFor(services.db, request.ctx, connection.id, request.body.number);
    let read = 0;
    for (const { externalId } of sent) {
      if (await applyAck(services, { companyId: request.ctx.companyId, whatsappId: connection.id, externalId }, 3)) read += 1;
    }
    return { read };
  });

  app.post('/sandbox/:whatsappId/edit', { schema: { params: Params, body: SandboxEditBody }, config: { providerText: true } }, async (request) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const ref = { companyId: request.ctx.companyId, whatsappId: connection.id, externalId: request.body.id };
    if (!(await applyEdit(services, ref, request.body.body))) throw new AppError('ERR_NO_MESSAGE_FOUND');
    return { edited: true };
  });

  // The customer reacts to one of the product's messages (or takes the reaction back with an empty emoji).
  app.post('/sandbox/:whatsappId/react', { schema: { params: Params, body: SandboxReactBody }, config: { providerText: true } }, async (request) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const ref = { companyId: request.ctx.companyId, whatsappId: connection.id, externalId: request.body.id };
    if (!(await applyReaction(services, ref, request.body.from.replace(/\D/g, ''), request.body.emoji))) throw new AppError('ERR_NO_MESSAGE_FOUND');
    return { reacted: true };
  });

  app.post('/sandbox/:whatsappId/revoke', { schema: { params: Params, body: SandboxMessageRef } }, async (request) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const ref = { companyId: request.ctx.companyId, whatsappId: connection.id, externalId: request.body.id };
    if (!(await applyRevoke(services, ref))) throw new AppError('ERR_NO_MESSAGE_FOUND');
    return { revoked: true };
  });

  app.get('/sandbox/:whatsappId/outbox', { schema: { params: Params, querystring: NumberQuery } }, async (request) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const rows = await outboxFor(services.db, request.ctx, connection.id, request.query.number);
    return rows.map((row) => ({
      id: row.externalId,
      body: row.deleted ? '' : row.body,
      mediaType: row.mediaType,
      mediaName: row.mediaName,
      mediaUrl: row.mediaPath && !row.deleted ? services.media.signedUrl(row.mediaPath) : null,
      quotedId: row.quotedExternalId,
      deleted: row.deleted,
      createdAt: row.createdAt.toISOString(),
    }));
  });

  /** Both sides, in order, as the customer's phone shows them. */
  app.get('/sandbox/:whatsappId/conversation', { schema: { params: Params, querystring: NumberQuery } }, async (request) => {
    const connection = await sandboxConnection(services, request.ctx, request.params.whatsappId);
    const number = request.query.number.replace(/\D/g, '');
    const inbound = await services.db
      .select({ externalId: messages.externalId, id: messages.id, body: messages.body, mediaType: messages.mediaType, mediaPath: messages.mediaPath, mediaName: messages.mediaName, createdAt: messages.createdAt })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(
        inTenant(messages, request.ctx, eq(messages.whatsappId, connection.id), eq(contacts.number, number), eq(messages.fromMe, false)),
      )
      .orderBy(asc(messages.createdAt))
      .limit(500);
    const outbound = await outboxFor(services.db, request.ctx, connection.id, number);
    const entries = [
      ...inbound.map((m) => ({
        id: m.externalId ?? `msg-${m.id}`,
        fromCustomer: true,
        body: m.body,
        mediaType: m.mediaType,
        mediaName: m.mediaName,
        mediaUrl: m.mediaPath ? services.media.signedUrl(m.mediaPath) : null,
        quotedId: null,
        deleted: false,
        createdAt: m.createdAt.toISOString(),
      })),
      ...outbound.map((o) => ({
        id: o.externalId,
        fromCustomer: false,
        body: o.deleted ? '' : o.body,
        mediaType: o.mediaType,
        mediaName: o.mediaName,
        mediaUrl: o.mediaPath && !o.deleted ? services.media.signedUrl(o.mediaPath) : null,
        // A reply shows the message it quotes, as WhatsApp does.
        quotedId: o.quotedExternalId,
        deleted: o.deleted,
        createdAt: o.createdAt.toISOString(),
      })),
    ];
    // Stable on equal timestamps: the customer's message came first.
    return entries.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || Number(b.fromCustomer) - Number(a.fromCustomer));
  });
}
