import type { AppServices } from '../app.js';
import { defineJob, type JobDefinition } from '../platform/jobs/jobs.js';
import { automationRuntime } from './automation-runtime.js';
import { sweepTimers } from './timers.js';
import { retryWebhook, type WebhookRetryData } from './integrations/webhook.js';

/** How often the timers look for inactive tickets and tickets waiting too long (seconds). */
export const SWEEP_INTERVAL_SECONDS = 60;
const SWEEP_KEY = 'automation-timers';

export interface AutomationJobs {
  /** Closes inactive tickets and moves waiting ones (timers.ts), then queues its next run. */
  timers: JobDefinition<{ at?: string }>;
  webhookRetry: JobDefinition<WebhookRetryData>;
}

const definitions = new WeakMap<AppServices, AutomationJobs>();

export function automationJobs(services: AppServices): AutomationJobs {
  let jobs = definitions.get(services);
  if (jobs) return jobs;
  jobs = {
    timers: defineJob<{ at?: string }>({
      name: 'automation.timers',
      // One queued run at a time, whichever node sends it. A run lost with its node is retried, so the chain of runs goes on.
      options: { policy: 'short', retryLimit: 3, retryDelay: 30, expireInSeconds: 300 },
      async handler() {
        try {
          await sweepTimers(services, automationRuntime(services).now());
        } finally {
          await scheduleJob(services, automationJobs(services).timers, {}, SWEEP_INTERVAL_SECONDS, SWEEP_KEY);
        }
      },
    }),
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

/** Sends a durable job; without a job runner (some tests) the work is skipped and logged. */
export async function scheduleJob<T extends object>(
  services: AppServices,
  def: JobDefinition<T>,
  data: T,
  afterSeconds: number,
  singletonKey?: string,
): Promise<void> {
  const runtime = automationRuntime(services);
  if (!services.jobs) {
    runtime.logger.warn({ job: def.name }, 'no job runner: job not scheduled');
    return;
  }
  const startAfter = new Date(runtime.now().getTime() + afterSeconds * 1000);
  await services.jobs.send(def, data, { startAfter, ...(singletonKey ? { singletonKey } : {}) });
}

/**
 * Registers the automation's jobs with the app's runner and makes sure the
 * timers run (a duplicate start is dropped by the queue's singleton policy).
 */
export function registerAutomationJobs(services: AppServices): void {
  const { jobs } = services;
  if (!jobs) return;
  const defs = automationJobs(services);
  jobs.register(defs.timers);
  jobs.register(defs.webhookRetry);
  scheduleJob(services, defs.timers, {}, SWEEP_INTERVAL_SECONDS, SWEEP_KEY).catch((error: unknown) =>
    automationRuntime(services).logger.error({ err: error }, 'automation timers not started'),
  );
}
