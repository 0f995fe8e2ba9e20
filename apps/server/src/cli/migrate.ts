import { ConfigError, loadConfig } from '../platform/config.js';
import { DataDirLockedError } from '../platform/db/data-dir-lock.js';
import { openDatabaseAtStart } from '../platform/db/open-at-start.js';
import { NoSpaceToStartError } from '../platform/storage/disk-space.js';

/**
 * `npm run db:migrate`: applies pending migrations to the configured database. Like the
 * server, it refuses an embedded database another process holds and a DATA_DIR out of space.
 */
try {
  const config = loadConfig();
  const database = await openDatabaseAtStart({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, minFreeMb: config.DATA_DIR_MIN_FREE_MB });
  await database.close();
  process.stdout.write(`migrations applied (${database.kind})\n`);
} catch (error) {
  const explained = error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof NoSpaceToStartError;
  process.stderr.write(`${explained ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
