import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { AccessChanges } from './events/access-changes.js';
import type { DomainEvents } from './events/domain-events.js';
import type { Jobs } from './jobs/jobs.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './metrics.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Publisher } from './realtime/publisher.js';
import type { MediaStorage } from './storage/media-storage.js';

/**
 * The platform's ports, each typed where it is defined. A function takes the few it
 * uses, declared beside it as `Pick<Platform, 'db' | 'events'>` (with the ports of the
 * modules it calls: `ChannelGateway`, ...), never the whole set: the composition root
 * (app.ts) is the only code that holds them all.
 */
export interface Platform {
  config: Config;
  /** The database handle with its raw SQL executor (the ingest's batch statement). */
  database: Database;
  db: Db;
  /** In-process domain events, emitted after commit (domain-events.ts). */
  events: DomainEvents;
  /** Call after a change of a user's rights (profile, queues, allTicket, tokenVersion, company status, existence). */
  access: AccessChanges;
  /** The one realtime publisher: events to company-prefixed rooms. */
  publisher: Publisher;
  /** Durable jobs (pg-boss; the manual runner in tests). */
  jobs: Jobs;
  media: MediaStorage;
  /** Encrypts secrets stored in the database. */
  secrets: SecretBox;
  /** Outgoing e-mail (SMTP_URL); `configured` false without one. */
  mailer: Mailer;
  /** The process's logger (redacting); areas log through `logger.child({ module })`. */
  logger: Logger;
  /** Prometheus counters and histograms the areas report to (a no-op without METRICS_TOKEN). */
  metrics: Metrics;
  clock: Clock;
}
