import { asc, count, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { queues, type QueueRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

export async function listQueues(db: DbOrTx, scope: TenantScope): Promise<QueueRow[]> {
  return db
    .select()
    .from(queues)
    .where(inTenant(queues, scope))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name));
}

export async function findQueue(db: DbOrTx, scope: TenantScope, id: number): Promise<QueueRow | null> {
  const [row] = await db
    .select()
    .from(queues)
    .where(inTenant(queues, scope, eq(queues.id, id)))
    .limit(1);
  return row ?? null;
}

export async function countQueues(db: DbOrTx, scope: TenantScope): Promise<number> {
  const [row] = await db.select({ value: count() }).from(queues).where(inTenant(queues, scope));
  return row?.value ?? 0;
}

/** Colours compare without case: '#FF0000' and '#ff0000' are the same colour on screen. */
export async function colorTaken(db: DbOrTx, scope: TenantScope, color: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(
      inTenant(queues, scope, sql`lower(${queues.color}) = ${color.toLowerCase()}`, exceptId ? ne(queues.id, exceptId) : undefined),
    )
    .limit(1);
  return row !== undefined;
}

export type QueueValues = Omit<typeof queues.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

export async function insertQueue(db: DbOrTx, scope: TenantScope, values: QueueValues): Promise<QueueRow | null> {
  const [row] = await db
    .insert(queues)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  return row ?? null;
}

export async function updateQueueRow(db: DbOrTx, scope: TenantScope, id: number, values: Partial<QueueValues>): Promise<void> {
  await db
    .update(queues)
    .set({ ...values, updatedAt: new Date() })
    .where(inTenant(queues, scope, eq(queues.id, id)));
}

export async function deleteQueueRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(queues).where(inTenant(queues, scope, eq(queues.id, id)));
}
