import { FileListBody, FileListQuery, FileListUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { FileListOptionRow } from '../../platform/db/schema.js';
import type { UploadedFile } from '../../platform/storage/media-storage.js';
import { presentFileList } from './file-lists.presenter.js';
import type { FileListDetail } from './file-lists.repo.js';
import { createFileList, deleteFileList, fileListPage, showFileList, updateFileList, uploadFileListFiles, type FileListsDeps } from './file-lists.service.js';

async function adminsOnly(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
}

/** Multipart pairs: a field `optionId`, then the file for that option (field `file` or `files`). */
async function readOptionUploads(request: FastifyRequest, options: Pick<FileListOptionRow, 'id' | 'name'>[]): Promise<{ optionId: number; file: UploadedFile }[]> {
  if (!request.isMultipart()) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send the files as multipart/form-data', fields: { file: ['Required'] } });
  const uploads: { optionId: number; file: UploadedFile }[] = [];
  let optionId: number | null = null;
  // Ours: `optionId`, then its file. The whaticket v6 client's: per file, `files`, then its option's `name` and `id`
  // (the text "undefined" for an option just made: found by its name).
  const v6 = { files: [] as UploadedFile[], ids: [] as string[], names: [] as string[] };
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname === 'optionId') optionId = Number(part.value);
      else if (part.fieldname === 'id') v6.ids.push(String(part.value));
      else if (part.fieldname === 'name') v6.names.push(String(part.value));
      continue;
    }
    const file = { data: await part.toBuffer(), fileName: part.filename || 'file', mimeType: part.mimetype };
    if (part.fieldname === 'files' && optionId === null) {
      v6.files.push(file);
      continue;
    }
    if (optionId === null || !Number.isInteger(optionId) || optionId <= 0) {
      throw new AppError('ERR_VALIDATION', undefined, { message: 'Send optionId before each file', fields: { optionId: ['Required'] } });
    }
    uploads.push({ optionId, file });
    optionId = null;
  }
  for (const [index, file] of v6.files.entries()) {
    const id = Number(v6.ids[index]);
    const option = options.find((candidate) => candidate.id === id) ?? options.find((candidate) => candidate.name === v6.names[index]);
    if (!option) throw new AppError('ERR_VALIDATION', undefined, { message: 'Name the option of each file (id or name)', fields: { id: ['Required'] } });
    uploads.push({ optionId: option.id, file });
  }
  return uploads;
}

/** File lists (spec part 2 §2.11, §7): admins of the company. */
export function registerFileListRoutes(scope: FastifyInstance, deps: FileListsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (fileList: FileListDetail) => presentFileList(fileList, deps.media);
  const gate = { preValidation: adminsOnly };

  app.get('/files', { schema: { querystring: FileListQuery }, ...gate }, async (request) => {
    const page = await fileListPage(deps, request.ctx, request.query);
    return { files: page.files.map(present), hasMore: page.hasMore };
  });
  app.get('/files/:id', { schema: { params: IdParams }, ...gate }, async (request) => present(await showFileList(deps, request.ctx, request.params.id)));
  app.post('/files', { schema: { body: FileListBody }, ...gate }, async (request, reply) => reply.status(201).send(present(await createFileList(deps, request.ctx, request.body))));
  app.put('/files/:id', { schema: { params: IdParams, body: FileListUpdateBody }, ...gate }, async (request) => present(await updateFileList(deps, request.ctx, request.params.id, request.body)));
  app.delete('/files/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await deleteFileList(deps, request.ctx, request.params.id);
    return { message: 'File list deleted' };
  });
  app.post('/files/uploadList/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    const list = await showFileList(deps, request.ctx, request.params.id);
    return present(await uploadFileListFiles(deps, request.ctx, request.params.id, await readOptionUploads(request, list.options)));
  });
}
