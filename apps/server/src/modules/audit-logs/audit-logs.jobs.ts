import { registerRecurringJob } from '../../platform/jobs/jobs.js';
import type { Platform } from '../../platform/platform.js';
import { pruneAuditLogs, type AuditLogsDeps } from './audit-logs.service.js';

/** Hourly, so a day's worth of expired entries never waits long; one run across nodes (a pg-boss chain). */
const RETENTION_RUN_SECONDS = 3600;

export function registerAuditLogJobs(deps: AuditLogsDeps & Pick<Platform, 'jobs'>): void {
  registerRecurringJob(deps.jobs, {
    name: 'audit-logs.retention',
    everySeconds: () => RETENTION_RUN_SECONDS,
    firstAfterSeconds: 60,
    options: { retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
    run: () => pruneAuditLogs(deps),
    logger: deps.logger.child({ module: 'audit-logs' }),
  });
}
