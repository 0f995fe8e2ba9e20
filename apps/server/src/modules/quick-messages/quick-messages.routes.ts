import { IdParams, QuickMessageBody, QuickMessageListQuery, QuickMessageUpdateBody } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentQuickMessage, type QuickMessageRow } from './quick-messages.presenter.js';
import {
  attachQuickMessageMedia,
  createQuickMessage,
  deleteQuickMessage,
  listQuickMessages,
  listQuickMessageSuggestions,
  removeQuickMessageMedia,
  showQuickMessage,
  updateQuickMessage,
  type MediaFile,
  type QuickMessagesDeps,
} from './quick-messages.service.js';

/** One file in the field `file`; `typeArch` (the spec client's folder hint) is accepted and ignored. Schedules read their attachment with it too. */
export async function readUpload(request: FastifyRequest): Promise<MediaFile> {
  if (!request.isMultipart()) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the file as multipart/form-data', fields: { file: ['Required'] } });
  let file: MediaFile | undefined;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file' || file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "file"' });
    file = { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype };
  }
  if (!file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "file"', fields: { file: ['Required'] } });
  return file;
}

export function registerQuickMessageRoutes(scope: FastifyInstance, deps: QuickMessagesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (quickMessage: QuickMessageRow) => presentQuickMessage(quickMessage, deps.media);

  app.get('/quick-messages', { schema: { querystring: QuickMessageListQuery } }, async (request) => {
    const page = await listQuickMessages(deps, request.ctx, request.query);
    return { records: page.records.map(present), hasMore: page.hasMore, count: page.count };
  });

  // `companyId` and `userId` are accepted for compatibility: the session decides both.
  app.get(
    '/quick-messages/list',
    { schema: { querystring: z.object({ companyId: z.string().max(20).optional(), userId: z.string().max(20).optional() }) } },
    async (request) => (await listQuickMessageSuggestions(deps, request.ctx)).map(present),
  );

  app.get('/quick-messages/:id', { schema: { params: IdParams } }, async (request) => {
    return present(await showQuickMessage(deps, request.ctx, request.params.id));
  });

  app.post('/quick-messages', { schema: { body: QuickMessageBody } }, async (request, reply) => {
    return reply.status(201).send(present(await createQuickMessage(deps, request.ctx, request.body)));
  });

  app.put('/quick-messages/:id', { schema: { params: IdParams, body: QuickMessageUpdateBody } }, async (request) => {
    return present(await updateQuickMessage(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/quick-messages/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteQuickMessage(deps, request.ctx, request.params.id);
    return { message: 'Quick message deleted' };
  });

  app.post('/quick-messages/:id/media-upload', { schema: { params: IdParams } }, async (request) => {
    return present(await attachQuickMessageMedia(deps, request.ctx, request.params.id, () => readUpload(request)));
  });

  app.delete('/quick-messages/:id/media-upload', { schema: { params: IdParams } }, async (request) => {
    return present(await removeQuickMessageMedia(deps, request.ctx, request.params.id));
  });
}
