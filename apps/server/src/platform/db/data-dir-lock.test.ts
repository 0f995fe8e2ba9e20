import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, lockFileOf, processStartTime, type LockHolder } from './data-dir-lock.js';

/**
 * Issue 28 defect 8: one process per embedded database folder. The lock file, its
 * take-over when the holder is gone (dead pid, a pid given to another process, a
 * holder elsewhere that stopped refreshing it), and two starters racing over one
 * abandoned lock, in real processes.
 */

const moduleFile = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));
const folder = () => path.join(mkdtempSync(path.join(tmpdir(), 'atende-lock-')), 'pglite');

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function writeLock(dir: string, holder: Partial<LockHolder>): void {
  const full: LockHolder = {
    pid: deadPid(),
    startTime: null,
    host: hostname(),
    pidNamespace: existsSync('/proc/self/ns/pid') ? spawnSync('readlink', ['/proc/self/ns/pid'], { encoding: 'utf8' }).stdout.trim() : null,
    token: 'someone-else',
    since: '2026-01-01T00:00:00.000Z',
    ...holder,
  };
  writeFileSync(lockFileOf(dir), JSON.stringify(full));
}

const holderOf = (dir: string) => JSON.parse(readFileSync(lockFileOf(dir), 'utf8')) as LockHolder;

describe('the embedded database folder lock', () => {
  it('is held by one taker at a time, with its pid, and released only by it', () => {
    const dir = folder();
    const lock = lockDataDir(dir);
    expect(holderOf(dir)).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*pid ${process.pid}`));
    lock.release();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    const again = lockDataDir(dir);
    lock.release(); // a second release of an old lock leaves the new holder alone
    expect(existsSync(lockFileOf(dir))).toBe(true);
    again.release();
  });

  it('refuses a lock whose holder is alive (another process of this machine)', () => {
    const dir = folder();
    const startTime = processStartTime(process.ppid);
    writeLock(dir, { pid: process.ppid, startTime });
    let error: unknown;
    try {
      lockDataDir(dir);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`pid ${process.ppid}`);
    expect((error as Error).message).toContain(dir);
  });

  it('takes over a lock whose holder died', () => {
    const dir = folder();
    writeLock(dir, {});
    const lock = lockDataDir(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (started at another time)', () => {
    const dir = folder();
    // The parent is alive, but it is not the process that wrote this lock: that one started at tick 1.
    writeLock(dir, { pid: process.ppid, startTime: '1' });
    const lock = lockDataDir(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('from another machine (a shared volume): refused while refreshed, taken over once abandoned', () => {
    const dir = folder();
    writeLock(dir, { pid: process.ppid, host: 'another-host', pidNamespace: null });
    expect(() => lockDataDir(dir)).toThrow(/pid \d+ on another-host/);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(lockFileOf(dir), twoMinutesAgo, twoMinutesAgo);
    const lock = lockDataDir(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('gets past a take-over left half-done by a process killed while taking over', () => {
    const dir = folder();
    writeLock(dir, {});
    const staleLock = readFileSync(lockFileOf(dir));
    // The take-over file is named after the content it replaces; its taker is dead too.
    const id = createHash('sha256').update(staleLock).digest('hex').slice(0, 32);
    writeFileSync(`${lockFileOf(dir)}.takeover-${id}`, JSON.stringify({ pid: deadPid(), startTime: null, host: hostname(), pidNamespace: holderOf(dir).pidNamespace, token: 'killed-taker', since: '' }));
    const lock = lockDataDir(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    expect(existsSync(`${lockFileOf(dir)}.takeover-${id}`)).toBe(false);
    lock.release();
  });

  it('a starter that found the lock abandoned does not remove the lock another starter took meanwhile', () => {
    const dir = folder();
    writeLock(dir, {});
    let first: ReturnType<typeof lockDataDir> | undefined;
    // Between this starter's look (abandoned) and its move, another one takes the lock over.
    expect(() => lockDataDir(dir, { beforeTakeOver: () => (first ??= lockDataDir(dir)) })).toThrow(DataDirLockedError);
    expect(first).toBeDefined();
    // The lock there is still the first starter's: releasing it removes it.
    expect(existsSync(lockFileOf(dir))).toBe(true);
    first?.release();
    expect(existsSync(lockFileOf(dir))).toBe(false);
  });

  it('of six processes racing over one abandoned lock, exactly one wins; the others name it', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = folder();
      writeLock(dir, {});
      const startAt = Date.now() + 3000;
      // Each process loads the module, waits for the same instant and tries, pausing between its look at the
      // abandoned lock and its move so the others act meanwhile; the winner holds on until the test ends it.
      const script = `
        import { lockDataDir } from ${JSON.stringify(moduleFile)};
        while (Date.now() < ${startAt}) {}
        const pause = () => { const until = Date.now() + 300; while (Date.now() < until) {} };
        try { lockDataDir(${JSON.stringify(dir)}, { beforeTakeOver: pause }); console.log('won ' + process.pid); setInterval(() => {}, 1000); }
        catch (error) { console.log('refused ' + error.message); }`;
      const children: ChildProcess[] = [];
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => {
          const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
          children.push(child);
          let output = '';
          child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
          return new Promise<string>((resolve) => {
            child.stdout?.on('data', (chunk: Buffer) => {
              output += chunk.toString();
              if (output.includes('\n')) resolve(output.trim());
            });
            child.on('exit', () => resolve(output.trim()));
          });
        }),
      );
      for (const child of children) child.kill('SIGKILL');
      const winners = outcomes.filter((line) => line.startsWith('won '));
      expect(winners, outcomes.join('\n')).toHaveLength(1);
      const winnerPid = winners[0]!.slice(4);
      for (const line of outcomes.filter((outcome) => !outcome.startsWith('won '))) {
        expect(line).toMatch(new RegExp(`^refused .*pid ${winnerPid}\\b`));
      }
    }
  }, 90_000);
});
