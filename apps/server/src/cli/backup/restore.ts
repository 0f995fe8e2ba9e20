import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '../../platform/db/client.js';
import { DataDirLockedError, lockDataDir, type DataDirLock } from '../../platform/db/data-dir-lock.js';
import { snapshotsFolderOf } from '../../platform/db/embedded-snapshot.js';
import { appliedMigrationLevel, codeMigrationLevel, isNewerThanCode, type MigrationLevel } from '../../platform/db/migrations.js';
import { embeddedDatabaseFolder } from '../../platform/db/open-at-start.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { readArchive, type ArchiveEntry, type Manifest } from './archive.js';
import { mediaFilesOf, secretsFileOf, type BackupOptions } from './backup.js';
import { analyzePostgres, inspectPostgres, restorePostgres } from './postgres.js';

/**
 * `npm run restore`: puts an archive's database, media and secrets back. The archive is read
 * twice: first whole, to check it (checksums, format, schema level, database mode) before
 * anything is touched; then to apply it, each entry checked again as it is read.
 */

/** A restore that would do harm, or cannot be done: said before anything changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

export interface RestoreOptions {
  config: BackupOptions['config'];
  from: string;
  /** Replace an existing database and media (refused without it). */
  force: boolean;
  /** Only check the archive. */
  checkOnly?: boolean;
  pgBin?: string;
  log?: (line: string) => void;
}

export interface RestoreSummary {
  manifest: Manifest;
  restored: boolean;
  /** Existing data replaced (--force). */
  replaced: boolean;
  mediaWritten: number;
  mediaRemoved: number;
  secretsRestored: boolean;
  seconds: { check: number; total: number };
}

const MODE_NAMES = { pglite: 'the embedded database (PGlite, DATA_DIR/pglite)', postgres: 'PostgreSQL (DATABASE_URL)' } as const;

function describeLevel(level: MigrationLevel): string {
  return `${level.applied} migrations${level.last ? `, last ${level.last}` : ''}`;
}

/** Checks that this install can take the archive: same database mode, a schema this code knows. */
function checkCompatible(manifest: Manifest, mode: 'pglite' | 'postgres'): void {
  const archived = manifest.database.kind;
  if (archived !== mode) {
    throw new RestoreRefusedError(
      `This archive holds ${MODE_NAMES[archived]}, and this install uses ${MODE_NAMES[mode]}. ` +
        `Restore it with ${archived === 'postgres' ? 'DATABASE_URL set to a PostgreSQL database' : 'DATABASE_URL unset'}; ` +
        'a backup does not move data between the two database modes.',
    );
  }
  if (isNewerThanCode(manifest.database.migrations)) {
    throw new RestoreRefusedError(
      `This archive comes from a newer Atende: its database has ${describeLevel(manifest.database.migrations)}, ` +
        `this Atende knows ${describeLevel(codeMigrationLevel())}. Upgrade Atende, then restore.`,
    );
  }
}

async function mediaKeys(media: MediaStore): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const { key } of media.list('')) keys.add(key);
  return keys;
}

async function writeFileWhole(file: string, data: AsyncIterable<Buffer>, mode: number): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(data, createWriteStream(temporary, { mode, flush: true }));
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** What both modes do with the entries that are not the database. */
function restoreFiles(config: RestoreOptions['config'], media: MediaStore) {
  const counts = { mediaWritten: 0, secretsRestored: false };
  const written = new Set<string>();
  return {
    counts,
    written,
    async apply(entry: ArchiveEntry): Promise<void> {
      if (entry.path === 'secrets.json') {
        await writeFileWhole(secretsFileOf(config), entry.data(), 0o600);
        counts.secretsRestored = true;
      } else if (entry.path.startsWith('media/') && entry.type === 'file') {
        const key = entry.path.slice('media/'.length);
        await media.put(key, Readable.from(entry.data()), { size: entry.size });
        written.add(key);
        counts.mediaWritten += 1;
      }
    },
  };
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const log = options.log ?? (() => undefined);
  const file = path.resolve(options.from);
  if (!existsSync(file)) throw new RestoreRefusedError(`${file} does not exist.`);
  const startedAt = Date.now();
  log(`Checking ${file}`);
  const manifest = await readArchive(file, async () => undefined);
  const check = (Date.now() - startedAt) / 1000;
  const mode = options.config.DATABASE_URL ? 'postgres' : 'pglite';
  checkCompatible(manifest, mode);
  const base = { manifest, check };
  if (options.checkOnly) {
    return { manifest, restored: false, replaced: false, mediaWritten: 0, mediaRemoved: 0, secretsRestored: false, seconds: { check, total: check } };
  }
  const result = options.config.DATABASE_URL
    ? await restoreIntoPostgres(options, options.config.DATABASE_URL, base, file, log)
    : await restoreIntoEmbedded(options, base, file, log);
  return { ...result, manifest, restored: true, seconds: { check, total: (Date.now() - startedAt) / 1000 } };
}

type Applied = Pick<RestoreSummary, 'replaced' | 'mediaWritten' | 'mediaRemoved' | 'secretsRestored'>;

function refuseExisting(what: string[]): never {
  throw new RestoreRefusedError(`Refused: ${what.join(' and ')}. A restore replaces them: run it again with --force to do so.`);
}

async function removeMediaNotIn(media: MediaStore, before: Set<string>, written: Set<string>): Promise<number> {
  let removed = 0;
  for (const key of before) {
    if (written.has(key)) continue;
    await media.remove(key);
    removed += 1;
  }
  return removed;
}

async function restoreIntoPostgres(options: RestoreOptions, url: string, { manifest }: { manifest: Manifest }, file: string, log: (line: string) => void): Promise<Applied> {
  const state = await inspectPostgres(url);
  if (state.sessions.length > 0) {
    const who = state.sessions.map((session) => `${session.count} from ${session.client} (${session.application})`).join(', ');
    throw new RestoreRefusedError(
      `The database is in use: ${who}. A restore while the server runs is refused; stop every Atende node (and other clients of this database), then restore.`,
    );
  }
  const archivedMajor = Number.parseInt(manifest.database.serverVersion, 10);
  if (archivedMajor > state.serverMajor) {
    throw new RestoreRefusedError(`This archive was dumped from PostgreSQL ${manifest.database.serverVersion}; this database runs ${state.serverVersion}, which may not read it. Restore into PostgreSQL ${archivedMajor} or newer.`);
  }
  const media = mediaFilesOf(options.config);
  const before = await mediaKeys(media);
  const existing = [
    ...(state.tables > 0 ? [`the database holds ${state.tables} tables`] : []),
    ...(before.size > 0 ? [`${path.join(options.config.DATA_DIR, 'media')} holds ${before.size} files`] : []),
  ];
  if (existing.length > 0 && !options.force) refuseExisting(existing);

  const files = restoreFiles(options.config, media);
  log(`Restoring the database (one transaction${state.tables > 0 ? ', replacing the existing schemas' : ''})`);
  await readArchive(
    file,
    async (entry) => {
      if (entry.path === 'database/postgres.sql') {
        await restorePostgres(url, entry.data(), { replace: state.tables > 0, serverMajor: state.serverMajor, serverVersion: state.serverVersion, binDir: options.pgBin });
        log('Restoring the media');
        return;
      }
      await files.apply(entry);
    },
    manifest,
  );
  const mediaRemoved = await removeMediaNotIn(media, before, files.written);
  log('Updating the planner statistics (analyze)');
  await analyzePostgres(url);
  return { replaced: existing.length > 0, mediaRemoved, ...files.counts };
}

/** Opens a restored database folder once: the archive's copy must open, at the level its manifest says. */
async function checkOpens(folder: string, level: MigrationLevel): Promise<void> {
  const database = await openDatabase({ dataDir: folder });
  try {
    const found = await appliedMigrationLevel((text) => database.sql.executeSql(text));
    if (found.applied !== level.applied || found.lastAt !== level.lastAt) {
      throw new RestoreRefusedError(`The restored database has ${describeLevel(found)}; its manifest says ${describeLevel(level)}.`);
    }
  } finally {
    await database.close();
    await rm(snapshotsFolderOf(folder), { recursive: true, force: true });
  }
}

async function restoreIntoEmbedded(options: RestoreOptions, { manifest }: { manifest: Manifest }, file: string, log: (line: string) => void): Promise<Applied> {
  const folder = embeddedDatabaseFolder(options.config.DATA_DIR);
  let lock: DataDirLock;
  try {
    // Held to the end: no server starts on a half-restored folder.
    lock = lockDataDir(folder);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new RestoreRefusedError(
      `The embedded database is in use by pid ${error.holder.pid}${error.holder.host === hostname() ? '' : ` on ${error.holder.host}`} (since ${error.holder.since}): ` +
        'a restore while the server runs is refused. Stop the server, then restore.',
    );
  }
  try {
    const media = mediaFilesOf(options.config);
    const before = await mediaKeys(media);
    const hasDatabase = existsSync(path.join(folder, 'PG_VERSION'));
    const existing = [...(hasDatabase ? [`${folder} holds a database`] : []), ...(before.size > 0 ? [`${path.join(options.config.DATA_DIR, 'media')} holds ${before.size} files`] : [])];
    if (existing.length > 0 && !options.force) refuseExisting(existing);

    const staging = `${folder}.restoring`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true, mode: 0o700 });
    const files = restoreFiles(options.config, media);
    let databaseInPlace = false;
    // The database goes in place before the first entry after it (its entries come first).
    const putDatabaseInPlace = async () => {
      if (databaseInPlace) return;
      databaseInPlace = true;
      log('Opening the restored database once');
      await checkOpens(staging, manifest.database.migrations);
      const replaced = `${folder}.replaced`;
      await rm(replaced, { recursive: true, force: true });
      if (existsSync(folder)) await rename(folder, replaced);
      await rename(staging, folder);
      await rm(replaced, { recursive: true, force: true });
      log('Restoring the media');
    };

    log('Restoring the database');
    await readArchive(
      file,
      async (entry) => {
        const prefix = 'database/pglite';
        if (entry.path === 'database' || entry.path === prefix) return;
        if (entry.path.startsWith(`${prefix}/`)) {
          const target = path.join(staging, ...entry.path.slice(prefix.length + 1).split('/'));
          if (entry.type === 'directory') await mkdir(target, { recursive: true, mode: 0o700 });
          // Synced: a database restored and reported done must survive a power cut.
          else await pipeline(entry.data(), createWriteStream(target, { mode: 0o600, flush: true }));
          return;
        }
        await putDatabaseInPlace();
        await files.apply(entry);
      },
      manifest,
    );
    await putDatabaseInPlace();
    const mediaRemoved = await removeMediaNotIn(media, before, files.written);
    return { replaced: existing.length > 0, mediaRemoved, ...files.counts };
  } finally {
    lock.release();
  }
}
