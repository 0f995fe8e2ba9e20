import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readAgentLoad } from '../auto-assign/auto-assign.service.js';
import { presentDashboard, presentTicketsDay, presentTicketsUsers } from './dashboard.presenter.js';
import { DashboardChartQuery, DashboardQuery } from './dashboard.schemas.js';
import { readDashboard, readTicketsDay, readTicketsUsers, type DashboardDeps } from './dashboard.service.js';

/** The dashboard (spec part 1 §2, §7; issue 21): admins of the session's company only (ROUTE_ROLES). */
export function registerDashboardRoutes(scope: FastifyInstance, deps: DashboardDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/dashboard', { schema: { querystring: DashboardQuery } }, async (request) => presentDashboard(await readDashboard(deps, request.ctx, request.query, request.ctx.user.super)));
  app.get('/dashboard/ticketsUsers', { schema: { querystring: DashboardChartQuery } }, async (request) => presentTicketsUsers(await readTicketsUsers(deps, request.ctx, request.query)));
  app.get('/dashboard/ticketsDay', { schema: { querystring: DashboardChartQuery } }, async (request) => {
    const { list, range, perHour } = await readTicketsDay(deps, request.ctx, request.query);
    return presentTicketsDay(list, range, perHour);
  });
  // Auto-assignment (issue 35): each agent's open tickets against its capacity, and presence.
  app.get('/dashboard/agentLoad', async (request) => readAgentLoad(deps, request.ctx));
}
