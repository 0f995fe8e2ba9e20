import pino, { type Logger } from 'pino';
import type { AppServices } from '../app.js';

/**
 * Process-level knobs of the automation: the clock every rule reads (business
 * hours, timers, variables), the network budget of integration calls and how
 * long to wait between messages. Nothing here is bot state: that lives in the
 * database (ARCHITECTURE §3.6). Tests replace the clock and shorten the waits.
 */
export interface AutomationRuntime {
  now(): Date;
  logger: Logger;
  /** Budget of one call to Typebot, a webhook, Dialogflow or OpenAI. */
  httpTimeoutMs: number;
  /** Waits between a failed webhook delivery and its retries (seconds), then it gives up. */
  webhookRetryDelaysSeconds: number[];
  /** Multiplies Typebot's configured delay between messages (tests use 0). */
  delayScale: number;
  sleep(ms: number): Promise<void>;
}

const runtimes = new WeakMap<AppServices, AutomationRuntime>();

function defaults(services: AppServices): AutomationRuntime {
  return {
    now: () => new Date(),
    logger: pino({ level: services.config.LOG_LEVEL, base: { module: 'automation' } }),
    httpTimeoutMs: 15_000,
    webhookRetryDelaysSeconds: [10, 60, 300],
    delayScale: 1,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

export function automationRuntime(services: AppServices): AutomationRuntime {
  let runtime = runtimes.get(services);
  if (!runtime) {
    runtime = defaults(services);
    runtimes.set(services, runtime);
  }
  return runtime;
}

/** Replaces some knobs (tests: a fixed clock, short timeouts). */
export function configureAutomation(services: AppServices, overrides: Partial<AutomationRuntime>): AutomationRuntime {
  const runtime = Object.assign(automationRuntime(services), overrides);
  return runtime;
}
