import type { WhatsappRow } from '../../platform/db/schema.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/jobs.js';
import type { Platform } from '../../platform/platform.js';
import { processMediaMessage, processWebhookValue, type CloudInboundContext, type CloudInboundDeps, type CloudMediaJob } from './cloud-api.inbound.js';
import { WebhookValue } from './cloud-api.mapper.js';
import type { CloudApiProvider } from './cloud-api.provider.js';
import { findCloudConnection } from './cloud-api.repo.js';

interface WebhookJob {
  companyId: number;
  whatsappId: number;
  value: unknown;
  /** Set on the later tries of statuses whose send was not stored yet (1 for the first). */
  attempt?: number;
}

/** Tries of a status whose send is not stored yet: again after 1, 2, 4 and 8 seconds, then dropped. */
const STATUS_ATTEMPTS = 5;

export interface CloudApiJobs {
  webhook: JobDefinition<WebhookJob>;
  media: JobDefinition<CloudMediaJob>;
  /** Queues one verified change for processing (a durable job). */
  enqueueWebhook(connection: Pick<WhatsappRow, 'companyId' | 'id'>, value: unknown): Promise<void>;
}

/** Groups' subjects remembered per process: how many, and for how long (a renamed group shows its new name after that). */
const GROUP_SUBJECTS_KEPT = 1000;
const GROUP_SUBJECT_TTL_MS = 60 * 60 * 1000;

/**
 * A group's subject for its ticket's name, asked of the Graph API once an hour at most
 * per group (a failure too: the message is stored without it meanwhile).
 */
function groupSubjects(provider: CloudApiProvider, logger: CloudInboundContext['logger']): CloudInboundContext['groupSubject'] {
  const known = new Map<string, { subject: string | undefined; at: number }>();
  return async (connection, groupId) => {
    const key = `${connection.id}:${groupId}`;
    const cached = known.get(key);
    if (cached && Date.now() - cached.at < GROUP_SUBJECT_TTL_MS) return cached.subject;
    const subject = await provider
      .client(connection)
      .groupSubject(groupId)
      .catch((error: unknown) => {
        logger.warn({ whatsappId: connection.id, err: error }, 'Cloud API group subject not available');
        return undefined;
      });
    known.delete(key);
    known.set(key, { subject, at: Date.now() });
    // The oldest entry goes first (a Map keeps insertion order).
    if (known.size > GROUP_SUBJECTS_KEPT) known.delete(known.keys().next().value ?? '');
    return subject;
  };
}

/** The durable jobs, and what processing a change takes. */
export type CloudApiJobsDeps = CloudInboundDeps & Pick<Platform, 'jobs'>;

/**
 * The webhook answers Meta at once and leaves the work to these jobs: one per
 * verified change (messages and statuses, in order), and one per media message,
 * retried with backoff until the file is fetched. Jobs carry the change itself
 * (the event) and ids; handlers reload the connection and skip when it is gone.
 */
export function createCloudApiJobs(deps: CloudApiJobsDeps, provider: CloudApiProvider, logger: CloudInboundContext['logger']): CloudApiJobs {
  /** Queues a job's run, `afterSeconds` from now. */
  async function runLater<T extends object>(def: JobDefinition<T>, data: T, afterSeconds = 0): Promise<void> {
    await deps.jobs.send(def, data, afterSeconds > 0 ? { startAfter: Math.ceil(afterSeconds) } : undefined);
  }

  const media = defineJob<CloudMediaJob>({
    name: 'cloud-api-media',
    // pg-boss retries only what a crash interrupted; download failures queue their own next try (below).
    options: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
    async handler(job) {
      const connection = await findCloudConnection(deps.db, { companyId: job.companyId }, job.whatsappId);
      if (!connection) return;
      const outcome = await processMediaMessage(deps, { provider, logger }, connection, job);
      if (outcome === 'retry') await retryMedia(job);
    },
  });

  /** The next try of a download, after 2, 4, 8, ... seconds (with jitter). */
  function retryMedia(job: CloudMediaJob): Promise<void> {
    const attempt = (job.attempt ?? 1) + 1;
    return runLater(media, { ...job, attempt }, 2 ** (attempt - 1) * (0.75 + Math.random() / 2));
  }

  const cloud: CloudInboundContext = { provider, enqueueMedia: (job) => runLater(media, job), groupSubject: groupSubjects(provider, logger), logger };

  const webhook = defineJob<WebhookJob>({
    name: 'cloud-api-webhook',
    // One change takes well under a second; a job held by a node that died is retried after this lease.
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 },
    async handler(job) {
      const connection = await findCloudConnection(deps.db, { companyId: job.companyId }, job.whatsappId);
      if (!connection) return;
      const value = WebhookValue.safeParse(job.value);
      if (!value.success) return;
      const unmatched = await processWebhookValue(deps, cloud, connection, value.data);
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
  function retryStatuses(job: WebhookJob): Promise<void> {
    return runLater(webhook, job, 2 ** ((job.attempt ?? 2) - 2));
  }

  return {
    webhook,
    media,
    async enqueueWebhook(connection, value) {
      const job = { companyId: connection.companyId, whatsappId: connection.id, value };
      await deps.jobs.send(webhook, job);
    },
  };
}
