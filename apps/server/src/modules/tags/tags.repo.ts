import { PAGE_SIZE } from '@atende/shared';
import { asc, count, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { tags, ticketTags, type TagRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { likeContains } from '../../platform/db/search.js';
import type { TagDetail } from './tags.presenter.js';
import { inTenant } from '../../platform/db/tenant.js';

function selectTagDetails(db: DbOrTx) {
  return db
    .select({
      ...getTableColumns(tags),
      ticketsCount: sql<number>`(select count(*) from ${ticketTags} tt where tt.company_id = ${tags.companyId} and tt.tag_id = ${tags.id})`.mapWith(Number),
    })
    .from(tags);
}

export async function listTagSummaries(db: DbOrTx, scope: TenantScope, options: { kanbanOnly?: boolean } = {}) {
  return db
    .select({ id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban })
    .from(tags)
    .where(inTenant(tags, scope, options.kanbanOnly ? eq(tags.kanban, 1) : undefined))
    .orderBy(asc(tags.name), asc(tags.id));
}

export async function listTagPage(db: DbOrTx, scope: TenantScope, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim().toLowerCase();
  const where = inTenant(tags, scope, term ? sql`lower(${tags.name}) like ${likeContains(term)}` : undefined);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    selectTagDetails(db).where(where).orderBy(asc(tags.name), asc(tags.id)).limit(PAGE_SIZE).offset(offset),
    db.select({ value: count() }).from(tags).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return { tags: rows, count: totalCount, hasMore: offset + rows.length < totalCount };
}

export async function findTag(db: DbOrTx, scope: TenantScope, id: number): Promise<TagDetail | null> {
  const [row] = await selectTagDetails(db)
    .where(inTenant(tags, scope, eq(tags.id, id)))
    .limit(1);
  return row ?? null;
}

/** Whether another tag of the company has this name, whatever its case. */
export async function tagNameTaken(db: DbOrTx, scope: TenantScope, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(inTenant(tags, scope, sql`lower(${tags.name}) = ${name.toLowerCase()}`, exceptId ? ne(tags.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

/** Null when the exact name exists (the unique index settles a race). */
export async function insertTag(
  db: DbOrTx,
  scope: TenantScope,
  tag: Pick<TagRow, 'name' | 'color' | 'kanban' | 'userId'>,
): Promise<number | null> {
  const [row] = await db
    .insert(tags)
    .values({ ...tag, companyId: scope.companyId })
    .onConflictDoNothing({ target: [tags.companyId, tags.name] })
    .returning({ id: tags.id });
  return row?.id ?? null;
}

export async function updateTagRow(db: DbOrTx, scope: TenantScope, id: number, change: Partial<Pick<TagRow, 'name' | 'color' | 'kanban'>>): Promise<void> {
  await db
    .update(tags)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(tags, scope, eq(tags.id, id)));
}

export async function deleteTagRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(tags).where(inTenant(tags, scope, eq(tags.id, id)));
}

export async function replaceTicketTags(db: DbOrTx, scope: TenantScope, ticketId: number, tagIds: number[]): Promise<void> {
  await db.delete(ticketTags).where(inTenant(ticketTags, scope, eq(ticketTags.ticketId, ticketId)));
  const unique = [...new Set(tagIds)];
  if (unique.length === 0) return;
  await db.insert(ticketTags).values(unique.map((tagId) => ({ companyId: scope.companyId, ticketId, tagId })));
}
