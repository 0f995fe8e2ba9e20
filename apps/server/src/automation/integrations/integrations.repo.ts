import { PAGE_SIZE } from '@atende/shared';
import { asc, count, eq, ilike } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { queueIntegrations, type QueueIntegrationRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { likeContains } from '../../platform/db/search.js';
import { inTenant } from '../../platform/db/tenant.js';

export async function pageIntegrations(db: DbOrTx, scope: TenantScope, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim().toLowerCase();
  const where = inTenant(queueIntegrations, scope, term ? ilike(queueIntegrations.name, likeContains(term)) : undefined);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const rows = await db
    .select()
    .from(queueIntegrations)
    .where(where)
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(PAGE_SIZE + 1)
    .offset(offset);
  const [total] = await db.select({ value: count() }).from(queueIntegrations).where(where);
  return { integrations: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE, count: total?.value ?? 0 };
}

export async function findIntegration(db: DbOrTx, scope: TenantScope, id: number): Promise<QueueIntegrationRow | null> {
  const [row] = await db
    .select()
    .from(queueIntegrations)
    .where(inTenant(queueIntegrations, scope, eq(queueIntegrations.id, id)))
    .limit(1);
  return row ?? null;
}

export type IntegrationValues = Omit<typeof queueIntegrations.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

export async function insertIntegration(db: DbOrTx, scope: TenantScope, values: IntegrationValues): Promise<QueueIntegrationRow | null> {
  const [row] = await db
    .insert(queueIntegrations)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  return row ?? null;
}

export async function updateIntegrationRow(db: DbOrTx, scope: TenantScope, id: number, values: Partial<IntegrationValues>): Promise<void> {
  await db
    .update(queueIntegrations)
    .set({ ...values, updatedAt: new Date() })
    .where(inTenant(queueIntegrations, scope, eq(queueIntegrations.id, id)));
}

export async function deleteIntegrationRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(queueIntegrations).where(inTenant(queueIntegrations, scope, eq(queueIntegrations.id, id)));
}
