import type { AutomationDeps, WebhookRetryData } from './automation-runtime.js';
import { defineJob, registerRecurringJob } from '../platform/jobs/jobs.js';
import { sweepTimers } from './timers.js';
import { retryWebhook } from './integrations/webhook.js';

/** How often the timers look for inactive tickets and tickets waiting too long (seconds). */
export const SWEEP_INTERVAL_SECONDS = 60;

/**
 * Registers the automation's jobs with the app's runner and starts the timers: every
 * minute they close inactive tickets and move waiting ones (timers.ts); a run lost
 * with its node is retried, so the chain goes on.
 */
export function registerAutomationJobs(services: AutomationDeps): void {
  const { jobs } = services;
  services.automation.webhookRetryJob = defineJob<WebhookRetryData>({
    name: 'automation.webhook-retry',
    // retryWebhook schedules its own next attempt with the growing delay.
    options: { retryLimit: 0, expireInSeconds: 120 },
    handler: (data) => retryWebhook(services, data),
  });
  jobs.register(services.automation.webhookRetryJob);
  const runtime = services.automation;
  registerRecurringJob(jobs, {
    name: 'automation.timers',
    everySeconds: () => SWEEP_INTERVAL_SECONDS,
    firstAfterSeconds: SWEEP_INTERVAL_SECONDS,
    options: { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 },
    run: () => sweepTimers(services, services.clock.now()),
    logger: runtime.logger,
    now: () => services.clock.now(),
  });
}
