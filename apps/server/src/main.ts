import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import { createChannelsService } from './channels/channels-service.js';
import { ConfigError, loadConfig, parseServices } from './config.js';
import { seedFirstStart } from './modules/companies/first-start.seed.js';
import { openDatabase } from './platform/db/client.js';
import { isDatabaseUnavailable } from './platform/db/unavailable.js';
import { createJobs } from './platform/jobs/jobs.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const services = parseServices(process.argv.slice(2));
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, 'pglite'),
  });
  await database.migrate();
  const seed = await seedFirstStart(database.db, { adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD });

  const logger = pino({ level: config.LOG_LEVEL });
  // pg-boss 10 settles a finished job (complete/fail) without awaiting it: while PostgreSQL is
  // down that rejection is unhandled and would end the process. The job stays active and is
  // retried after its lease, so a database outage is logged, not fatal; anything else still is.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason }, 'database unavailable (background work)');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
  const jobs = createJobs(database, logger, { maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_SECONDS });
  await jobs.start({ work: services.worker });

  // Every service needs the app's services (ingest, realtime, job handlers), even on a node that serves no HTTP.
  const app = await buildApp({ config, database, jobs });
  if (services.api) await app.listen({ port: config.PORT, host: config.HOST });
  const channels = services.channels ? createChannelsService(app.services) : null;
  await channels?.start();

  const address = services.api ? app.server.address() : null;
  const port = address && typeof address === 'object' ? address.port : config.PORT;
  const url = `http://${config.HOST}:${port}`;
  const lines = [
    '',
    `  Atende is running: ${url}`,
    `  Database: ${database.kind === 'pglite' ? `embedded (${path.join(config.DATA_DIR, 'pglite')})` : 'PostgreSQL'}`,
    `  Login: ${seed.adminEmail}`,
    seed.generatedPassword
      ? `  Password: ${seed.generatedPassword}   (generated now and shown only once: write it down)`
      : `  Password: ${config.ADMIN_PASSWORD ? 'the ADMIN_PASSWORD you set' : 'the one shown at the first start'}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Received ${signal}, shutting down\n`);
    // Sessions close and their leases are released first, so another node takes them over at once.
    await channels?.stop();
    await app.close();
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Atende failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
