import { and, desc, eq, gte, isNull, lt, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditEntity } from '@atende/shared';
import type { DbOrTx } from '../../platform/db/client.js';
import { auditLogs, type AuditLogRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import type { TenantScope } from '../../platform/http/context.js';

export interface AuditLogFilters {
  action?: AuditAction;
  entity?: AuditEntity;
  userId?: number;
  /** Entries at or after this instant. */
  since?: Date;
  /** Entries before this instant. */
  before?: Date;
}

/** Whose entries: a company's, or (super users only) the platform's own (`company_id` null). */
export type AuditLogOwner = TenantScope | 'platform';

function filtersOf(owner: AuditLogOwner, filters: AuditLogFilters): SQL {
  const conditions = [
    filters.action ? eq(auditLogs.action, filters.action) : undefined,
    filters.entity ? eq(auditLogs.entity, filters.entity) : undefined,
    filters.userId !== undefined ? eq(auditLogs.userId, filters.userId) : undefined,
    filters.since ? gte(auditLogs.createdAt, filters.since) : undefined,
    filters.before ? lt(auditLogs.createdAt, filters.before) : undefined,
  ];
  return owner === 'platform' ? (and(isNull(auditLogs.companyId), ...conditions) as SQL) : inTenant(auditLogs, owner, ...conditions);
}

/** One page, newest first; one row more than asked tells whether another page exists. */
export async function listAuditLogRows(db: DbOrTx, owner: AuditLogOwner, filters: AuditLogFilters, page: { limit: number; offset: number }): Promise<AuditLogRow[]> {
  return db
    .select()
    .from(auditLogs)
    .where(filtersOf(owner, filters))
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The retention sweep: the only statement of the product that removes entries. Answers how many went. */
export async function deleteAuditLogsBefore(db: DbOrTx, cutoff: Date): Promise<number> {
  const removed = await db.delete(auditLogs).where(lt(auditLogs.createdAt, cutoff)).returning({ id: auditLogs.id });
  return removed.length;
}
