import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { someErrorInChain } from '../error-chain.js';

/**
 * A full disk (issue 28 defect 9): every write that fails for lack of space is
 * recognised here, answered 507 `ERR_STORAGE_FULL`, reported by `/health`, and
 * refused at start-up with a sentence that names the folder.
 *
 * What each layer says when it runs out of space:
 * - Node's file system: `ENOSPC` (disk) or `EDQUOT` (quota).
 * - PostgreSQL, and PGlite (which writes its files through as it goes): SQLSTATE 53100
 *   `could not extend file "base/...": No space left on device`, wrapped by drizzle in
 *   `cause`. The transaction fails; the database goes on.
 * - PGlite opening its folder, checkpointing or closing on a full disk: its WebAssembly
 *   aborts (`RuntimeError: unreachable` or `Aborted()`), and that instance is dead
 *   (`platform/db/client.ts` opens the folder again).
 */

const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
const NO_SPACE_MESSAGES = ['No space left on device', 'Disk quota exceeded', 'could not extend file'];

function matches(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NO_SPACE_CODES.has(code)) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && NO_SPACE_MESSAGES.some((text) => message.includes(text));
}

/** Whether an error (or one it wraps) means a write failed for lack of space. */
export function isNoSpaceError(error: unknown): boolean {
  return someErrorInChain(error, matches);
}

/** The WebAssembly of PGlite aborted (what a full disk does to it at open, checkpoint or close). */
export function isWasmAbort(error: unknown): boolean {
  // WebAssembly.RuntimeError, by name: the server's type library does not declare WebAssembly.
  return error instanceof Error && error.name === 'RuntimeError';
}

const MB = 1024 * 1024;

function toMb(bytes: number): number {
  return Math.floor(bytes / MB);
}

/** Bytes an unprivileged writer may still use where `dir` lives (the nearest existing folder up). */
export async function freeSpace(dir: string): Promise<number> {
  let existing = path.resolve(dir);
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const stats = await statfs(existing);
  return Number(stats.bavail) * Number(stats.bsize);
}

/**
 * Whether `bytes` can really be written in `dir` now: a file is written, synced and
 * removed. For what statfs cannot tell (a quota, a file system that reports free space
 * it will not give).
 */
export async function canWrite(dir: string, bytes = 64 * 1024): Promise<boolean> {
  const probe = path.join(dir, `.space-probe-${randomBytes(6).toString('hex')}`);
  try {
    const handle = await open(probe, 'wx', 0o600);
    try {
      await handle.writeFile(Buffer.alloc(bytes));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (isNoSpaceError(error)) return false;
    throw error;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/**
 * An abort of PGlite's WebAssembly counts as "no space" when DATA_DIR cannot take this
 * much: one of its WAL segments.
 */
export const ROOM_FOR_THE_DATABASE = 1024 * 1024;

/** The sentence an operator reads when DATA_DIR is full: at start-up, in /health. */
function noSpaceSentence(freeBytes: number): string {
  return `no space left in DATA_DIR (${toMb(freeBytes)} MB free)`;
}

/** Start-up refused: DATA_DIR has too little space (or a write of the start-up failed for lack of it). */
export class NoSpaceToStartError extends Error {
  constructor(dataDir: string, freeBytes: number, minFreeMb: number) {
    const why =
      freeBytes < minFreeMb * MB
        ? `${path.resolve(dataDir)} needs at least ${minFreeMb} MB free (DATA_DIR_MIN_FREE_MB)`
        : `a write in ${path.resolve(dataDir)} failed for lack of space`;
    super(`Atende cannot start: ${noSpaceSentence(freeBytes)}: ${why}. Free some space there and start again.`);
    this.name = 'NoSpaceToStartError';
  }
}

/** Throws `NoSpaceToStartError` when DATA_DIR has less than `minFreeMb` free. */
export async function checkSpaceToStart(dataDir: string, minFreeMb: number): Promise<void> {
  const free = await freeSpace(dataDir);
  if (free < minFreeMb * MB) throw new NoSpaceToStartError(dataDir, free, minFreeMb);
}

/**
 * The start-up's failure as the operator should read it: a write that failed for lack
 * of space, or PGlite's WebAssembly aborting on a folder that cannot take a write,
 * becomes `NoSpaceToStartError` instead of the raw SQL or `RuntimeError: unreachable`.
 */
export async function explainStartupFailure(error: unknown, dataDir: string, minFreeMb: number): Promise<unknown> {
  const noSpace = isNoSpaceError(error) || (isWasmAbort(error) && !(await canWrite(dataDir, ROOM_FOR_THE_DATABASE).catch(() => true)));
  return noSpace ? new NoSpaceToStartError(dataDir, await freeSpace(dataDir), minFreeMb) : error;
}

type StorageState = 'ok' | 'full' | 'database_full';

export interface StorageStatus {
  status: StorageState;
  /** Free space in DATA_DIR (the local media folder's, when it is another file system and has less). */
  freeMb: number;
  minFreeMb: number;
  /** Why it is not ok, in a sentence. */
  reason?: string;
}

export interface StorageMonitor {
  readonly minFreeBytes: number;
  /**
   * A write failed for lack of space: in DATA_DIR (files, the embedded database) or, for
   * SQLSTATE 53100 with PostgreSQL, in the database server, whose disk this process cannot see.
   */
  noteNoSpace(error: unknown): void;
  /** Whether `bytes` more can be written to DATA_DIR and still leave the minimum free. */
  hasRoomFor(bytes: number): Promise<boolean>;
  status(): Promise<StorageStatus>;
}

/** A PostgreSQL server that refused a write for lack of space is reported for this long after the last refusal. */
export const DATABASE_FULL_REPORTED_MS = 60_000;

function hasCode(error: unknown, code: string): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if ((current as { code?: unknown }).code === code) return true;
  }
  return false;
}

export function createStorageMonitor(options: {
  dataDir: string;
  minFreeMb: number;
  databaseServer: boolean;
  /** The media folder, when media are kept on this machine (DATA_DIR/media by default); null: in a bucket. */
  mediaDir?: string | null;
  now?: () => number;
}): StorageMonitor {
  const now = options.now ?? Date.now;
  const minFreeBytes = options.minFreeMb * MB;
  const mediaDir = options.mediaDir === undefined ? path.join(options.dataDir, 'media') : options.mediaDir;
  const dirs = mediaDir === null ? [options.dataDir] : [options.dataDir, mediaDir];
  let dataDirFailedAt: number | null = null;
  let databaseServerFailedAt: number | null = null;

  const free = async () => Math.min(...(await Promise.all(dirs.map((dir) => freeSpace(dir)))));

  return {
    minFreeBytes,
    noteNoSpace(error) {
      if (options.databaseServer && hasCode(error, '53100')) databaseServerFailedAt = now();
      else dataDirFailedAt = now();
    },
    async hasRoomFor(bytes) {
      return (await free()) - bytes >= minFreeBytes;
    },
    async status() {
      const freeBytes = await free();
      const base = { freeMb: toMb(freeBytes), minFreeMb: options.minFreeMb };
      if (freeBytes < minFreeBytes) return { ...base, status: 'full', reason: noSpaceSentence(freeBytes) };
      // A write failed although statfs shows room (a quota, say): it counts until a real write succeeds.
      if (dataDirFailedAt !== null) {
        if (await canWrite(options.dataDir).catch(() => true)) dataDirFailedAt = null;
        else return { ...base, status: 'full', reason: noSpaceSentence(freeBytes) };
      }
      if (databaseServerFailedAt !== null && now() - databaseServerFailedAt < DATABASE_FULL_REPORTED_MS) {
        const seconds = Math.round((now() - databaseServerFailedAt) / 1000);
        return { ...base, status: 'database_full', reason: `the database server refused a write for lack of space ${seconds} s ago` };
      }
      return { ...base, status: 'ok' };
    },
  };
}
