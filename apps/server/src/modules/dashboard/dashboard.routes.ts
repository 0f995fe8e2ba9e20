import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { DashboardChartQuery, DashboardQuery } from './dashboard.schemas.js';
import { readDashboard, readTicketsDay, readTicketsUsers } from './dashboard.service.js';

/** The dashboard (spec part 1 §2, §7; issue 21): admins of the session's company only (ROUTE_ROLES). */
export function registerDashboardRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/dashboard', { schema: { querystring: DashboardQuery } }, async (request) => readDashboard(services, request.ctx, request.query));
  app.get('/dashboard/ticketsUsers', { schema: { querystring: DashboardChartQuery } }, async (request) => readTicketsUsers(services, request.ctx, request.query));
  app.get('/dashboard/ticketsDay', { schema: { querystring: DashboardChartQuery } }, async (request) => readTicketsDay(services, request.ctx, request.query));
}
