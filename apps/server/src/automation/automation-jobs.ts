import type { AppServices } from '../app.js';
import { defineJob, registerRecurringJob, type JobDefinition } from '../platform/jobs/jobs.js';
import { sweepTimers } from './timers.js';
import { retryWebhook, type WebhookRetryData } from './integrations/webhook.js';

/** How often the timers look for inactive tickets and tickets waiting too long (seconds). */
export const SWEEP_INTERVAL_SECONDS = 60;

export interface AutomationJobs {
  webhookRetry: JobDefinition<WebhookRetryData>;
}

const definitions = new WeakMap<AppServices, AutomationJobs>();

export function automationJobs(services: AppServices): AutomationJobs {
  let jobs = definitions.get(services);
  if (jobs) return jobs;
  jobs = {
    webhookRetry: defineJob<WebhookRetryData>({
      name: 'automation.webhook-retry',
      // retryWebhook schedules its own next attempt with the growing delay.
      options: { retryLimit: 0, expireInSeconds: 120 },
      handler: (data) => retryWebhook(services, data),
    }),
  };
  definitions.set(services, jobs);
  return jobs;
}

/** Sends a durable job, due `afterSeconds` from the app's clock. */
export async function scheduleJob<T extends object>(
  services: AppServices,
  def: JobDefinition<T>,
  data: T,
  afterSeconds: number,
  singletonKey?: string,
): Promise<void> {
  const startAfter = new Date(services.clock.now().getTime() + afterSeconds * 1000);
  await services.jobs.send(def, data, { startAfter, ...(singletonKey ? { singletonKey } : {}) });
}

/**
 * Registers the automation's jobs with the app's runner and starts the timers: every
 * minute they close inactive tickets and move waiting ones (timers.ts); a run lost
 * with its node is retried, so the chain goes on.
 */
export function registerAutomationJobs(services: AppServices): void {
  const { jobs } = services;
  jobs.register(automationJobs(services).webhookRetry);
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
