import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { passwordResets } from '../../platform/db/schema.js';

/** Ends every outstanding reset code of the user (a successful reset or login). */
export async function endResetCodes(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
