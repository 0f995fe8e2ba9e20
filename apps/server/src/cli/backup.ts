import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../platform/config.js';
import { SnapshotRequestError } from '../platform/db/embedded-snapshot.js';
import { BackupRefusedError, createBackup } from './backup/backup.js';
import { PostgresToolError } from './backup/postgres.js';

const USAGE = `Usage: npm run backup -- --out FILE [--pg-bin DIR]

Writes the database and the media of this install (DATABASE_URL, or the embedded
database in DATA_DIR; DATA_DIR/media) to FILE, a .tar.gz archive, while the server
runs. See docs/operations.md, "Backups".

  --out FILE      the archive to write (replaced if it exists; written as FILE.partial first)
  --pg-bin DIR    the folder of pg_dump (default: Debian's /usr/lib/postgresql/<version>/bin, then PATH)
`;

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

try {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'pg-bin': { type: 'string' }, help: { type: 'boolean', default: false } } });
  if (values.help || !values.out) {
    process.stdout.write(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const summary = await createBackup({ config, out: path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out), pgBin: values['pg-bin'], log: (line) => process.stderr.write(`${line}\n`) });
  const { manifest } = summary;
  const { embeddedCopy } = summary;
  const paused = embeddedCopy ? ` (statements waited ${(embeddedCopy.pausedMs / 1000).toFixed(1)} s for the copy)` : '';
  const copied = embeddedCopy?.by === 'server' ? `, copied by the running server${paused}` : embeddedCopy?.by === 'here' ? ', no server running' : '';
  process.stdout.write(
    [
      `Backup written: ${summary.file} (${megabytes(summary.archiveBytes)}, ${megabytes(manifest.bytes)} uncompressed)`,
      `  database: ${manifest.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} ${manifest.database.serverVersion}${copied}, ` +
        `${manifest.database.migrations.applied} migrations (last ${manifest.database.migrations.last ?? 'none'}), snapshot at ${manifest.database.snapshotAt}`,
      `  media: ${manifest.files.media} files${summary.mediaGone > 0 ? ` (${summary.mediaGone} removed while the backup ran, not included)` : ''}`,
      `  took ${summary.seconds.total.toFixed(1)} s (database ${summary.seconds.database.toFixed(1)} s)`,
      '',
    ].join('\n'),
  );
} catch (error) {
  const explained = error instanceof ConfigError || error instanceof BackupRefusedError || error instanceof SnapshotRequestError || error instanceof PostgresToolError;
  process.stderr.write(`Backup failed: ${explained ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
