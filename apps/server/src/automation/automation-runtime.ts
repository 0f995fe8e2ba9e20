import type { OutgoingMessagesDeps } from '../modules/messages/outgoing-messages.js';
import type { JobDefinition } from '../platform/jobs/jobs.js';
import type { Logger } from '../platform/logger.js';
import type { Platform } from '../platform/platform.js';

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
  /** The webhook retry job, defined when the automation's jobs are registered (automation-jobs.ts). */
  webhookRetryJob: JobDefinition<WebhookRetryData> | null;
}

/**
 * The ports a bot's turn uses, shared by the automation's files (a turn's steps hand
 * them on to each other): the database and events, sending through the channel, stored
 * media, sealed integration secrets, the job runner, the clock and the runtime above.
 */
export type AutomationDeps = OutgoingMessagesDeps & Pick<Platform, 'config' | 'jobs' | 'media' | 'secrets' | 'clock'> & { automation: AutomationRuntime };

export function createAutomationRuntime(logger: Logger): AutomationRuntime {
  return {
    logger: logger.child({ module: 'automation' }),
    httpTimeoutMs: 15_000,
    webhookRetryDelaysSeconds: [10, 60, 300],
    delayScale: 1,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    webhookRetryJob: null,
  };
}

/** A failed webhook delivery's next attempt (integrations/webhook.ts). */
export interface WebhookRetryData {
  companyId: number;
  integrationId: number;
  ticketId: number;
  messageId: number;
  attempt: number;
}

/** Sends a durable job, due `afterSeconds` from the app's clock. */
export async function scheduleJob<T extends object>(
  services: AutomationDeps,
  def: JobDefinition<T>,
  data: T,
  afterSeconds: number,
  singletonKey?: string,
): Promise<void> {
  const startAfter = new Date(services.clock.now().getTime() + afterSeconds * 1000);
  await services.jobs.send(def, data, { startAfter, ...(singletonKey ? { singletonKey } : {}) });
}
