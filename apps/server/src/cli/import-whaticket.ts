import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../platform/config.js';
import { createSecretBox } from '../platform/crypto/secret-box.js';
import { DataDirLockedError } from '../platform/db/data-dir-lock.js';
import { openDatabaseAtStart } from '../platform/db/open-at-start.js';
import { createConfiguredMediaStore } from '../platform/storage/configured-media-store.js';
import { NoSpaceToStartError } from '../platform/storage/disk-space.js';
import { formatReport, importWhaticket } from './import-whaticket/plan.js';

const USAGE = `Usage: npm run import:whaticket -- --from postgres://user:pass@host:5432/whaticket [--media DIR] [--dry-run]

Copies a whaticket v6 database into Atende: the database \`npm start\` uses (the
embedded one in DATA_DIR, or DATABASE_URL). Run it again to add what is new or to
resume a run that stopped. Stop whaticket first. See docs/migrating-from-whaticket.md.

  --from URL      the whaticket PostgreSQL database (read only)
  --media DIR     whaticket's backend/public folder, whose files are copied
  --dry-run       read and map everything, write nothing, print the report
  --page-size N   rows per page and transaction (default 1000)
  --source NAME   names the whaticket database in the id map (default: host, port and name of --from)
  --stop-after-pages N   stop after N pages, as a killed run would (to try resuming); exit code 3
`;

/**
 * `npm run import:whaticket`: like the server and `db:migrate`, it opens (and migrates)
 * the configured database, refusing an embedded one another process holds. The progress
 * bar goes to stderr, the report to stdout.
 */
try {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      media: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'page-size': { type: 'string' },
      'stop-after-pages': { type: 'string' },
      source: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.from) {
    process.stdout.write(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const database = await openDatabaseAtStart({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, minFreeMb: config.DATA_DIR_MIN_FREE_MB });
  try {
    const report = await importWhaticket({
      from: values.from,
      database,
      mediaStore: createConfiguredMediaStore(config),
      mediaFrom: values.media ? path.resolve(values.media) : undefined,
      dryRun: values['dry-run'],
      pageSize: values['page-size'] ? Number(values['page-size']) : undefined,
      stopAfterPages: values['stop-after-pages'] ? Number(values['stop-after-pages']) : undefined,
      sourceName: values.source,
      secrets: createSecretBox(config.ENCRYPTION_KEY),
      progress: process.stderr,
    });
    process.stdout.write(formatReport(report));
    process.exitCode = report.complete ? 0 : 3;
  } finally {
    await database.close();
  }
} catch (error) {
  const explained = error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof NoSpaceToStartError;
  process.stderr.write(`${explained ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
