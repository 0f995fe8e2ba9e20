import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { twoFactorRecoveryCodes, users, userTwoFactor } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import type { TenantScope } from '../../platform/http/context.js';

export interface StoredTwoFactor {
  userId: number;
  companyId: number;
  secretSealed: string;
  enabledAt: Date | null;
}

const columns = { userId: userTwoFactor.userId, companyId: userTwoFactor.companyId, secretSealed: userTwoFactor.secretSealed, enabledAt: userTwoFactor.enabledAt };

/** The caller's second factor, set up or enabled. */
export async function findTwoFactor(db: DbOrTx, scope: TenantScope, userId: number): Promise<StoredTwoFactor | null> {
  const [row] = await db.select(columns).from(userTwoFactor).where(inTenant(userTwoFactor, scope, eq(userTwoFactor.userId, userId))).limit(1);
  return row ?? null;
}

/** What a login checks after the password: the account's enabled second factor (the login knows the user, not yet its company). */
export async function findEnabledTwoFactorForSignIn(db: DbOrTx, userId: number): Promise<StoredTwoFactor | null> {
  const [row] = await db
    .select(columns)
    .from(userTwoFactor)
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)))
    .limit(1);
  return row ?? null;
}

/** Starts (or starts again) a set-up with a new secret; false when a second factor is already on. */
export async function saveSetup(db: DbOrTx, scope: TenantScope, userId: number, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(userTwoFactor)
    .values({ userId, companyId: scope.companyId, secretSealed })
    .onConflictDoUpdate({ target: userTwoFactor.userId, set: { secretSealed, lastStep: null, updatedAt: new Date() }, where: isNull(userTwoFactor.enabledAt) })
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/**
 * Turns the set-up second factor on, its first code's step remembered as used, and stores
 * the recovery codes' hashes (replacing any older ones); false when it was not waiting
 * (enabled meanwhile, or reset).
 */
export async function enableTwoFactor(db: DbOrTx, scope: TenantScope, userId: number, step: number, codeHashes: string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const enabled = await tx
      .update(userTwoFactor)
      .set({ enabledAt: new Date(), lastStep: step, updatedAt: new Date() })
      .where(inTenant(userTwoFactor, scope, eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt)))
      .returning({ userId: userTwoFactor.userId });
    if (enabled.length === 0) return false;
    await tx.delete(twoFactorRecoveryCodes).where(inTenant(twoFactorRecoveryCodes, scope, eq(twoFactorRecoveryCodes.userId, userId)));
    await tx.insert(twoFactorRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, companyId: scope.companyId, codeHash })));
    return true;
  });
}

/**
 * Marks a time step used, once: a conditional update admits only a step later than the
 * last one accepted, so a code replayed (or raced) within its window is refused.
 */
export async function acceptStep(db: DbOrTx, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ lastStep: step, updatedAt: new Date() })
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt), or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step))))
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/** Spends a recovery code, once (a conditional update: of two uses racing, one wins). */
export async function useRecoveryCode(db: DbOrTx, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, codeHash), isNull(twoFactorRecoveryCodes.usedAt)))
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: DbOrTx, scope: TenantScope, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(twoFactorRecoveryCodes)
    .where(inTenant(twoFactorRecoveryCodes, scope, eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.value ?? 0;
}

/** The company of a user, whichever it is: for a super user's reset, which reaches every company. */
export async function findUserCompanyId(db: DbOrTx, userId: number): Promise<number | null> {
  const [user] = await db.select({ companyId: users.companyId }).from(users).where(eq(users.id, userId)).limit(1);
  return user?.companyId ?? null;
}

/** Removes the user's second factor and its recovery codes; false when the user is not in the company. */
export async function removeTwoFactor(db: DbOrTx, scope: TenantScope, userId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(inTenant(users, scope, eq(users.id, userId))).limit(1);
    if (!user) return false;
    await tx.delete(twoFactorRecoveryCodes).where(inTenant(twoFactorRecoveryCodes, scope, eq(twoFactorRecoveryCodes.userId, userId)));
    await tx.delete(userTwoFactor).where(inTenant(userTwoFactor, scope, eq(userTwoFactor.userId, userId)));
    return true;
  });
}
