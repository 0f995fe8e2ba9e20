import { IdParams, PageQuery, PlanBody, PlanUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { Platform } from '../../platform/platform.js';
import { presentPlanRow } from './plans.presenter.js';
import { changePlan, createPlan, listAllPlans, planPage, removePlan, showPlan, type PlansDeps } from './plans.service.js';

/**
 * `GET /plans/list` is public: the sign-up form lists plans before anyone logs in. The
 * whaticket v6 client's sign-up page asks the same of `GET /plans/register`.
 */
export function registerPlanPublicRoutes(scope: FastifyInstance, deps: Pick<Platform, 'db'>): void {
  const list = async () => (await listAllPlans(deps)).map(presentPlanRow);
  scope.get('/plans/list', list);
  scope.get('/plans/register', list);
}

export function registerPlanRoutes(scope: FastifyInstance, deps: PlansDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/plans/all', async () => (await listAllPlans(deps)).map(presentPlanRow));

  app.get('/plans', { schema: { querystring: PageQuery } }, async (request) => {
    const page = await planPage(deps, request.query);
    return { plans: page.plans.map(presentPlanRow), count: page.count, hasMore: page.hasMore };
  });

  app.get('/plans/:id', { schema: { params: IdParams } }, async (request) => presentPlanRow(await showPlan(deps, request.params.id)));

  app.post('/plans', { schema: { body: PlanBody }, preValidation: superOnly }, async (request, reply) => {
    return reply.status(201).send(presentPlanRow(await createPlan(deps, request.ctx, request.body)));
  });

  app.put('/plans/:id', { schema: { params: IdParams, body: PlanUpdateBody }, preValidation: superOnly }, async (request) => {
    return presentPlanRow(await changePlan(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/plans/:id', { schema: { params: IdParams }, preValidation: superOnly }, async (request) => {
    await removePlan(deps, request.ctx, request.params.id);
    return { message: 'Plan deleted' };
  });
}
