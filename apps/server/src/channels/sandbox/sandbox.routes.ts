import { id, SandboxEditBody, SandboxInboundBody, SandboxMessageRef, SandboxReactBody, SandboxReadBody, type SandboxInboundAnswer } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { Platform } from '../../platform/platform.js';
import type { StoredMedia } from '../../platform/storage/media-storage.js';
import { presentConversation, presentOutboxEntry } from './sandbox.presenter.js';
import {
  editSandboxMessage,
  reactToSandboxMessage,
  readSandboxChat,
  receiveSandboxMessage,
  revokeSandboxMessage,
  sandboxConnection,
  sandboxConversation,
  sandboxOutbox,
  type SandboxDeps,
} from './sandbox.service.js';

const Params = z.object({ whatsappId: id() });
const NumberQuery = z.object({ number: z.string().trim().regex(/^\+?\d{8,15}$/, 'validation.invalidNumber') });

/** The inbound message's fields, as JSON or as a form with one file (`media`, stored in the company's storage). */
async function readInbound(deps: Pick<Platform, 'media'>, request: FastifyRequest): Promise<{ body: SandboxInboundBody; media?: StoredMedia }> {
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
      media = await deps.media.save(request.ctx, { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype });
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
export function registerSandboxRoutes(scope: FastifyInstance, deps: SandboxDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post('/sandbox/:whatsappId/inbound', { schema: { params: Params }, config: { providerText: true } }, async (request, reply) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    const { body, media } = await readInbound(deps, request);
    const result = await receiveSandboxMessage(deps, request.ctx, connection, body, media);
    return reply.status(result.duplicate ? 200 : 201).send(result satisfies SandboxInboundAnswer);
  });

  // The customer opened the chat: everything sent to that number is read (ack 3).
  app.post('/sandbox/:whatsappId/read', { schema: { params: Params, body: SandboxReadBody } }, async (request) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    return { read: await readSandboxChat(deps, request.ctx, connection, request.body.number) };
  });

  app.post('/sandbox/:whatsappId/edit', { schema: { params: Params, body: SandboxEditBody }, config: { providerText: true } }, async (request) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    await editSandboxMessage(deps, request.ctx, connection, request.body.id, request.body.body);
    return { edited: true };
  });

  // The customer reacts to one of the product's messages (or takes the reaction back with an empty emoji).
  app.post('/sandbox/:whatsappId/react', { schema: { params: Params, body: SandboxReactBody }, config: { providerText: true } }, async (request) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    await reactToSandboxMessage(deps, request.ctx, connection, request.body.id, request.body.from, request.body.emoji);
    return { reacted: true };
  });

  app.post('/sandbox/:whatsappId/revoke', { schema: { params: Params, body: SandboxMessageRef } }, async (request) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    await revokeSandboxMessage(deps, request.ctx, connection, request.body.id);
    return { revoked: true };
  });

  app.get('/sandbox/:whatsappId/outbox', { schema: { params: Params, querystring: NumberQuery } }, async (request) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    const rows = await sandboxOutbox(deps, request.ctx, connection, request.query.number);
    return rows.map((row) => presentOutboxEntry(row, deps.media));
  });

  /** Both sides, in order, as the customer's phone shows them. */
  app.get('/sandbox/:whatsappId/conversation', { schema: { params: Params, querystring: NumberQuery } }, async (request) => {
    const connection = await sandboxConnection(deps, request.ctx, request.params.whatsappId);
    const { inbound, outbound } = await sandboxConversation(deps, request.ctx, connection, request.query.number);
    return presentConversation(inbound, outbound, deps.media);
  });
}
