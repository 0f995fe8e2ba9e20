import { CompanyBody, CompanyUpdateBody, IdParams, PageQuery, SchedulesBody, id } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentCompany, presentCompanyPlan } from './companies.presenter.js';
import {
  companyPage,
  createCompany,
  deleteCompany,
  listAllCompanies,
  showCompany,
  updateCompany,
  updateCompanySchedules,
  type CompaniesDeps,
} from './companies.service.js';

export function registerCompanyRoutes(scope: FastifyInstance, deps: CompaniesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/companies', { schema: { querystring: PageQuery }, preValidation: superOnly }, async (request) => {
    const page = await companyPage(deps, request.query);
    return { companies: page.companies.map(presentCompany), count: page.count, hasMore: page.hasMore };
  });

  app.get('/companies/list', { preValidation: superOnly }, async () => {
    return (await listAllCompanies(deps)).map(presentCompany);
  });

  app.get(
    '/companies/listPlan/:companyId',
    { schema: { params: z.object({ companyId: id() }) }, config: { allowExpiredCompany: true } },
    async (request) => presentCompanyPlan(await showCompany(deps, request.ctx, request.params.companyId)),
  );

  app.get('/companies/:id', { schema: { params: IdParams }, config: { allowExpiredCompany: true } }, async (request) => {
    return presentCompany(await showCompany(deps, request.ctx, request.params.id));
  });

  app.post('/companies', { schema: { body: CompanyBody }, preValidation: superOnly }, async (request, reply) => {
    return reply.status(201).send(presentCompany(await createCompany(deps, request.ctx, request.body)));
  });

  app.put('/companies/:id', { schema: { params: IdParams, body: CompanyUpdateBody }, preValidation: superOnly }, async (request) => {
    return presentCompany(await updateCompany(deps, request.ctx, request.params.id, request.body));
  });

  app.put('/companies/:id/schedules', { schema: { params: IdParams, body: SchedulesBody } }, async (request) => {
    const detail = await updateCompanySchedules(deps, request.ctx, request.params.id, request.body.schedules);
    return presentCompany(detail);
  });

  app.delete('/companies/:id', { schema: { params: IdParams }, preValidation: superOnly }, async (request) => {
    await deleteCompany(deps, request.ctx, request.params.id);
    return { message: 'Company deleted' };
  });
}
