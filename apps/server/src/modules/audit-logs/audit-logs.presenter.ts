import type { PresentedAuditLog } from '@atende/shared';
import type { AuditLogRow } from '../../platform/db/schema.js';

export function presentAuditLog(row: AuditLogRow): PresentedAuditLog {
  return {
    id: row.id,
    action: row.action,
    userId: row.userId,
    userName: row.userName,
    apiKeyId: row.apiKeyId,
    entity: row.entity,
    entityId: row.entityId,
    ip: row.ip,
    userAgent: row.userAgent,
    changes: row.changes ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
