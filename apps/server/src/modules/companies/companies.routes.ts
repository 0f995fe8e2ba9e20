import { CompanyBody, CompanyUpdateBody, IdParams, PageQuery, SchedulesBody, id, presentDueDate } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentPlanRow } from '../plans/plans.routes.js';
import { findCompany, listCompanies, pageCompanies, type CompanyDetail } from './companies.repo.js';
import {
  assertOwnCompanyOrSuper,
  createCompany,
  deleteCompany,
  updateCompany,
  updateCompanySchedules,
} from './companies.service.js';

export function presentCompany({ company, plan, campaignsEnabled }: CompanyDetail) {
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    phone: company.phone,
    planId: company.planId,
    plan: presentPlanRow(plan),
    status: company.status,
    dueDate: presentDueDate(company.dueDate),
    recurrence: company.recurrence,
    schedules: company.schedules,
    timezone: company.timezone,
    campaignsEnabled,
    createdAt: company.createdAt.toISOString(),
    updatedAt: company.updatedAt.toISOString(),
  };
}

export function registerCompanyRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/companies', { schema: { querystring: PageQuery }, preValidation: superOnly }, async (request) => {
    const page = await pageCompanies(services.db, request.query);
    return { companies: page.companies.map(presentCompany), count: page.count, hasMore: page.hasMore };
  });

  app.get('/companies/list', { preValidation: superOnly }, async () => {
    return (await listCompanies(services.db)).map(presentCompany);
  });

  app.get(
    '/companies/listPlan/:companyId',
    { schema: { params: z.object({ companyId: id() }) }, config: { allowExpiredCompany: true } },
    async (request) => {
      assertOwnCompanyOrSuper(request.ctx, request.params.companyId);
      const detail = await findCompany(services.db, request.params.companyId);
      if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
      return { id: detail.company.id, name: detail.company.name, plan: presentPlanRow(detail.plan) };
    },
  );

  app.get('/companies/:id', { schema: { params: IdParams }, config: { allowExpiredCompany: true } }, async (request) => {
    assertOwnCompanyOrSuper(request.ctx, request.params.id);
    const detail = await findCompany(services.db, request.params.id);
    if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
    return presentCompany(detail);
  });

  app.post('/companies', { schema: { body: CompanyBody }, preValidation: superOnly }, async (request, reply) => {
    return reply.status(201).send(presentCompany(await createCompany(services, request.ctx, request.body)));
  });

  app.put('/companies/:id', { schema: { params: IdParams, body: CompanyUpdateBody }, preValidation: superOnly }, async (request) => {
    return presentCompany(await updateCompany(services, request.ctx, request.params.id, request.body));
  });

  app.put('/companies/:id/schedules', { schema: { params: IdParams, body: SchedulesBody } }, async (request) => {
    const detail = await updateCompanySchedules(services, request.ctx, request.params.id, request.body.schedules);
    return presentCompany(detail);
  });

  app.delete('/companies/:id', { schema: { params: IdParams }, preValidation: superOnly }, async (request) => {
    await deleteCompany(services, request.ctx, request.params.id);
    return { message: 'Company deleted' };
  });
}
