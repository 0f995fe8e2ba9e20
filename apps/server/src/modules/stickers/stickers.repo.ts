import { desc, eq, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { stickers, type StickerRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/** Most stickers the picker lists. */
const STICKER_LIST_LIMIT = 500;

/** Whose stickers a user sees: the company's shared ones and their own. */
const visibleTo = (userId: number) => or(isNull(stickers.userId), eq(stickers.userId, userId));

export async function listStickerRows(db: DbOrTx, scope: TenantScope, userId: number): Promise<StickerRow[]> {
  return db
    .select()
    .from(stickers)
    .where(inTenant(stickers, scope, visibleTo(userId)))
    .orderBy(desc(stickers.createdAt), desc(stickers.id))
    .limit(STICKER_LIST_LIMIT);
}

export async function findVisibleSticker(db: DbOrTx, scope: TenantScope, userId: number, id: number): Promise<StickerRow | null> {
  const [row] = await db.select().from(stickers).where(inTenant(stickers, scope, eq(stickers.id, id), visibleTo(userId))).limit(1);
  return row ?? null;
}

export async function insertSticker(db: DbOrTx, scope: TenantScope, values: Pick<StickerRow, 'userId' | 'name' | 'path' | 'mimetype'>): Promise<StickerRow> {
  const [row] = await db
    .insert(stickers)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  if (!row) throw new Error('sticker not stored');
  return row;
}

export async function deleteStickerRow(db: DbOrTx, scope: TenantScope, id: number): Promise<StickerRow | null> {
  const [row] = await db.delete(stickers).where(inTenant(stickers, scope, eq(stickers.id, id))).returning();
  return row ?? null;
}
