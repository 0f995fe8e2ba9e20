import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { refreshTokens } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { hashRefreshToken, newRefreshToken } from './tokens.js';

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

/** Marks a token used; false when another request used it first. */
export async function consumeRefreshToken(db: DbOrTx, id: number): Promise<boolean> {
  const used = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return used.length === 1;
}

export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
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
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.companyId, scope.companyId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    )
    .returning({ familyId: refreshTokens.familyId });
  return [...new Set(revoked.map((row) => row.familyId))];
}
