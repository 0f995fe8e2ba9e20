import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { ReportRangeQuery, TicketReportQuery } from './reports.schemas.js';
import { appointmentsByAttendant, departmentRatings, rushHour, ticketReport, type ReportsDeps } from './reports.service.js';

/**
 * whaticket v6's reports (issue 32): its dashboard charts (admins, as the dashboard) and its
 * tickets report (every user, over the tickets each may see). Answers keep v6's field names.
 */
export function registerReportRoutes(scope: FastifyInstance, deps: ReportsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/reports/appointmentsAtendent', { schema: { querystring: ReportRangeQuery } }, async (request) => appointmentsByAttendant(deps, request.ctx, request.query));
  app.get('/reports/departamentRatings', { schema: { querystring: ReportRangeQuery } }, async (request) => departmentRatings(deps, request.ctx, request.query));
  app.get('/reports/rushHour', { schema: { querystring: ReportRangeQuery } }, async (request) => rushHour(deps, request.ctx, request.query));
  app.get('/ticket/reports', { schema: { querystring: TicketReportQuery } }, async (request) => ticketReport(deps, request.ctx, request.query));
}
