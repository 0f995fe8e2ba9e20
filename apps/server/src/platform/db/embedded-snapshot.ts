import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { z } from 'zod';
import { freeSpace } from '../storage/disk-space.js';
import { lockFileOf } from './data-dir-lock.js';
import { appliedMigrationLevel, MigrationLevel } from './migrations.js';

/**
 * Consistent copies of the embedded database (`npm run backup`, docs/operations.md "Backups").
 *
 * A copy is the database folder's files taken inside a PGlite transaction: PGlite runs one
 * statement at a time and a transaction holds it for itself, so while the files are copied
 * no statement of any request, job or timer runs (they wait, then go on), and the copy is
 * the state of one instant. A CHECKPOINT first writes every committed change into the data
 * files, so the copy opens without replaying the log.
 *
 * Only one process may open the folder (data-dir-lock.ts), so a backup taken while the
 * server runs asks the server for the copy, through files in `<folder>.backups/`:
 * 1. the backup writes `<id>.request` (whole, by rename);
 * 2. the holder, which looks every second, claims it (renames it `<id>.taking`), copies the
 *    database into `<id>.partial/` with `snapshot.json`, and renames that folder `<id>/`;
 *    a copy that failed leaves `<id>.failed` with the reason;
 * 3. the backup archives `<id>/` and removes it.
 * The file system is the authentication: whoever may write in DATA_DIR may read the
 * database files anyway. A request names nothing but its id, so the holder only ever
 * writes inside this folder. What a killed backup left is removed after an hour.
 */

export const SnapshotInfo = z.object({
  takenAt: z.string(),
  /** PostgreSQL's version inside PGlite (`show server_version`). */
  serverVersion: z.string(),
  migrations: MigrationLevel,
  /** How long statements waited for the copy (ms): the server's pause. */
  pausedMs: z.number(),
});
export type SnapshotInfo = z.infer<typeof SnapshotInfo>;

/** Files of the database folder that belong to the running instance, not to its data. */
const RUNTIME_FILES = new Set(['postmaster.pid', 'postmaster.opts']);
/** Room left in DATA_DIR beyond the copy itself. */
const SPACE_MARGIN = 64 * 1024 * 1024;
const POLL_MS = 1000;
const ABANDONED_AFTER_MS = 3600_000;
const ID = /^[0-9a-f]{32}$/;

/** Where the requests and copies of the database in `databaseFolder` live: beside it, like its lock. */
export function snapshotsFolderOf(databaseFolder: string): string {
  return `${path.resolve(databaseFolder)}.backups`;
}

async function folderSize(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/**
 * The copy of `databaseFolder` into `target/database`, with `target/snapshot.json`, taken while
 * `client` (the database opened on that folder) runs nothing else.
 */
export async function takeSnapshot(client: Pick<PGlite, 'transaction'>, databaseFolder: string, target: string): Promise<SnapshotInfo> {
  const needed = (await folderSize(databaseFolder)) + SPACE_MARGIN;
  const free = await freeSpace(target);
  if (free < needed) {
    throw new Error(`not enough space for a copy of the embedded database: it needs ${Math.ceil(needed / 2 ** 20)} MB free beside it, ${Math.floor(free / 2 ** 20)} MB are`);
  }
  await mkdir(target, { recursive: true });
  const info = await client.transaction(async (tx) => {
    const pausedAt = Date.now();
    await tx.exec('CHECKPOINT');
    const migrations = await appliedMigrationLevel((text) => tx.query<Record<string, unknown>>(text));
    const version = await tx.query<{ server_version: string }>('show server_version');
    await cp(databaseFolder, path.join(target, 'database'), {
      recursive: true,
      // A clone where the file system can (btrfs, XFS), a copy elsewhere.
      mode: constants.COPYFILE_FICLONE,
      filter: (source) => !RUNTIME_FILES.has(path.basename(source)),
    });
    return { takenAt: new Date().toISOString(), serverVersion: version.rows[0]?.server_version ?? 'unknown', migrations, pausedMs: Date.now() - pausedAt };
  });
  await writeFile(path.join(target, 'snapshot.json'), JSON.stringify(info));
  return info;
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

async function writeWhole(file: string, content: string): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode: 0o644 });
  await rename(temporary, file);
}

/**
 * Answers backup requests for the database in `databaseFolder` (the process holding its lock
 * calls this); `take` copies it. Returns the function that stops answering.
 */
export function serveSnapshotRequests(databaseFolder: string, take: (target: string) => Promise<SnapshotInfo>): () => void {
  const folder = snapshotsFolderOf(databaseFolder);
  const inProgress = new Set<string>();
  let scanning = false;

  const answer = async (id: string) => {
    const claimed = path.join(folder, `${id}.taking`);
    try {
      await rename(path.join(folder, `${id}.request`), claimed);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return; // withdrawn meanwhile
      throw error;
    }
    inProgress.add(id);
    const partial = path.join(folder, `${id}.partial`);
    try {
      await take(partial);
      await rename(partial, path.join(folder, id));
    } catch (error) {
      await rm(partial, { recursive: true, force: true }).catch(() => undefined);
      await writeWhole(path.join(folder, `${id}.failed`), JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    } finally {
      inProgress.delete(id);
      await rm(claimed, { force: true });
    }
  };

  const removeAbandoned = async (names: string[]) => {
    for (const name of names) {
      if (inProgress.has(name.split('.')[0] ?? '')) continue;
      const entry = path.join(folder, name);
      const info = await stat(entry).catch(() => null);
      if (info && Date.now() - info.mtimeMs > ABANDONED_AFTER_MS) await rm(entry, { recursive: true, force: true });
    }
  };

  const scan = async () => {
    if (scanning) return;
    scanning = true;
    try {
      const names = await readdir(folder).catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT') return [];
        throw error;
      });
      for (const name of names) {
        const id = name.slice(0, -'.request'.length);
        if (name.endsWith('.request') && ID.test(id)) await answer(id);
      }
      await removeAbandoned(names);
    } catch {
      // A passing file system error: the next look tries again.
    } finally {
      scanning = false;
    }
  };

  // Made by the holder, so that the holder may write in it whoever sends requests.
  void mkdir(folder, { recursive: true, mode: 0o700 }).catch(() => undefined);
  const timer = setInterval(() => void scan(), POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export interface TakenSnapshot {
  /** Holds `database/` (the copy of the database folder) and `snapshot.json`. */
  folder: string;
  info: SnapshotInfo;
  remove(): Promise<void>;
}

/** Reads a copy made by `takeSnapshot` into `folder`. */
async function readSnapshot(folder: string): Promise<TakenSnapshot> {
  const info = SnapshotInfo.parse(JSON.parse(await readFile(path.join(folder, 'snapshot.json'), 'utf8')));
  return { folder, info, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** A folder for a copy this process takes itself (no server holds the database). */
export async function ownSnapshotFolder(databaseFolder: string): Promise<string> {
  const folder = path.join(snapshotsFolderOf(databaseFolder), `${randomBytes(16).toString('hex')}.own`);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return folder;
}

export class SnapshotRequestError extends Error {
  constructor(
    message: string,
    /** The holder stopped: the database may now be opened by whoever asked. */
    readonly holderStopped = false,
  ) {
    super(message);
    this.name = 'SnapshotRequestError';
  }
}

/**
 * Asks the process holding the database in `databaseFolder` for a copy, and waits for it.
 * Fails when nobody claims the request within `pickUpMs` (the holder is not a server of a
 * version that answers), when the copy failed, or when the holder stopped meanwhile.
 */
export async function requestSnapshot(databaseFolder: string, options: { pickUpMs?: number } = {}): Promise<TakenSnapshot> {
  const folder = snapshotsFolderOf(databaseFolder);
  const lockFile = lockFileOf(databaseFolder);
  const id = randomBytes(16).toString('hex');
  const request = path.join(folder, `${id}.request`);
  const failed = path.join(folder, `${id}.failed`);
  const done = path.join(folder, id);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeWhole(request, JSON.stringify({ requestedAt: new Date().toISOString(), pid: process.pid, host: hostname() }));
  const pickUpBy = Date.now() + (options.pickUpMs ?? 30_000);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (existsSync(path.join(done, 'snapshot.json'))) return readSnapshot(done);
    if (existsSync(failed)) {
      const reason = z.object({ error: z.string() }).safeParse(JSON.parse(await readFile(failed, 'utf8').catch(() => '{}')));
      await rm(failed, { force: true });
      throw new SnapshotRequestError(`The running server could not copy the embedded database: ${reason.success ? reason.data.error : 'no reason given'}`);
    }
    if (existsSync(request) && Date.now() > pickUpBy) {
      try {
        await unlink(request);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') continue; // claimed just now
        throw error;
      }
      throw new SnapshotRequestError(
        `The process holding ${databaseFolder} (see ${lockFile}) did not answer the backup request within ${Math.round((options.pickUpMs ?? 30_000) / 1000)} s. ` +
          'Is it an Atende server of this version? Stop it and run the backup again, or upgrade it.',
      );
    }
    if (!existsSync(lockFile)) {
      await unlink(request).catch(() => undefined);
      throw new SnapshotRequestError(`The server holding ${databaseFolder} stopped before it copied the database.`, true);
    }
  }
}
