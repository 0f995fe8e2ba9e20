import { FileListBody, FileListQuery, FileListUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { rooms } from '../../platform/realtime/rooms.js';
import type { UploadedFile } from '../../platform/storage/media-storage.js';
import { createFileList, deleteFileList, listFileLists, presentFileList, showFileList, updateFileList, uploadFileListFiles, type FileListDetail } from './file-lists.service.js';

async function adminsOnly(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
}

/** Multipart pairs: a field `optionId`, then the file for that option (field `file` or `files`). */
async function readOptionUploads(request: FastifyRequest): Promise<{ optionId: number; file: UploadedFile }[]> {
  if (!request.isMultipart()) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the files as multipart/form-data', fields: { file: ['Required'] } });
  const uploads: { optionId: number; file: UploadedFile }[] = [];
  let optionId: number | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname === 'optionId') optionId = Number(part.value);
      continue;
    }
    if (optionId === null || !Number.isInteger(optionId) || optionId <= 0) {
      throw new AppError('ERR_VALIDATION', undefined, { message: 'Send optionId before each file', fields: { optionId: ['Required'] } });
    }
    uploads.push({ optionId, file: { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype } });
    optionId = null;
  }
  return uploads;
}

/** File lists (spec part 2 §2.11, §7): admins of the company. */
export function registerFileListRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (fileList: FileListDetail) => presentFileList(fileList, services.media);
  const gate = { preValidation: adminsOnly };

  app.get('/files', { schema: { querystring: FileListQuery }, ...gate }, async (request) => {
    const page = await listFileLists(services.db, request.ctx, request.query);
    return { files: page.files.map(present), hasMore: page.hasMore };
  });
  app.get('/files/:id', { schema: { params: IdParams }, ...gate }, async (request) => present(await showFileList(services, request.ctx, request.params.id)));
  app.post('/files', { schema: { body: FileListBody }, ...gate }, async (request, reply) => reply.status(201).send(present(await createFileList(services, request.ctx, request.body))));
  app.put('/files/:id', { schema: { params: IdParams, body: FileListUpdateBody }, ...gate }, async (request) => present(await updateFileList(services, request.ctx, request.params.id, request.body)));
  app.delete('/files/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await deleteFileList(services, request.ctx, request.params.id);
    return { message: 'File list deleted' };
  });
  app.post('/files/uploadList/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await showFileList(services, request.ctx, request.params.id);
    return present(await uploadFileListFiles(services, request.ctx, request.params.id, await readOptionUploads(request)));
  });
}

/** Realtime `company-{id}-file` (create, update, delete) to the company's admins. */
export function subscribeFileListEvents(services: AppServices): void {
  const { events, publisher, media } = services;
  events.on('fileList.saved', ({ companyId, action, fileList }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'file', { action, fileList: presentFileList(fileList, media) });
  });
  events.on('fileList.deleted', ({ companyId, fileListId }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'file', { action: 'delete', fileId: fileListId });
  });
}
