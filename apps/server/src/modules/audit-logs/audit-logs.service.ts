import { addToCalendarDate, AUDIT_LOG_PAGE_SIZE, startOfDayIn, type AuditLogQuery } from '@atende/shared';
import type { AuditLogRow } from '../../platform/db/schema.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { deleteAuditLogsBefore, listAuditLogRows, type AuditLogOwner } from './audit-logs.repo.js';

export type AuditLogsDeps = Pick<Platform, 'db' | 'config' | 'clock' | 'logger'>;

const DAY_MS = 86_400_000;

/**
 * `GET /audit-logs`: a page of the log, newest first. Admins read their own company's;
 * a super user may name another company (`companyId`), or `0` for the platform's own
 * entries (plans, companies). An admin's `companyId` is ignored: the session decides.
 * `from`/`to` are days in the company's time zone (the caller's), both included.
 */
export async function listAuditLogs(deps: AuditLogsDeps, ctx: RequestContext, query: AuditLogQuery): Promise<{ rows: AuditLogRow[]; hasMore: boolean }> {
  requireAdmin(ctx);
  let owner: AuditLogOwner = ctx;
  if (ctx.user.super && query.companyId !== undefined) owner = query.companyId === 0 ? 'platform' : { companyId: query.companyId };
  const zone = ctx.company.timezone;
  const rows = await listAuditLogRows(
    deps.db,
    owner,
    {
      action: query.action,
      entity: query.entity,
      userId: query.userId,
      since: query.from ? startOfDayIn(query.from, zone) : undefined,
      before: query.to ? startOfDayIn(addToCalendarDate(query.to, { days: 1 }), zone) : undefined,
    },
    { limit: AUDIT_LOG_PAGE_SIZE + 1, offset: (query.pageNumber - 1) * AUDIT_LOG_PAGE_SIZE },
  );
  return { rows: rows.slice(0, AUDIT_LOG_PAGE_SIZE), hasMore: rows.length > AUDIT_LOG_PAGE_SIZE };
}

/** The retention sweep: entries older than AUDIT_LOG_RETENTION_DAYS go, in every company. */
export async function pruneAuditLogs(deps: AuditLogsDeps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.config.AUDIT_LOG_RETENTION_DAYS * DAY_MS);
  const removed = await deleteAuditLogsBefore(deps.db, cutoff);
  if (removed > 0) deps.logger.child({ module: 'audit-logs' }).info({ removed, cutoff: cutoff.toISOString() }, 'old audit log entries deleted');
  return removed;
}
