import { IdParams, QueueOptionBody, QueueOptionListQuery, QueueOptionUpdateBody } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentOptionTree, presentQueueOption } from './queue-options.presenter.js';
import {
  attachQueueOptionMedia,
  createQueueOption,
  deleteQueueOption,
  listOptionsOfQueue,
  removeQueueOptionMedia,
  showQueueOptionTree,
  updateQueueOption,
  type QueueOptionsDeps,
  type UploadedFile,
} from './queue-options.service.js';

async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the file as multipart/form-data', fields: { file: ['Required'] } });
  let file: UploadedFile | undefined;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file' || file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "file"' });
    file = { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype };
  }
  if (!file) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send one file in the field "file"', fields: { file: ['Required'] } });
  return file;
}

/**
 * The queue option tree editor's API (spec part 2 §7). GET answers one level
 * (`parentId=-1` or absent: the roots) with each option's subtree in `children`.
 */
export function registerQueueOptionRoutes(scope: FastifyInstance, deps: QueueOptionsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (row: Parameters<typeof presentQueueOption>[0]) => presentQueueOption(row, deps.media);

  app.get('/queue-options', { schema: { querystring: QueueOptionListQuery } }, async (request) => {
    const { queueId, parentId } = request.query;
    const all = await listOptionsOfQueue(deps, request.ctx, queueId);
    const level = parentId === undefined || parentId <= 0 ? null : parentId;
    return presentOptionTree(all, level, deps.media);
  });

  app.get('/queue-options/:id', { schema: { params: IdParams } }, async (request) => {
    const { option, all } = await showQueueOptionTree(deps, request.ctx, request.params.id);
    return presentQueueOption(option, deps.media, presentOptionTree(all, option.id, deps.media));
  });

  app.post('/queue-options', { schema: { body: QueueOptionBody } }, async (request, reply) => {
    return reply.status(201).send(present(await createQueueOption(deps, request.ctx, request.body)));
  });

  app.put('/queue-options/:id', { schema: { params: IdParams, body: QueueOptionUpdateBody } }, async (request) => {
    return present(await updateQueueOption(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/queue-options/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteQueueOption(deps, request.ctx, request.params.id);
    return { message: 'Option deleted' };
  });

  app.post('/queue-options/:id/media-upload', { schema: { params: IdParams } }, async (request) => {
    return present(await attachQueueOptionMedia(deps, request.ctx, request.params.id, () => readUpload(request)));
  });

  app.delete('/queue-options/:id/media-upload', { schema: { params: IdParams } }, async (request) => {
    return present(await removeQueueOptionMedia(deps, request.ctx, request.params.id));
  });
}
