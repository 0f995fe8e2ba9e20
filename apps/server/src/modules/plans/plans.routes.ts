import { IdParams, PageQuery, PlanBody, PlanUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import { eq } from 'drizzle-orm';
import { companies, type PlanRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentPlan } from '../users/users.presenter.js';
import { deletePlan, findPlan, findPlanByName, insertPlan, listPlans, pagePlans, planInUse, updatePlan } from './plans.repo.js';

export function presentPlanRow({ createdAt, updatedAt, ...plan }: PlanRow) {
  return { ...presentPlan(plan), createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/** `GET /plans/list` is public: the sign-up form lists plans before anyone logs in. */
export function registerPlanPublicRoutes(scope: FastifyInstance, services: AppServices): void {
  scope.get('/plans/list', async () => (await listPlans(services.db)).map(presentPlanRow));
}

export function registerPlanRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/plans/all', async () => (await listPlans(services.db)).map(presentPlanRow));

  app.get('/plans', { schema: { querystring: PageQuery } }, async (request) => {
    const page = await pagePlans(services.db, request.query);
    return { plans: page.plans.map(presentPlanRow), count: page.count, hasMore: page.hasMore };
  });

  app.get('/plans/:id', { schema: { params: IdParams } }, async (request) => {
    const plan = await findPlan(services.db, request.params.id);
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
    return presentPlanRow(plan);
  });

  app.post('/plans', { schema: { body: PlanBody }, preValidation: superOnly }, async (request, reply) => {
    if (await findPlanByName(services.db, request.body.name)) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS');
    return reply.status(201).send(presentPlanRow(await insertPlan(services.db, request.body)));
  });

  app.put('/plans/:id', { schema: { params: IdParams, body: PlanUpdateBody }, preValidation: superOnly }, async (request) => {
    const { name } = request.body;
    const sameName = name ? await findPlanByName(services.db, name) : null;
    if (sameName && sameName.id !== request.params.id) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS');
    const plan = await updatePlan(services.db, request.params.id, request.body);
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
    // Sessions carry their company's plan flags and limits: every node forgets those of the plan's companies.
    const onPlan = await services.db.select({ id: companies.id }).from(companies).where(eq(companies.planId, plan.id));
    for (const company of onPlan) await services.access.changed({ companyId: company.id });
    return presentPlanRow(plan);
  });

  app.delete('/plans/:id', { schema: { params: IdParams }, preValidation: superOnly }, async (request) => {
    if (!(await findPlan(services.db, request.params.id))) throw new AppError('ERR_NO_PLAN_FOUND');
    if (await planInUse(services.db, request.params.id)) throw new AppError('ERR_PLAN_IN_USE');
    await deletePlan(services.db, request.params.id);
    return { message: 'Plan deleted' };
  });
}
