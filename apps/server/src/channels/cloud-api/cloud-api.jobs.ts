import { and, eq } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/jobs.js';
import { processMediaMessage, processWebhookValue, WebhookValue, type CloudInboundDeps, type CloudMediaJob } from './cloud-api.inbound.js';
import type { CloudApiProvider } from './cloud-api.provider.js';

interface WebhookJob {
  companyId: number;
  whatsappId: number;
  value: unknown;
  /** Set on the later tries of statuses whose send was not stored yet (1 for the first). */
  attempt?: number;
}

/** Tries of a status whose send is not stored yet: again after 1, 2, 4 and 8 seconds, then dropped. */
export const STATUS_ATTEMPTS = 5;

export interface CloudApiJobs {
  webhook: JobDefinition<WebhookJob>;
  media: JobDefinition<CloudMediaJob>;
  /** Queues one verified change for processing (a durable job; inline when this app runs without jobs). */
  enqueueWebhook(connection: Pick<WhatsappRow, 'companyId' | 'id'>, value: unknown): Promise<void>;
}

async function cloudConnection(services: AppServices, companyId: number, whatsappId: number): Promise<WhatsappRow | null> {
  const [row] = await services.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId), eq(whatsapps.provider, 'cloud-api')))
    .limit(1);
  return row ?? null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The webhook answers Meta at once and leaves the work to these jobs: one per
 * verified change (messages and statuses, in order), and one per media message,
 * retried with backoff until the file is fetched. Jobs carry the change itself
 * (the event) and ids; handlers reload the connection and skip when it is gone.
 */
export function createCloudApiJobs(services: AppServices, provider: CloudApiProvider, logger: CloudInboundDeps['logger']): CloudApiJobs {
  const media = defineJob<CloudMediaJob>({
    name: 'cloud-api-media',
    // pg-boss retries only what a crash interrupted; download failures queue their own next try (below).
    options: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
    async handler(job) {
      const connection = await cloudConnection(services, job.companyId, job.whatsappId);
      if (!connection) return;
      const outcome = await processMediaMessage({ services, provider, logger }, connection, job);
      if (outcome === 'retry') await retryMedia(job);
    },
  });

  /** The next try of a download, after 2, 4, 8, ... seconds (with jitter). */
  async function retryMedia(job: CloudMediaJob): Promise<void> {
    const attempt = (job.attempt ?? 1) + 1;
    const delay = 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
    if (services.jobs) await services.jobs.send(media, { ...job, attempt }, { startAfter: Math.ceil(delay) });
    else {
      await sleep(Math.min(delay * 50, 500));
      await media.handler({ ...job, attempt }, { id: 'inline' });
    }
  }

  async function enqueueMedia(job: CloudMediaJob): Promise<void> {
    if (services.jobs) {
      await services.jobs.send(media, job);
      return;
    }
    await media.handler(job, { id: 'inline' });
  }

  const deps: CloudInboundDeps = { services, provider, enqueueMedia, logger };

  const webhook = defineJob<WebhookJob>({
    name: 'cloud-api-webhook',
    // One change takes well under a second; a job held by a node that died is retried after this lease.
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 },
    async handler(job) {
      const connection = await cloudConnection(services, job.companyId, job.whatsappId);
      if (!connection) return;
      const value = WebhookValue.safeParse(job.value);
      if (!value.success) return;
      const unmatched = await processWebhookValue(deps, connection, value.data);
      const attempt = job.attempt ?? 1;
      if (unmatched.length === 0) return;
      if (attempt >= STATUS_ATTEMPTS) {
        logger.warn({ whatsappId: connection.id, statuses: unmatched.length }, 'Cloud API statuses of sends not stored here dropped');
        return;
      }
      await retryStatuses({ ...job, value: { statuses: unmatched }, attempt: attempt + 1 });
    },
  });

  /** The statuses' next try, after 1, 2, 4, ... seconds. */
  async function retryStatuses(job: WebhookJob): Promise<void> {
    const delay = 2 ** ((job.attempt ?? 2) - 2);
    if (services.jobs) await services.jobs.send(webhook, job, { startAfter: delay });
    else {
      await sleep(Math.min(delay * 50, 500));
      await webhook.handler(job, { id: 'inline' });
    }
  }

  return {
    webhook,
    media,
    async enqueueWebhook(connection, value) {
      const job = { companyId: connection.companyId, whatsappId: connection.id, value };
      if (services.jobs) {
        await services.jobs.send(webhook, job);
        return;
      }
      // No job runner in this app (some tests): still answer first, then process.
      setImmediate(() => {
        webhook.handler(job, { id: 'inline' }).catch((error: unknown) => logger.error({ err: error }, 'webhook processing failed'));
      });
    },
  };
}
