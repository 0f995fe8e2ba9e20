import type { Logger } from '../platform/logger.js';

/**
 * Process-level knobs of the automation: the network budget of integration calls
 * and how long to wait between messages, and its logger. Nothing here is bot state:
 * that lives in the database (ARCHITECTURE §3.6); the time it reads is the app's
 * clock. Made by the composition root (app.ts); tests shorten the waits on theirs.
 */
export interface AutomationRuntime {
  logger: Logger;
  /** Budget of one call to Typebot, a webhook, Dialogflow or OpenAI. */
  httpTimeoutMs: number;
  /** Waits between a failed webhook delivery and its retries (seconds), then it gives up. */
  webhookRetryDelaysSeconds: number[];
  /** Multiplies Typebot's configured delay between messages (tests use 0). */
  delayScale: number;
  sleep(ms: number): Promise<void>;
}

export function createAutomationRuntime(logger: Logger): AutomationRuntime {
  return {
    logger: logger.child({ module: 'automation' }),
    httpTimeoutMs: 15_000,
    webhookRetryDelaysSeconds: [10, 60, 300],
    delayScale: 1,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
