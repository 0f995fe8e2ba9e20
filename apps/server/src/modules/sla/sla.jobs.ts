import { registerRecurringJob } from '../../platform/jobs/jobs.js';
import type { Platform } from '../../platform/platform.js';
import { sweepSla, type SlaDeps } from './sla.service.js';

/** How often due instants are written and breaches looked for (seconds): a mark is at most this late. */
const SLA_SWEEP_SECONDS = 20;

/** The SLA sweep, one chain across nodes (registerRecurringJob), each run idempotent. */
export function registerSlaJobs(deps: SlaDeps & Pick<Platform, 'jobs'>): void {
  registerRecurringJob(deps.jobs, {
    name: 'sla.sweep',
    everySeconds: () => SLA_SWEEP_SECONDS,
    firstAfterSeconds: SLA_SWEEP_SECONDS,
    options: { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 },
    run: () => sweepSla(deps, deps.clock.now()),
    logger: deps.logger.child({ module: 'sla' }),
    now: () => deps.clock.now(),
  });
}
