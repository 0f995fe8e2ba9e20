import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';

/** What a login checks: the account an e-mail names (e-mails are unique across the platform) and its password hash. */
export async function findCredentials(db: DbOrTx, email: string): Promise<{ id: number; passwordHash: string } | null> {
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return row ?? null;
}

/** A login marks the user online and seen now; a logout offline. */
export async function markSignedIn(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ online: true, lastSeenAt: sql`now()` }).where(eq(users.id, userId));
}

export async function markSignedOut(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ online: false }).where(eq(users.id, userId));
}
