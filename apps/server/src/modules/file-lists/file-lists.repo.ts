import type { FileListQuery } from '@atende/shared';
import { asc, eq, ilike, inArray, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { fileListOptions, fileLists, type FileListOptionRow, type FileListRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

const FILE_LISTS_PAGE_SIZE = 20;

export interface FileListDetail extends FileListRow {
  options: FileListOptionRow[];
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

export async function insertFileList(tx: DbOrTx, scope: TenantScope, list: { name: string; message: string }): Promise<number> {
  const [row] = await tx.insert(fileLists).values({ companyId: scope.companyId, name: list.name, message: list.message }).returning({ id: fileLists.id });
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export async function updateFileListRow(tx: DbOrTx, scope: TenantScope, id: number, change: { name?: string; message?: string }): Promise<void> {
  await tx.update(fileLists).set({ name: change.name, message: change.message, updatedAt: new Date() }).where(inTenant(fileLists, scope, eq(fileLists.id, id)));
}

export async function deleteFileListRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(fileLists).where(inTenant(fileLists, scope, eq(fileLists.id, id)));
}

/** Options appended in order: each at the position it is given. */
export async function insertFileListOptions(tx: DbOrTx, scope: TenantScope, fileListId: number, options: { name: string; position: number }[]): Promise<void> {
  if (options.length === 0) return;
  await tx.insert(fileListOptions).values(options.map((option) => ({ companyId: scope.companyId, fileListId, name: option.name, position: option.position })));
}

/** Deletes the list's options but those kept (all of them when none is kept). */
export async function deleteOtherOptions(tx: DbOrTx, scope: TenantScope, fileListId: number, keptIds: number[]): Promise<void> {
  await tx
    .delete(fileListOptions)
    .where(inTenant(fileListOptions, scope, eq(fileListOptions.fileListId, fileListId), keptIds.length ? notInArray(fileListOptions.id, keptIds) : undefined));
}

export async function updateFileListOption(
  db: DbOrTx,
  scope: TenantScope,
  optionId: number,
  change: Partial<Pick<FileListOptionRow, 'name' | 'position' | 'path' | 'fileName' | 'mimeType' | 'size'>>,
): Promise<void> {
  await db.update(fileListOptions).set(change).where(inTenant(fileListOptions, scope, eq(fileListOptions.id, optionId)));
}
