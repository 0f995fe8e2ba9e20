import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../platform/config.js';
import { openDatabase } from '../../platform/db/client.js';
import { DataDirLockedError } from '../../platform/db/data-dir-lock.js';
import { ownSnapshotFolder, requestSnapshot, SnapshotRequestError, type TakenSnapshot } from '../../platform/db/embedded-snapshot.js';
import { embeddedDatabaseFolder } from '../../platform/db/open-at-start.js';
import { createConfiguredMediaStore } from '../../platform/storage/configured-media-store.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { ArchiveWriter, newHeader, type BackupHeader, type Manifest } from './archive.js';
import { dumpPostgres } from './postgres.js';

/**
 * `npm run backup`: the database (one consistent snapshot) and then the media, in one
 * archive (archive.ts), while the server runs. docs/operations.md "Backups" says how.
 */

/** The install's media, as files by key: the folder or the bucket MEDIA_STORAGE names. */
export function mediaFilesOf(config: Parameters<typeof createConfiguredMediaStore>[0]): MediaStore {
  return createConfiguredMediaStore(config);
}

export function secretsFileOf(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'secrets.json');
}

/** A backup that cannot be made as asked, said without a stack trace. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

export interface BackupOptions {
  config: Pick<Config, 'DATABASE_URL'> & Parameters<typeof createConfiguredMediaStore>[0];
  out: string;
  /** Folder of pg_dump (else Debian's versioned folders, then PATH). */
  pgBin?: string;
  /** How long a running server has to answer (embedded database). */
  pickUpMs?: number;
  log?: (line: string) => void;
}

export interface BackupSummary {
  file: string;
  manifest: Manifest;
  archiveBytes: number;
  /** How the embedded database was copied (by the running server, or opened here), and how long its statements waited; null on PostgreSQL. */
  embeddedCopy: { by: 'server' | 'here'; pausedMs: number } | null;
  /** Media files listed but gone before they were read (removed meanwhile). */
  mediaGone: number;
  seconds: { database: number; total: number };
}

interface DatabaseSnapshot {
  database: BackupHeader['database'];
  /** Adds the database's entries to the archive. */
  write(archive: ArchiveWriter): Promise<void>;
  remove(): Promise<void>;
}

async function* readFile(file: string): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield chunk as Buffer;
}

async function postgresSnapshot(url: string, workFile: string, pgBin: string | undefined): Promise<DatabaseSnapshot> {
  const dump = await dumpPostgres(url, workFile, { binDir: pgBin });
  return {
    database: { kind: 'postgres', serverVersion: dump.serverVersion, snapshotAt: dump.snapshotAt, migrations: dump.migrations },
    async write(archive) {
      await archive.addDirectory('database');
      await archive.addFile('database/postgres.sql', readFile(workFile), (await stat(workFile)).size);
    },
    remove: () => rm(workFile, { force: true }),
  };
}

/**
 * A consistent copy of the embedded database: taken here when no process holds it, else
 * asked of the process that does (the running server; platform/db/embedded-snapshot.ts).
 */
async function copyEmbeddedDatabase(dataDir: string, pickUpMs: number | undefined, log: (line: string) => void): Promise<{ snapshot: TakenSnapshot; by: 'server' | 'here' }> {
  const folder = embeddedDatabaseFolder(dataDir);
  if (!existsSync(path.join(folder, 'PG_VERSION'))) throw new BackupRefusedError(`There is no embedded database in ${folder} (DATABASE_URL is unset): nothing to back up.`);
  for (let attempt = 0; ; attempt++) {
    try {
      const database = await openDatabase({ dataDir: folder });
      try {
        const target = await ownSnapshotFolder(folder);
        try {
          const info = await database.snapshot!(target);
          return { snapshot: { folder: target, info, remove: () => rm(target, { recursive: true, force: true }) }, by: 'here' };
        } catch (error) {
          await rm(target, { recursive: true, force: true });
          throw error;
        }
      } finally {
        await database.close();
      }
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      log(`The embedded database is in use by pid ${error.holder.pid}: asking it for a copy`);
    }
    try {
      return { snapshot: await requestSnapshot(folder, { pickUpMs }), by: 'server' };
    } catch (error) {
      // The server stopped between our look and its answer: the database may be opened here now.
      if (!(error instanceof SnapshotRequestError && error.holderStopped) || attempt >= 2) throw error;
    }
  }
}

async function* filesUnder(root: string, prefix = ''): AsyncGenerator<{ relative: string; directory: boolean }> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      yield { relative, directory: true };
      yield* filesUnder(root, relative);
    } else if (entry.isFile()) {
      yield { relative, directory: false };
    }
  }
}

async function embeddedSnapshot(dataDir: string, pickUpMs: number | undefined, log: (line: string) => void): Promise<DatabaseSnapshot & { by: 'server' | 'here'; pausedMs: number }> {
  const { snapshot, by } = await copyEmbeddedDatabase(dataDir, pickUpMs, log);
  const { info } = snapshot;
  const copy = path.join(snapshot.folder, 'database');
  return {
    by,
    pausedMs: info.pausedMs,
    database: { kind: 'pglite', serverVersion: info.serverVersion, snapshotAt: info.takenAt, migrations: info.migrations },
    async write(archive) {
      await archive.addDirectory('database');
      await archive.addDirectory('database/pglite');
      for await (const file of filesUnder(copy)) {
        const name = `database/pglite/${file.relative}`;
        if (file.directory) await archive.addDirectory(name);
        else await archive.addFile(name, readFile(path.join(copy, file.relative)), (await stat(path.join(copy, file.relative))).size);
      }
    },
    remove: snapshot.remove,
  };
}

/**
 * Writes the archive to `<out>.partial` and renames it `out` once complete and synced, so
 * that `out` is never a half-written archive (a schedule's retention may count on it).
 */
export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  const log = options.log ?? (() => undefined);
  const out = path.resolve(options.out);
  const partial = `${out}.partial`;
  for (const inside of [path.join(options.config.DATA_DIR, 'media'), embeddedDatabaseFolder(options.config.DATA_DIR)]) {
    if (out.startsWith(`${path.resolve(inside)}${path.sep}`)) throw new BackupRefusedError(`--out ${out} is inside ${inside}, which the backup copies: write it elsewhere.`);
  }
  await mkdir(path.dirname(out), { recursive: true });
  const startedAt = Date.now();
  let embeddedCopy: BackupSummary['embeddedCopy'] = null;
  const { DATABASE_URL: url, DATA_DIR: dataDir } = options.config;

  log(url ? 'Dumping the PostgreSQL database (pg_dump, one snapshot)' : 'Copying the embedded database');
  let snapshot: DatabaseSnapshot;
  if (url) {
    snapshot = await postgresSnapshot(url, `${out}.${randomBytes(4).toString('hex')}.sql.tmp`, options.pgBin);
  } else {
    const taken = await embeddedSnapshot(dataDir, options.pickUpMs, log);
    embeddedCopy = { by: taken.by, pausedMs: taken.pausedMs };
    snapshot = taken;
  }
  const databaseSeconds = (Date.now() - startedAt) / 1000;
  let archive: ArchiveWriter | undefined;
  let mediaGone = 0;
  try {
    archive = await ArchiveWriter.create(partial, newHeader(snapshot.database));
    await snapshot.write(archive);
    await snapshot.remove();

    const secrets = secretsFileOf(options.config);
    if (existsSync(secrets)) await archive.addFile('secrets.json', readFile(secrets));

    // After the database's snapshot: every file a row of it names was written before the row
    // (a file is stored, then its row), so it is here unless removed since (docs: Backups).
    log('Copying the media');
    const media = mediaFilesOf(options.config);
    await archive.addDirectory('media');
    for await (const { key } of media.list('')) {
      const file = await media.get(key);
      if (!file) {
        mediaGone += 1;
        continue;
      }
      await archive.addFile(`media/${key}`, file.stream, file.size);
    }
    const manifest = await archive.finish();
    await rename(partial, out);
    return {
      file: out,
      manifest,
      archiveBytes: (await stat(out)).size,
      embeddedCopy,
      mediaGone,
      seconds: { database: databaseSeconds, total: (Date.now() - startedAt) / 1000 },
    };
  } catch (error) {
    await archive?.abort();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await snapshot.remove();
  }
}
