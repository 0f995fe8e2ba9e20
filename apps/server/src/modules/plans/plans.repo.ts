import { PAGE_SIZE, PLAN_FEATURES, type PlanBody, type PlanUpdateBody } from '@atende/shared';
import { asc, count, eq, ilike } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, plans, type PlanRow } from '../../platform/db/schema.js';
import { likeContains } from '../../platform/db/search.js';

/** Plans are platform data (not tenant data): only super users change them. */
export async function listPlans(db: DbOrTx): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.name));
}

export async function pagePlans(db: DbOrTx, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim();
  const where = term ? ilike(plans.name, likeContains(term)) : undefined;
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const rows = await db.select().from(plans).where(where).orderBy(asc(plans.name)).limit(PAGE_SIZE).offset(offset);
  const [total] = await db.select({ value: count() }).from(plans).where(where);
  const totalCount = total?.value ?? 0;
  return { plans: rows, count: totalCount, hasMore: offset + rows.length < totalCount };
}

export async function findPlan(db: DbOrTx, id: number): Promise<PlanRow | null> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
  return row ?? null;
}

export async function findPlanByName(db: DbOrTx, name: string): Promise<PlanRow | null> {
  const [row] = await db.select().from(plans).where(eq(plans.name, name)).limit(1);
  return row ?? null;
}

/** The plan's own columns, picked one by one: nothing else of a body reaches the row. */
function toColumns(body: PlanUpdateBody): Partial<typeof plans.$inferInsert> {
  const columns: Partial<typeof plans.$inferInsert> = { name: body.name, users: body.users, connections: body.connections, queues: body.queues };
  for (const feature of PLAN_FEATURES) columns[feature] = body[feature];
  if (body.value !== undefined) columns.valueCents = Math.round(body.value * 100);
  return columns;
}

export async function insertPlan(db: DbOrTx, body: PlanBody): Promise<PlanRow> {
  const [row] = await db.insert(plans).values(toColumns(body) as typeof plans.$inferInsert).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function updatePlan(db: DbOrTx, id: number, body: PlanUpdateBody): Promise<PlanRow | null> {
  const [row] = await db
    .update(plans)
    .set({ ...toColumns(body), updatedAt: new Date() })
    .where(eq(plans.id, id))
    .returning();
  return row ?? null;
}

export async function planInUse(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.planId, id)).limit(1);
  return row !== undefined;
}

/** The companies on a plan (their sessions carry its flags and limits). */
export async function companyIdsOnPlan(db: DbOrTx, planId: number): Promise<number[]> {
  const rows = await db.select({ id: companies.id }).from(companies).where(eq(companies.planId, planId));
  return rows.map((row) => row.id);
}

export async function deletePlan(db: DbOrTx, id: number): Promise<boolean> {
  return (await db.delete(plans).where(eq(plans.id, id)).returning({ id: plans.id })).length === 1;
}
