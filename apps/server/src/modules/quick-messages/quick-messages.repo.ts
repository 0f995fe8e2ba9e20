import { PAGE_SIZE } from '@atende/shared';
import { asc, count, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { quickMessages } from '../../platform/db/schema.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { likeContains } from '../../platform/db/search.js';
import type { QuickMessageRow } from './quick-messages.presenter.js';
import { inTenant } from '../../platform/db/tenant.js';

/** The SQL form of canSeeQuickMessage: the caller's own and the `geral` ones; admins every one. */
function visibleTo(ctx: RequestContext): SQL | undefined {
  if (ctx.user.profile === 'admin') return undefined;
  return or(eq(quickMessages.userId, ctx.user.id), eq(quickMessages.geral, true));
}

const byShortcode = [asc(quickMessages.shortcode), asc(quickMessages.id)];

/** The quick messages page: search over shortcode and message, 20 a page. */
export async function listQuickMessagePage(db: DbOrTx, ctx: RequestContext, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim().toLowerCase();
  const like = likeContains(term);
  const where = inTenant(quickMessages, ctx, visibleTo(ctx), term ? or(sql`lower(${quickMessages.shortcode}) like ${like}`, sql`lower(${quickMessages.message}) like ${like}`) : undefined);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(quickMessages)
      .where(where)
      .orderBy(...byShortcode)
      .limit(PAGE_SIZE)
      .offset(offset),
    db.select({ value: count() }).from(quickMessages).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return { records: rows, count: totalCount, hasMore: offset + rows.length < totalCount };
}

/** What the composer's '/' suggestions offer the caller: its own and the `geral` ones, active only. */
export async function listUsableQuickMessages(db: DbOrTx, ctx: RequestContext): Promise<QuickMessageRow[]> {
  return db
    .select()
    .from(quickMessages)
    .where(
      inTenant(quickMessages, ctx, eq(quickMessages.status, true), or(eq(quickMessages.userId, ctx.user.id), eq(quickMessages.geral, true))),
    )
    .orderBy(...byShortcode);
}

export async function findQuickMessage(db: DbOrTx, scope: TenantScope, id: number): Promise<QuickMessageRow | null> {
  const [row] = await db
    .select()
    .from(quickMessages)
    .where(inTenant(quickMessages, scope, eq(quickMessages.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertQuickMessage(
  db: DbOrTx,
  scope: TenantScope,
  values: Pick<QuickMessageRow, 'userId' | 'shortcode' | 'message' | 'geral' | 'status' | 'editBeforeSend'>,
): Promise<QuickMessageRow> {
  const [row] = await db
    .insert(quickMessages)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  if (!row) throw new Error('quick message not inserted');
  return row;
}

export async function updateQuickMessageRow(
  db: DbOrTx,
  scope: TenantScope,
  id: number,
  change: Partial<Pick<QuickMessageRow, 'shortcode' | 'message' | 'geral' | 'status' | 'editBeforeSend' | 'mediaPath' | 'mediaName'>>,
): Promise<QuickMessageRow | null> {
  const [row] = await db
    .update(quickMessages)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(quickMessages, scope, eq(quickMessages.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteQuickMessageRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(quickMessages).where(inTenant(quickMessages, scope, eq(quickMessages.id, id)));
}
