import type { AppointmentsByAttendant, DepartmentRatings, RushHour } from '@atende/shared';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { resolveRange } from '../dashboard/dashboard.policy.js';
import { companyTimeZone } from '../dashboard/dashboard.repo.js';
import { conversationsPerHour, ratingsPerQueue, ticketReportPage, ticketsPerAttendant, ticketsPerQueue } from './reports.repo.js';
import { TICKET_REPORT_MAX_PAGE, type ReportRangeQuery, type TicketReportQuery } from './reports.schemas.js';

export type ReportsDeps = Pick<Platform, 'db'>;

async function rangeOf(deps: ReportsDeps, scope: TenantScope, query: ReportRangeQuery) {
  return resolveRange(await companyTimeZone(deps.db, scope), { from: query.initialDate, to: query.finalDate });
}

/** `GET /reports/appointmentsAtendent`: conversations per agent and per queue in the range. */
export async function appointmentsByAttendant(deps: ReportsDeps, scope: TenantScope, query: ReportRangeQuery): Promise<AppointmentsByAttendant> {
  const range = await rangeOf(deps, scope, query);
  const [appointmentsByAttendents, ticketsByQueues] = await Promise.all([ticketsPerAttendant(deps.db, scope, range), ticketsPerQueue(deps.db, scope, range)]);
  return { appointmentsByAttendents, ticketsByQueues };
}

/** `GET /reports/departamentRatings`: the average rating (1–3) per queue in the range. */
export async function departmentRatings(deps: ReportsDeps, scope: TenantScope, query: ReportRangeQuery): Promise<DepartmentRatings> {
  return ratingsPerQueue(deps.db, scope, await rangeOf(deps, scope, query));
}

/** `GET /reports/rushHour`: conversations started per hour of the day in the range. */
export async function rushHour(deps: ReportsDeps, scope: TenantScope, query: ReportRangeQuery): Promise<RushHour> {
  return conversationsPerHour(deps.db, scope, await rangeOf(deps, scope, query));
}

/**
 * `GET /ticket/reports` (v6's Relatórios page): the tickets the caller may see with the
 * filters, newest first, a page at a time (at most TICKET_REPORT_MAX_PAGE rows), with their count.
 */
export async function ticketReport(deps: ReportsDeps, ctx: RequestContext, query: TicketReportQuery) {
  const timeZone = await companyTimeZone(deps.db, ctx);
  const page = query.page ?? query.pageNumber ?? 1;
  const pageSize = Math.min(query.pageSize ?? 10, TICKET_REPORT_MAX_PAGE);
  const search = query.searchParam?.trim();
  const { tickets, total } = await ticketReportPage(
    deps.db,
    ctx,
    timeZone,
    {
      ticketId: query.ticketId,
      contactId: query.contactId ?? query['currentContact[id]'],
      whatsappIds: query.whatsappId,
      userIds: query.users,
      queueIds: query.queueIds,
      statuses: query.status,
      from: query.dateFrom,
      to: query.dateTo,
      search: search || undefined,
    },
    page,
    pageSize,
  );
  return { tickets, totalTickets: { total } };
}
