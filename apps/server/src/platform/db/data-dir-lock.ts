import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One process at a time on an embedded database folder (issue 28 defect 8): two PGlite
 * instances writing one folder corrupt it. The lock is a file beside the folder
 * (`<folder>.lock`) holding the holder's pid, the start time of that pid (so a pid the
 * system gave to another process since is not mistaken for the holder), its host and
 * pid namespace, and a random token.
 *
 * Every file here appears whole and at once: it is written under a temporary name and
 * hard-linked to its real name, which fails when that name exists. A lock whose holder
 * is gone is removed only by whoever creates its take-over file
 * (`<lock>.takeover-<id of that lock's content>`) first, and only after checking the lock
 * still has that content; so of two processes racing over one abandoned lock, one
 * removes it and the other finds the winner's fresh lock. A take-over file left by a
 * process killed while taking over is itself taken over the same way.
 */

/** A holder on another machine (a shared volume) refreshes its lock's mtime this often... */
const HEARTBEAT_MS = 10_000;
/** ...and its lock counts as abandoned once not refreshed for this long. */
const ABANDONED_AFTER_MS = 60_000;
/** A lock file without readable content (a file system without hard links, mid-write) is given this long to be completed. */
const INCOMPLETE_GRACE_MS = 2_000;

export interface LockHolder {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot); null where /proc is absent. */
  startTime: string | null;
  host: string;
  /** `/proc/self/ns/pid`: two containers sharing the folder have different pid namespaces. */
  pidNamespace: string | null;
  token: string;
  since: string;
}

interface LockFile {
  /** Identifies this very generation of the file (the hash of its bytes). */
  id: string;
  holder: LockHolder | null;
  mtimeMs: number;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
    super(
      `The embedded database in ${folder} is in use by another Atende process (pid ${holder.pid}${where}, since ${holder.since}). ` +
        'Stop that process first, or start this one with another DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock if it is still ours. Synchronous, so it also runs from an exit handler. */
  release(): void;
}

export function lockFileOf(folder: string): string {
  return `${path.resolve(folder)}.lock`;
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** Tokens of the locks this process holds. */
const heldHere = new Set<string>();

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses). */
export function processStartTime(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function pidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function describeSelf(): LockHolder {
  return {
    pid: process.pid,
    startTime: processStartTime('self'),
    host: hostname(),
    pidNamespace: pidNamespace(),
    token: randomBytes(16).toString('hex'),
    since: new Date().toISOString(),
  };
}

function readLockFile(file: string): LockFile | null {
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    bytes = readFileSync(file);
    mtimeMs = statSync(file).mtimeMs;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  let holder: LockHolder | null = null;
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.token === 'string') holder = parsed as LockHolder;
  } catch {
    holder = null;
  }
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 32), holder, mtimeMs };
}

/** Whether the process named in a lock (or take-over) file still holds it. */
function stillHeld(lock: LockFile, me: LockHolder): boolean {
  const { holder } = lock;
  if (!holder) return Date.now() - lock.mtimeMs < INCOMPLETE_GRACE_MS;
  const sameMachine = holder.host === me.host && holder.pidNamespace === me.pidNamespace;
  if (!sameMachine) return Date.now() - lock.mtimeMs < ABANDONED_AFTER_MS;
  // Our own pid: held if this process took it (a second open in one process), else a previous run
  // that had the same pid (a restarted container's pid 1).
  if (holder.pid === me.pid) return heldHere.has(holder.token);
  if (!pidAlive(holder.pid)) return false;
  const startTime = processStartTime(holder.pid);
  // Alive, but started at another time: the system gave the dead holder's pid to some other process.
  return !(holder.startTime && startTime && holder.startTime !== startTime);
}

/** Creates `file` with `content`, whole and at once; false when it exists. */
function createExclusive(file: string, content: string): boolean {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, content, { flag: 'wx', mode: 0o644 });
    linkSync(temporary, file);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  } finally {
    unlinkQuietly(temporary);
  }
  // No hard links on this file system: an exclusive create, whose content readers may briefly find incomplete.
  try {
    writeFileSync(file, content, { flag: 'wx', mode: 0o644 });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // Created but not written whole (a full disk): not a lock anybody holds.
    try {
      unlinkSync(file);
    } catch {
      // never created
    }
    throw error;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/**
 * Removes the abandoned `stale` generation of `file`, unless someone else does first.
 * Returns when `file` no longer holds that generation (removed by us or another taker).
 */
function removeAbandoned(file: string, stale: LockFile, me: LockHolder, content: string, depth = 0): void {
  if (depth > 8) throw new Error(`cannot take over ${file}: too many abandoned take-overs`);
  const guard = `${file}.takeover-${stale.id}`;
  for (let attempt = 0; attempt < 500; attempt++) {
    if (createExclusive(guard, content)) {
      try {
        if (readLockFile(file)?.id === stale.id) unlinkSync(file);
      } finally {
        unlinkQuietly(guard);
      }
      return;
    }
    const taker = readLockFile(guard);
    if (!taker) return;
    if (stillHeld(taker, me)) {
      // Another process is taking it over right now: wait for it, then look at its result.
      sleepSync(10);
      if (readLockFile(file)?.id !== stale.id) return;
      continue;
    }
    removeAbandoned(guard, taker, me, content, depth + 1);
  }
  throw new Error(`cannot take over ${file}: another process keeps its take-over file`);
}

/** Temporary files of processes killed between writing and linking them. */
function sweepTemporaries(file: string): void {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    try {
      if (Date.now() - statSync(path.join(dir, name)).mtimeMs > ABANDONED_AFTER_MS) unlinkSync(path.join(dir, name));
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Takes the lock of an embedded database folder, or throws `DataDirLockedError`
 * naming the live holder. A lock whose holder died (killed, crashed, the machine
 * restarted) is taken over.
 */
export function lockDataDir(folder: string, options: { beforeTakeOver?: () => void } = {}): DataDirLock {
  const file = lockFileOf(folder);
  mkdirSync(path.dirname(file), { recursive: true });
  const me = describeSelf();
  const content = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (createExclusive(file, content)) {
      sweepTemporaries(file);
      return hold(file, me);
    }
    const current = readLockFile(file);
    if (!current) continue;
    if (stillHeld(current, me)) {
      if (current.holder) throw new DataDirLockedError(path.resolve(folder), current.holder);
      // Being written by a process on a file system without hard links.
      sleepSync(50);
      continue;
    }
    // (Tests widen the race here: another starter may take the lock over between our look and our move.)
    options.beforeTakeOver?.();
    removeAbandoned(file, current, me, content);
  }
  throw new Error(`cannot take the lock ${file}: it keeps changing`);
}

function hold(file: string, me: LockHolder): DataDirLock {
  heldHere.add(me.token);
  const ours = () => readLockFile(file)?.holder?.token === me.token;
  // For holders on other machines sharing the folder, which cannot see our pid.
  const heartbeat = setInterval(() => {
    try {
      if (!ours()) {
        process.stderr.write(`Warning: the lock ${file} was removed or taken by another process\n`);
        clearInterval(heartbeat);
        return;
      }
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // A passing file system error; the next beat tries again.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(me.token);
    clearInterval(heartbeat);
    process.off('exit', release);
    try {
      if (ours()) unlinkSync(file);
    } catch {
      // Left behind, it is taken over by the next start (its pid is gone).
    }
  };
  // process.exit() from anywhere (a fatal error, the shutdown deadline) still releases it.
  process.on('exit', release);
  return { file, release };
}
