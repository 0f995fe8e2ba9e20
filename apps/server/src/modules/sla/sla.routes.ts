import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { DashboardQuery } from '../dashboard/dashboard.schemas.js';
import { presentSlaBreach, presentSlaReport } from './sla.presenter.js';
import { listMyBreaches, readSlaReport, type SlaDeps } from './sla.service.js';

/** Response-time targets (issue 35): the bell's breaches (every user, its own) and the dashboard's report (admins). */
export function registerSlaRoutes(scope: FastifyInstance, deps: SlaDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/sla/breaches', async (request) => ({ breaches: (await listMyBreaches(deps, request.ctx)).map(presentSlaBreach) }));
  app.get('/dashboard/sla', { schema: { querystring: DashboardQuery } }, async (request) => presentSlaReport(await readSlaReport(deps, request.ctx, request.query)));
}
