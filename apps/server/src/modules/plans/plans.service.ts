import type { PlanBody, PlanUpdateBody } from '@atende/shared';
import type { PlanRow } from '../../platform/db/schema.js';
import { changedFields, recordAudit, recordedFields } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { companyIdsOnPlan, deletePlan, findPlan, findPlanByName, insertPlan, listPlans, pagePlans, planInUse, updatePlan } from './plans.repo.js';

export type PlansDeps = Pick<Platform, 'db' | 'access'>;

/** Plans are platform data (not tenant data): every page lists them, only super users change them (the routes' gate). */
export function listAllPlans(deps: Pick<Platform, 'db'>): Promise<PlanRow[]> {
  return listPlans(deps.db);
}

export function planPage(deps: Pick<Platform, 'db'>, query: { searchParam: string; pageNumber: number }) {
  return pagePlans(deps.db, query);
}

export async function showPlan(deps: Pick<Platform, 'db'>, id: number): Promise<PlanRow> {
  const plan = await findPlan(deps.db, id);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return plan;
}

/** What the audit log names of a plan. Plans are platform-wide: their entries have no company (super users read them). */
const PLAN_AUDITED = ['name', 'users', 'connections', 'queues', 'valueCents', 'useCampaigns', 'useKanban', 'useOpenAi', 'useIntegrations', 'useSchedules', 'useInternalChat', 'useExternalApi'] as const satisfies readonly (keyof PlanRow)[];

export async function createPlan(deps: Pick<Platform, 'db'>, ctx: RequestContext, body: PlanBody): Promise<PlanRow> {
  if (await findPlanByName(deps.db, body.name)) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS');
  return deps.db.transaction(async (tx) => {
    const plan = await insertPlan(tx, body);
    await recordAudit(tx, ctx, { action: 'plan.created', entityId: plan.id, changes: recordedFields(plan, PLAN_AUDITED), companyId: null });
    return plan;
  });
}

export async function changePlan(deps: PlansDeps, ctx: RequestContext, id: number, body: PlanUpdateBody): Promise<PlanRow> {
  const { name } = body;
  const sameName = name ? await findPlanByName(deps.db, name) : null;
  if (sameName && sameName.id !== id) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS');
  const plan = await deps.db.transaction(async (tx) => {
    const before = await findPlan(tx, id);
    const after = before && (await updatePlan(tx, id, body));
    if (!before || !after) return null;
    await recordAudit(tx, ctx, { action: 'plan.updated', entityId: id, changes: changedFields(before, after, PLAN_AUDITED), companyId: null });
    return after;
  });
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  // Sessions carry their company's plan flags and limits: every node forgets those of the plan's companies.
  for (const companyId of await companyIdsOnPlan(deps.db, plan.id)) await deps.access.changed({ companyId });
  return plan;
}

export async function removePlan(deps: Pick<Platform, 'db'>, ctx: RequestContext, id: number): Promise<void> {
  const plan = await findPlan(deps.db, id);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  if (await planInUse(deps.db, id)) throw new AppError('ERR_PLAN_IN_USE');
  await deps.db.transaction(async (tx) => {
    await deletePlan(tx, id);
    await recordAudit(tx, ctx, { action: 'plan.deleted', entityId: id, changes: recordedFields(plan, ['name']), companyId: null });
  });
}
