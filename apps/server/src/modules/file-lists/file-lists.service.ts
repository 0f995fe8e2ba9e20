import { FILE_LIST_EXTENSIONS, FILE_LIST_MAX_BYTES, type FileListBody, type FileListQuery, type FileListUpdateBody } from '@atende/shared';
import type { FileListOptionRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import type { UploadedFile } from '../../platform/storage/media-storage.js';
import {
  deleteFileListRow,
  deleteOtherOptions,
  findFileList,
  insertFileList,
  insertFileListOptions,
  listFileLists,
  updateFileListOption,
  updateFileListRow,
  type FileListDetail,
} from './file-lists.repo.js';

/** File lists: their rows, their options' files in the company's media, and the admins told of changes. */
export type FileListsDeps = Pick<Platform, 'db' | 'events' | 'media'>;

export function fileListPage(deps: Pick<Platform, 'db'>, scope: TenantScope, query: FileListQuery) {
  return listFileLists(deps.db, scope, query);
}

export async function showFileList(deps: Pick<Platform, 'db'>, scope: TenantScope, id: number): Promise<FileListDetail> {
  const list = await findFileList(deps.db, scope, id);
  if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  return list;
}

async function saved(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, action: 'create' | 'update', id: number): Promise<FileListDetail> {
  const fileList = await showFileList(deps, scope, id);
  deps.events.emit('fileList.saved', { companyId: scope.companyId, action, fileList });
  return fileList;
}

export async function createFileList(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, body: FileListBody): Promise<FileListDetail> {
  const id = await deps.db.transaction(async (tx) => {
    const listId = await insertFileList(tx, scope, { name: body.name, message: body.message });
    await insertFileListOptions(tx, scope, listId, body.options.map((option, position) => ({ name: option.name, position })));
    return listId;
  });
  return saved(deps, scope, 'create', id);
}

/** Options sent replace the list's: one kept by id keeps its file; one left out is deleted with its file. */
export async function updateFileList(deps: FileListsDeps, scope: TenantScope, id: number, body: FileListUpdateBody): Promise<FileListDetail> {
  const current = await showFileList(deps, scope, id);
  const removed: FileListOptionRow[] = [];
  await deps.db.transaction(async (tx) => {
    if (body.name !== undefined || body.message !== undefined) {
      await updateFileListRow(tx, scope, id, { name: body.name, message: body.message });
    }
    if (!body.options) return;
    const known = new Set(current.options.map((option) => option.id));
    const kept = body.options.filter((option) => option.id !== undefined && known.has(option.id)).map((option) => option.id!);
    removed.push(...current.options.filter((option) => !kept.includes(option.id)));
    await deleteOtherOptions(tx, scope, id, kept);
    for (const [position, option] of body.options.entries()) {
      if (option.id !== undefined && known.has(option.id)) {
        await updateFileListOption(tx, scope, option.id, { name: option.name, position });
      } else {
        await insertFileListOptions(tx, scope, id, [{ name: option.name, position }]);
      }
    }
  });
  for (const option of removed) if (option.path) await deps.media.remove(scope, option.path).catch(() => undefined);
  return saved(deps, scope, 'update', id);
}

export async function deleteFileList(deps: FileListsDeps, scope: TenantScope, id: number): Promise<void> {
  const current = await showFileList(deps, scope, id);
  await deleteFileListRow(deps.db, scope, id);
  for (const option of current.options) if (option.path) await deps.media.remove(scope, option.path).catch(() => undefined);
  deps.events.emit('fileList.deleted', { companyId: scope.companyId, fileListId: id });
}

function assertAllowed(file: UploadedFile): void {
  const name = file.fileName.toLowerCase();
  if (!FILE_LIST_EXTENSIONS.some((ext) => name.endsWith(ext))) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: [FILE_LIST_EXTENSIONS.join(', ')] } });
  if (file.data.length > FILE_LIST_MAX_BYTES) throw new AppError('ERR_VALIDATION', undefined, { message: 'At most 16 MB per file', fields: { file: ['validation.tooLong'] } });
}

/** `POST /files/uploadList/{id}`: each file goes to the option named by the `optionId` field sent before it. */
export async function uploadFileListFiles(deps: FileListsDeps, scope: TenantScope, id: number, uploads: { optionId: number; file: UploadedFile }[]): Promise<FileListDetail> {
  const current = await showFileList(deps, scope, id);
  if (uploads.length === 0) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send optionId then a file, for each file', fields: { file: ['Required'] } });
  for (const upload of uploads) {
    if (!current.options.some((option) => option.id === upload.optionId)) throw new AppError('ERR_VALIDATION', undefined, { message: 'Unknown option', fields: { optionId: ['validation.invalidValue'] } });
    assertAllowed(upload.file);
  }
  for (const upload of uploads) {
    const stored = await deps.media.save(scope, upload.file);
    const previous = current.options.find((option) => option.id === upload.optionId);
    await updateFileListOption(deps.db, scope, upload.optionId, { path: stored.path, fileName: stored.name, mimeType: stored.mimeType, size: stored.size });
    if (previous?.path) await deps.media.remove(scope, previous.path).catch(() => undefined);
  }
  return saved(deps, scope, 'update', id);
}
