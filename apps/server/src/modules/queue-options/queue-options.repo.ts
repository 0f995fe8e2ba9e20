import { eq, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { queueOptions, type QueueOptionRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/** Numeric positions in number order ('2' before '10'). */
export function sortOptions<T extends { option: string; id: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => Number(a.option) - Number(b.option) || a.option.localeCompare(b.option) || a.id - b.id);
}

/** Every option of a queue: trees are small, the editor and the presenter nest them in memory. */
export async function listQueueOptions(db: DbOrTx, scope: TenantScope, queueId: number): Promise<QueueOptionRow[]> {
  const rows = await db
    .select()
    .from(queueOptions)
    .where(inTenant(queueOptions, scope, eq(queueOptions.queueId, queueId)));
  return sortOptions(rows);
}

export async function findQueueOption(db: DbOrTx, scope: TenantScope, id: number): Promise<QueueOptionRow | null> {
  const [row] = await db
    .select()
    .from(queueOptions)
    .where(inTenant(queueOptions, scope, eq(queueOptions.id, id)))
    .limit(1);
  return row ?? null;
}

/** The siblings' positions at one level of a queue's tree. */
export async function siblingPositions(db: DbOrTx, scope: TenantScope, queueId: number, parentId: number | null, exceptId?: number): Promise<string[]> {
  const rows = await db
    .select({ option: queueOptions.option })
    .from(queueOptions)
    .where(
      inTenant(queueOptions, scope, eq(queueOptions.queueId, queueId), parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId), exceptId ? ne(queueOptions.id, exceptId) : undefined),
    );
  return rows.map((r) => r.option);
}

export type QueueOptionValues = Omit<typeof queueOptions.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

export async function insertQueueOption(db: DbOrTx, scope: TenantScope, values: QueueOptionValues): Promise<QueueOptionRow | null> {
  const [row] = await db
    .insert(queueOptions)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  return row ?? null;
}

export async function updateQueueOptionRow(db: DbOrTx, scope: TenantScope, id: number, values: Partial<QueueOptionValues>): Promise<void> {
  await db
    .update(queueOptions)
    .set({ ...values, updatedAt: new Date() })
    .where(inTenant(queueOptions, scope, eq(queueOptions.id, id)));
}

/** Children go with their parent (foreign key cascade). */
export async function deleteQueueOptionRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(queueOptions).where(inTenant(queueOptions, scope, eq(queueOptions.id, id)));
}
