import { FILE_LIST_EXTENSIONS, FILE_LIST_MAX_BYTES, type FileListBody, type FileListQuery, type FileListUpdateBody, type PresentedFileList } from '@atende/shared';
import { asc, eq, ilike, inArray, notInArray } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import type { DbOrTx } from '../../platform/db/client.js';
import { fileListOptions, fileLists, type FileListOptionRow, type FileListRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { TenantScope } from '../../platform/http/context.js';
import { mediaTypeOf, type MediaStorage, type UploadedFile } from '../../platform/storage/media-storage.js';
import { inTenant } from '../../platform/db/tenant.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'fileList.saved': { companyId: number; action: 'create' | 'update'; fileList: FileListDetail };
    'fileList.deleted': { companyId: number; fileListId: number };
  }
}

export const FILE_LISTS_PAGE_SIZE = 20;

export interface FileListDetail extends FileListRow {
  options: FileListOptionRow[];
}

export function presentFileList(row: FileListDetail, media: Pick<MediaStorage, 'signedUrl'>): PresentedFileList {
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    options: row.options.map((option) => ({
      id: option.id,
      name: option.name,
      // The file's own name, never where it lies on disk.
      path: option.path ? option.fileName : null,
      mediaType: option.mimeType ? mediaTypeOf(option.mimeType) : null,
      mediaUrl: option.path ? media.signedUrl(option.path) : null,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function withOptions(db: DbOrTx, scope: TenantScope, rows: FileListRow[]): Promise<FileListDetail[]> {
  if (rows.length === 0) return [];
  const options = await db
    .select()
    .from(fileListOptions)
    .where(inTenant(fileListOptions, scope, inArray(fileListOptions.fileListId, rows.map((row) => row.id))))
    .orderBy(asc(fileListOptions.position), asc(fileListOptions.id));
  return rows.map((row) => ({ ...row, options: options.filter((option) => option.fileListId === row.id) }));
}

export async function findFileList(db: DbOrTx, scope: TenantScope, id: number): Promise<FileListDetail | null> {
  const rows = await db.select().from(fileLists).where(inTenant(fileLists, scope, eq(fileLists.id, id)));
  const [row] = await withOptions(db, scope, rows);
  return row ?? null;
}

export async function listFileLists(db: DbOrTx, scope: TenantScope, query: FileListQuery) {
  const search = query.searchParam.trim();
  const rows = await db
    .select()
    .from(fileLists)
    .where(inTenant(fileLists, scope, search ? ilike(fileLists.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined))
    .orderBy(asc(fileLists.name), asc(fileLists.id))
    .limit(FILE_LISTS_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * FILE_LISTS_PAGE_SIZE);
  return { files: await withOptions(db, scope, rows.slice(0, FILE_LISTS_PAGE_SIZE)), hasMore: rows.length > FILE_LISTS_PAGE_SIZE };
}

export async function showFileList(services: AppServices, scope: TenantScope, id: number): Promise<FileListDetail> {
  const list = await findFileList(services.db, scope, id);
  if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  return list;
}

async function saved(services: AppServices, scope: TenantScope, action: 'create' | 'update', id: number): Promise<FileListDetail> {
  const fileList = await showFileList(services, scope, id);
  services.events.emit('fileList.saved', { companyId: scope.companyId, action, fileList });
  return fileList;
}

export async function createFileList(services: AppServices, scope: TenantScope, body: FileListBody): Promise<FileListDetail> {
  const id = await services.db.transaction(async (tx) => {
    const [row] = await tx.insert(fileLists).values({ companyId: scope.companyId, name: body.name, message: body.message }).returning({ id: fileLists.id });
    if (!row) throw new Error('insert returned nothing');
    if (body.options.length) {
      await tx.insert(fileListOptions).values(body.options.map((option, position) => ({ companyId: scope.companyId, fileListId: row.id, name: option.name, position })));
    }
    return row.id;
  });
  return saved(services, scope, 'create', id);
}

/** Options sent replace the list's: one kept by id keeps its file; one left out is deleted with its file. */
export async function updateFileList(services: AppServices, scope: TenantScope, id: number, body: FileListUpdateBody): Promise<FileListDetail> {
  const current = await showFileList(services, scope, id);
  const removed: FileListOptionRow[] = [];
  await services.db.transaction(async (tx) => {
    if (body.name !== undefined || body.message !== undefined) {
      await tx.update(fileLists).set({ name: body.name, message: body.message, updatedAt: new Date() }).where(inTenant(fileLists, scope, eq(fileLists.id, id)));
    }
    if (!body.options) return;
    const known = new Set(current.options.map((option) => option.id));
    const kept = body.options.filter((option) => option.id !== undefined && known.has(option.id)).map((option) => option.id!);
    removed.push(...current.options.filter((option) => !kept.includes(option.id)));
    await tx
      .delete(fileListOptions)
      .where(inTenant(fileListOptions, scope, eq(fileListOptions.fileListId, id), kept.length ? notInArray(fileListOptions.id, kept) : undefined));
    for (const [position, option] of body.options.entries()) {
      if (option.id !== undefined && known.has(option.id)) {
        await tx.update(fileListOptions).set({ name: option.name, position }).where(inTenant(fileListOptions, scope, eq(fileListOptions.id, option.id)));
      } else {
        await tx.insert(fileListOptions).values({ companyId: scope.companyId, fileListId: id, name: option.name, position });
      }
    }
  });
  for (const option of removed) if (option.path) await services.media.remove(scope, option.path).catch(() => undefined);
  return saved(services, scope, 'update', id);
}

export async function deleteFileList(services: AppServices, scope: TenantScope, id: number): Promise<void> {
  const current = await showFileList(services, scope, id);
  await services.db.delete(fileLists).where(inTenant(fileLists, scope, eq(fileLists.id, id)));
  for (const option of current.options) if (option.path) await services.media.remove(scope, option.path).catch(() => undefined);
  services.events.emit('fileList.deleted', { companyId: scope.companyId, fileListId: id });
}

function assertAllowed(file: UploadedFile): void {
  const name = file.fileName.toLowerCase();
  if (!FILE_LIST_EXTENSIONS.some((ext) => name.endsWith(ext))) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: [FILE_LIST_EXTENSIONS.join(', ')] } });
  if (file.data.length > FILE_LIST_MAX_BYTES) throw new AppError('ERR_VALIDATION', undefined, { message: 'At most 16 MB per file', fields: { file: ['validation.tooLong'] } });
}

/** `POST /files/uploadList/{id}`: each file goes to the option named by the `optionId` field sent before it. */
export async function uploadFileListFiles(services: AppServices, scope: TenantScope, id: number, uploads: { optionId: number; file: UploadedFile }[]): Promise<FileListDetail> {
  const current = await showFileList(services, scope, id);
  if (uploads.length === 0) throw new AppError('ERR_VALIDATION', undefined, { message: 'Send optionId then a file, for each file', fields: { file: ['Required'] } });
  for (const upload of uploads) {
    if (!current.options.some((option) => option.id === upload.optionId)) throw new AppError('ERR_VALIDATION', undefined, { message: 'Unknown option', fields: { optionId: ['validation.invalidValue'] } });
    assertAllowed(upload.file);
  }
  for (const upload of uploads) {
    const stored = await services.media.save(scope, upload.file);
    const previous = current.options.find((option) => option.id === upload.optionId);
    await services.db
      .update(fileListOptions)
      .set({ path: stored.path, fileName: stored.name, mimeType: stored.mimeType, size: stored.size })
      .where(inTenant(fileListOptions, scope, eq(fileListOptions.id, upload.optionId)));
    if (previous?.path) await services.media.remove(scope, previous.path).catch(() => undefined);
  }
  return saved(services, scope, 'update', id);
}
