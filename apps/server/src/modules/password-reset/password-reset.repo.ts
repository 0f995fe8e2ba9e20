import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { passwordResets, users } from '../../platform/db/schema.js';

/** Ends every outstanding reset code of the user (a successful reset or login). */
export async function endResetCodes(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** The account an e-mail names, whatever its company (e-mails are unique across the platform). */
export async function findAccountByEmail(db: DbOrTx, email: string): Promise<{ id: number; companyId: number; name: string; language: string | null } | null> {
  const [user] = await db
    .select({ id: users.id, companyId: users.companyId, name: users.name, language: users.language })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return user ?? null;
}

export async function insertResetCode(tx: DbOrTx, code: { companyId: number; userId: number; codeHash: string; expiresAt: Date }): Promise<void> {
  await tx.insert(passwordResets).values(code);
}

/**
 * Counts a try on the user's latest code, if it is still open (unused, not expired,
 * tried fewer than `maxTries` times); answers that code, or null when there is none.
 */
export async function countResetTry(tx: DbOrTx, userId: number, maxTries: number): Promise<{ id: number; codeHash: string } | null> {
  const [reset] = await tx
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(
      and(
        eq(passwordResets.userId, userId),
        isNull(passwordResets.usedAt),
        sql`${passwordResets.expiresAt} > now()`,
        sql`${passwordResets.attempts} < ${maxTries}`,
        sql`${passwordResets.id} = (select max(id) from password_resets where user_id = ${userId})`,
      ),
    )
    .returning({ id: passwordResets.id, codeHash: passwordResets.codeHash });
  return reset ?? null;
}

/** Marks the code used; false when another request used it first. */
export async function useResetCode(tx: DbOrTx, id: number): Promise<boolean> {
  const [used] = await tx
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  return used !== undefined;
}

/** The new password; the token version moves so the user's access tokens stop working at once. */
export async function setPassword(tx: DbOrTx, userId: number, passwordHash: string): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId));
}
