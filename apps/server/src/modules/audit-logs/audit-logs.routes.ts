import { AuditLogQuery } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentAuditLog } from './audit-logs.presenter.js';
import { listAuditLogs, type AuditLogsDeps } from './audit-logs.service.js';

/** Read only: no route edits or deletes an entry (the retention job is the only delete). */
export function registerAuditLogRoutes(scope: FastifyInstance, deps: AuditLogsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/audit-logs', { schema: { querystring: AuditLogQuery } }, async (request) => {
    const page = await listAuditLogs(deps, request.ctx, request.query);
    return { entries: page.rows.map(presentAuditLog), hasMore: page.hasMore };
  });
}
