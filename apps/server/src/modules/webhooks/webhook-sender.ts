import { WEBHOOK_RESPONSE_EXCERPT_CHARS } from '@atende/shared';
import { createOutboundAgents, outboundFetch, OutboundNetworkError, OutboundRefusedError, outboundPolicy } from '../../platform/http/outbound.js';
import type { Platform } from '../../platform/platform.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import {
  claimDueDeliveries,
  companyAdminEmails,
  deleteOldDeliveries,
  nextDueAt,
  noteWebhookFailure,
  settleDeliveredMany,
  settleFailed,
  type AttemptOutcome,
  type ClaimedDelivery,
} from './webhook-deliveries.repo.js';
import { WEBHOOK_MEDIA_PATH_KEY, WEBHOOKS_DUE_CHANNEL } from './webhook-outbox.js';
import { webhookSignature } from './webhook-secret.js';

/**
 * Sends the outbox (webhook-outbox.ts) after commit, on the nodes that run the worker
 * service. It claims due deliveries in batches (webhook-deliveries.repo.ts: the oldest
 * unfinished one of each ordering key, under a lease), sends many at once over
 * keep-alive connections, and settles each: delivered on a 2xx within the timeout,
 * otherwise due again after a backoff with jitter, failed 24 h after the event. A
 * webhook whose attempts failed for 24 h without a success is turned off and its
 * company's admins are told.
 *
 * It wakes when a transaction that wrote deliveries commits (NOTIFY, on every node),
 * when one of its own sends settles (the key's next delivery is due), at the soonest
 * retry, and every `pollMs` whatever happens (a lost notification, an expired lease).
 */

export interface WebhookSenderOptions {
  /** Deliveries in flight at once (across ordering keys). */
  concurrency: number;
  /** Most deliveries one claim takes. */
  claimBatch: number;
  /** The longest sleep between claims. */
  pollMs: number;
  /** How long a claim is held: past it, another node sends the delivery again. */
  leaseMs: number;
  /** A 2xx within this time is delivered. */
  timeoutMs: number;
  /** First retry after this long; each next one twice as long (±20 % jitter), at most `maxRetryInMs`. */
  firstRetryMs: number;
  maxRetryInMs: number;
  /** Retried until this long after the event, then failed; a webhook failing this long is turned off. */
  retryForMs: number;
}

const WEBHOOK_SENDER_DEFAULTS: WebhookSenderOptions = {
  concurrency: 128,
  claimBatch: 200,
  pollMs: 2_000,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  firstRetryMs: 10_000,
  maxRetryInMs: 3_600_000,
  retryForMs: 24 * 3_600_000,
};

const USER_AGENT = 'Atende-Webhooks/1';

export type WebhookSenderDeps = Pick<Platform, 'database' | 'db' | 'config' | 'secrets' | 'events' | 'logger' | 'mailer' | 'media'>;

export interface WebhookSender {
  /** Starts sending (LISTEN, the loop); idempotent. */
  start(): Promise<void>;
  /** Stops claiming and waits for the sends in flight. */
  stop(): Promise<void>;
  /** Claims now (a delivery was written or sent again on this node). */
  wake(): void;
  /** Sends until nothing is due now and nothing is in flight (tests). */
  drain(): Promise<void>;
}

/** 10 s × 2^(attempt-1), capped, ±20 %. */
function retryDelayMs(attempt: number, options: Pick<WebhookSenderOptions, 'firstRetryMs' | 'maxRetryInMs'>, random = Math.random): number {
  const base = Math.min(options.firstRetryMs * 2 ** Math.max(0, attempt - 1), options.maxRetryInMs);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A message's media link, signed now (it works for a day from this attempt). */
function withSignedMedia(data: unknown, media: Pick<MediaStorage, 'signedUrl'>): unknown {
  if (!data || typeof data !== 'object' || !(WEBHOOK_MEDIA_PATH_KEY in data)) return data;
  const { [WEBHOOK_MEDIA_PATH_KEY]: mediaPath, ...shown } = data as Record<string, unknown>;
  return typeof mediaPath === 'string' ? { ...shown, mediaUrl: media.signedUrl(mediaPath) } : shown;
}

/** The JSON body receivers get. */
function deliveryBody(delivery: ClaimedDelivery, media: Pick<MediaStorage, 'signedUrl'>): string {
  return JSON.stringify({ id: delivery.eventId, event: delivery.event, companyId: delivery.companyId, createdAt: delivery.createdAt.toISOString(), data: withSignedMedia(delivery.data, media) });
}

export function createWebhookSender(deps: WebhookSenderDeps, overrides: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const options = { ...WEBHOOK_SENDER_DEFAULTS, ...overrides };
  const logger = deps.logger.child({ module: 'webhooks' });
  const policy = outboundPolicy(deps.config);
  const agents = createOutboundAgents(policy, { maxSockets: options.concurrency });
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let claiming = false;
  let wakeAgain = false;
  let timer: NodeJS.Timeout | null = null;
  let stopListening: (() => Promise<void>) | null = null;

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const body = deliveryBody(delivery, deps.media);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-atende-event': delivery.event,
      'x-atende-event-id': delivery.eventId,
      'x-atende-timestamp': String(timestamp),
      'x-atende-signature': webhookSignature(deps.secrets.open(delivery.secretSealed), timestamp, body),
    };
    const startedAt = performance.now();
    let outcome: AttemptOutcome;
    let ok = false;
    try {
      const answer = await outboundFetch(policy, delivery.url, { method: 'POST', headers, body, timeoutMs: options.timeoutMs, maxRedirects: 0, maxBytes: 64 * 1024, agents });
      ok = answer.status >= 200 && answer.status <= 299;
      outcome = {
        statusCode: answer.status,
        error: ok ? null : `answered ${answer.status}`,
        latencyMs: Math.round(performance.now() - startedAt),
        responseExcerpt: answer.text.slice(0, WEBHOOK_RESPONSE_EXCERPT_CHARS),
      };
    } catch (error) {
      const message =
        error instanceof OutboundRefusedError
          ? `refused by the outgoing URL policy: ${error.message}`
          : error instanceof OutboundNetworkError && error.timedOut
            ? `no answer within ${options.timeoutMs} ms`
            : error instanceof Error
              ? error.message
              : String(error);
      outcome = { statusCode: null, error: message, latencyMs: Math.round(performance.now() - startedAt), responseExcerpt: null };
    }
    if (ok) {
      await settleDeliveredInGroup(delivery, outcome);
      return;
    }
    const row = await settleFailed(deps.db, delivery, outcome, retryDelayMs(delivery.attempts, options), options.retryForMs);
    if (row) deps.events.emit('webhook.delivery', { companyId: delivery.companyId, delivery: row });
    if (row?.status === 'failed') logger.warn({ companyId: delivery.companyId, webhookId: delivery.webhookId, deliveryId: delivery.id, event: delivery.event, attempts: row.attempts }, 'webhook delivery failed for good');
    const disabled = await noteWebhookFailure(deps.db, delivery, options.retryForMs);
    if (disabled) await tellWebhookDisabled(delivery.companyId, disabled.id, disabled.url).then(() => deps.events.emit('webhook.saved', { companyId: delivery.companyId, webhook: disabled }));
  }

  /**
   * Successes wait here while the previous group is written, then go in one statement
   * (group commit): under load a flush settles everything answered meanwhile. Each
   * delivery stays in flight (and its key blocked, its lease held) until its group is
   * written, so order per key and at-least-once hold as with one statement each.
   */
  interface QueuedSuccess {
    delivery: ClaimedDelivery;
    outcome: AttemptOutcome;
    done: (error?: unknown) => void;
  }
  let successes: QueuedSuccess[] = [];
  let settling = false;

  function settleDeliveredInGroup(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      successes.push({ delivery, outcome, done: (error) => (error === undefined ? resolve() : reject(error as Error)) });
      if (!settling) void settleSuccesses();
    });
  }

  async function settleSuccesses(): Promise<void> {
    settling = true;
    try {
      while (successes.length > 0) {
        const group = successes;
        successes = [];
        try {
          const rows = await settleDeliveredMany(deps.db, group);
          const byId = new Map(group.map(({ delivery }) => [delivery.id, delivery]));
          for (const row of rows) {
            const delivery = byId.get(row.id);
            if (delivery) deps.events.emit('webhook.delivery', { companyId: delivery.companyId, delivery: row });
          }
          for (const queued of group) queued.done();
        } catch (error) {
          for (const queued of group) queued.done(error);
        }
      }
    } finally {
      settling = false;
    }
  }

  async function tellWebhookDisabled(companyId: number, webhookId: number, url: string): Promise<void> {
    logger.warn({ companyId, webhookId, url }, 'webhook turned off: its deliveries failed for 24 hours');
    if (!deps.mailer.configured) return;
    const emails = await companyAdminEmails(deps.db, companyId);
    await Promise.all(
      emails.map((to) =>
        deps.mailer
          .send({
            to,
            subject: 'Atende: a webhook was turned off',
            text: `The webhook ${url} (id ${webhookId}) failed every delivery for 24 hours and was turned off. Its pending deliveries wait; fix the receiver and turn it on again in Settings > Webhooks.`,
          })
          .catch((error: unknown) => logger.error({ err: error, companyId, webhookId }, 'webhook: the admins could not be told by e-mail')),
      ),
    );
  }

  function track(delivery: ClaimedDelivery): void {
    const work = attempt(delivery)
      .catch((error: unknown) => logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery could not be settled; sent again after its lease'))
      .finally(() => {
        inFlight.delete(work);
        // The key's next delivery may be due now.
        wake();
      });
    inFlight.add(work);
  }

  async function claimRound(): Promise<void> {
    if (claiming) {
      wakeAgain = true;
      return;
    }
    claiming = true;
    try {
      do {
        wakeAgain = false;
        const free = options.concurrency - inFlight.size;
        if (free <= 0) break;
        const claimed = await claimDueDeliveries(deps.db, Math.min(free, options.claimBatch), options.leaseMs);
        for (const delivery of claimed) track(delivery);
        if (claimed.length === Math.min(free, options.claimBatch)) wakeAgain = true;
      } while (wakeAgain && inFlight.size < options.concurrency);
    } catch (error) {
      logger.error({ err: error }, 'webhook deliveries could not be claimed; trying again');
    } finally {
      claiming = false;
    }
    if (running) await scheduleNext();
  }

  async function scheduleNext(): Promise<void> {
    if (timer) clearTimeout(timer);
    let waitMs = options.pollMs;
    if (inFlight.size === 0) {
      const due = await nextDueAt(deps.db).catch(() => null);
      if (due) waitMs = Math.max(0, Math.min(waitMs, due.getTime() - Date.now()));
    }
    timer = setTimeout(wake, Math.max(waitMs, 10));
    timer.unref();
  }

  function wake(): void {
    if (!running) return;
    void claimRound();
  }

  return {
    async start() {
      if (running) return;
      running = true;
      stopListening = await deps.database.listen(WEBHOOKS_DUE_CHANNEL, wake).catch((error: unknown) => {
        logger.error({ err: error }, 'webhooks: not listening for new deliveries; polling');
        return null;
      });
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await stopListening?.();
      stopListening = null;
      await Promise.allSettled([...inFlight]);
      agents.destroy();
    },
    wake,
    async drain() {
      for (;;) {
        const claimed = await claimDueDeliveries(deps.db, options.claimBatch, options.leaseMs);
        for (const delivery of claimed) track(delivery);
        if (claimed.length === 0 && inFlight.size === 0 && !claiming) return;
        await Promise.allSettled([...inFlight]);
      }
    },
  };
}

/** Retention: finished deliveries are kept 30 days. */
const WEBHOOK_DELIVERY_KEEP_MS = 30 * 24 * 3_600_000;

export async function pruneWebhookDeliveries(deps: Pick<Platform, 'db' | 'logger'>): Promise<void> {
  const deleted = await deleteOldDeliveries(deps.db, WEBHOOK_DELIVERY_KEEP_MS);
  if (deleted > 0) deps.logger.child({ module: 'webhooks' }).info({ deleted }, 'old webhook deliveries deleted');
}
