import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../platform/config.js';
import { DamagedArchiveError } from './backup/archive.js';
import { PostgresToolError } from './backup/postgres.js';
import { restoreBackup, RestoreRefusedError } from './backup/restore.js';

const USAGE = `Usage: npm run restore -- --from FILE [--force] [--check] [--pg-bin DIR]

Puts back the database and the media of an archive written by \`npm run backup\`, into
this install (DATABASE_URL, or the embedded database in DATA_DIR; DATA_DIR/media).
Stop the server first. See docs/operations.md, "Backups".

  --from FILE     the archive
  --force         replace the database and media this install holds (refused without it)
  --check         only check the archive (checksums, format, schema, database mode); change nothing
  --pg-bin DIR    the folder of psql (default: Debian's /usr/lib/postgresql/<version>/bin, then PATH)
`;

try {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      force: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      'pg-bin': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.from) {
    process.stdout.write(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const summary = await restoreBackup({
    config,
    from: path.resolve(process.env.INIT_CWD ?? process.cwd(), values.from),
    force: values.force,
    checkOnly: values.check,
    pgBin: values['pg-bin'],
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const { manifest } = summary;
  const what = `${manifest.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} database of ${manifest.createdAt} (${manifest.database.migrations.applied} migrations), ${manifest.files.media} media files`;
  process.stdout.write(
    summary.restored
      ? [
          `Restored: ${what}${summary.replaced ? ', replacing what was there' : ''}`,
          `  media: ${summary.mediaWritten} written, ${summary.mediaRemoved} removed (not in the archive)${summary.secretsRestored ? '; DATA_DIR/secrets.json restored' : ''}`,
          `  took ${summary.seconds.total.toFixed(1)} s (checking the archive ${summary.seconds.check.toFixed(1)} s)`,
          '',
        ].join('\n')
      : `The archive is whole and can be restored here: ${what}\n`,
  );
} catch (error) {
  const explained = error instanceof ConfigError || error instanceof RestoreRefusedError || error instanceof PostgresToolError;
  const message = error instanceof DamagedArchiveError ? `the archive cannot be used: ${error.message}` : explained ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`Restore failed: ${message}\n`);
  process.exit(1);
}
