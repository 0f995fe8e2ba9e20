import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { prompts, queues, type PromptRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

export interface PromptDetail extends PromptRow {
  queue: { id: number; name: string } | null;
}

function selectPrompts(db: DbOrTx, scope: TenantScope) {
  return db
    .select({ prompt: prompts, queueName: queues.name })
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(inTenant(prompts, scope))
    .$dynamic();
}

function toDetail(row: { prompt: PromptRow; queueName: string | null }): PromptDetail {
  return { ...row.prompt, queue: row.prompt.queueId !== null && row.queueName !== null ? { id: row.prompt.queueId, name: row.queueName } : null };
}

export async function listPrompts(db: DbOrTx, scope: TenantScope): Promise<PromptDetail[]> {
  return (await selectPrompts(db, scope).orderBy(asc(prompts.name), asc(prompts.id))).map(toDetail);
}

export async function findPrompt(db: DbOrTx, scope: TenantScope, id: number): Promise<PromptDetail | null> {
  const [row] = await selectPrompts(db, scope)
    .where(inTenant(prompts, scope, eq(prompts.id, id)))
    .limit(1);
  return row ? toDetail(row) : null;
}

export type PromptValues = Omit<typeof prompts.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

export async function insertPrompt(db: DbOrTx, scope: TenantScope, values: PromptValues): Promise<number | null> {
  const [row] = await db
    .insert(prompts)
    .values({ ...values, companyId: scope.companyId })
    .returning({ id: prompts.id });
  return row?.id ?? null;
}

export async function updatePromptRow(db: DbOrTx, scope: TenantScope, id: number, values: Partial<PromptValues>): Promise<void> {
  await db
    .update(prompts)
    .set({ ...values, updatedAt: new Date() })
    .where(inTenant(prompts, scope, eq(prompts.id, id)));
}

export async function deletePromptRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(prompts).where(inTenant(prompts, scope, eq(prompts.id, id)));
}
