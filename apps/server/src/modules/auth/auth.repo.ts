import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, users } from '../../platform/db/schema.js';

/**
 * What a login checks: the account an e-mail names (e-mails are unique across the platform)
 * and its password hash. A user of a company still being imported does not exist yet.
 */
export async function findCredentials(db: DbOrTx, email: string): Promise<{ id: number; companyId: number; name: string; passwordHash: string } | null> {
  const [row] = await db
    .select({ id: users.id, companyId: users.companyId, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.email, email), eq(companies.importing, false)))
    .limit(1);
  return row ?? null;
}

/** The user's hash rehashed with argon2 (an imported bcrypt one), unless it changed meanwhile. */
export async function replacePasswordHash(db: DbOrTx, userId: number, previous: string, next: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: next })
    .where(and(eq(users.id, userId), eq(users.passwordHash, previous)));
}

/** A login marks the user online and seen now; a logout offline. */
export async function markSignedIn(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ online: true, lastSeenAt: sql`now()` }).where(eq(users.id, userId));
}

export async function markSignedOut(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ online: false }).where(eq(users.id, userId));
}
