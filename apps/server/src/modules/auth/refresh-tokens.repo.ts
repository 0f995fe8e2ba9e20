import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.js';
import { refreshTokens } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { hashRefreshToken, newRefreshToken } from './tokens.js';
import { inTenant } from '../../platform/db/tenant.js';

export async function issueRefreshToken(
  db: DbOrTx,
  scope: TenantScope,
  userId: number,
  ttlSeconds: number,
  familyId: string = randomUUID(),
): Promise<string> {
  const token = newRefreshToken();
  await db.insert(refreshTokens).values({
    companyId: scope.companyId,
    userId,
    familyId,
    tokenHash: token.hash,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token.value;
}

export async function findRefreshToken(db: DbOrTx, value: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(value))).limit(1);
  return row ?? null;
}

/**
 * Replaces a token by a new one of its family, once: the token is marked used and its
 * successor kept sealed on it (for the grace window) by a conditional update, and the
 * successor is inserted in the same transaction. Answers the successor's value, or
 * null when the token was already replaced or revoked (a concurrent refresh won: its
 * successor is on the row once that transaction has committed).
 */
export async function rotateRefreshToken(
  db: Db,
  stored: { id: number; companyId: number; userId: number; familyId: string },
  ttlSeconds: number,
  seal: (value: string) => string,
): Promise<string | null> {
  const token = newRefreshToken();
  return db.transaction(async (tx) => {
    const replaced = await tx
      .update(refreshTokens)
      .set({ usedAt: new Date(), successorSealed: seal(token.value) })
      .where(and(eq(refreshTokens.id, stored.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    if (replaced.length !== 1) return null;
    await tx.insert(refreshTokens).values({
      companyId: stored.companyId,
      userId: stored.userId,
      familyId: stored.familyId,
      tokenHash: token.hash,
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    });
    return token.value;
  });
}

/**
 * Drops the sealed successors of tokens replaced before `before` (the grace window is
 * over). Rows another transaction holds are left for the next call, so this never waits.
 */
export async function dropOldSuccessors(db: DbOrTx, before: Date): Promise<void> {
  await db.execute(sql`
    update ${refreshTokens} set successor_sealed = null
    where id in (
      select id from ${refreshTokens}
      where successor_sealed is not null and used_at < ${before.toISOString()}::timestamptz
      for update skip locked
    )`);
}

export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date(), successorSealed: null })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Whether a sign-in is still open: its family has a token neither revoked nor expired. */
export async function familyActive(db: DbOrTx, familyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, new Date())))
    .limit(1);
  return row !== undefined;
}

/** Revokes every session of a user, or every other one when `keepFamilyId` is given; answers the families revoked. */
export async function revokeUserTokens(db: DbOrTx, scope: TenantScope, userId: number, keepFamilyId?: string): Promise<string[]> {
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date(), successorSealed: null })
    .where(
      inTenant(refreshTokens, scope, eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined),
    )
    .returning({ familyId: refreshTokens.familyId });
  return [...new Set(revoked.map((row) => row.familyId))];
}
