import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { login, MIGRATE_SCRIPT, spawnServer, startServer, type RunningServer, type ServerProcess } from './test/data-dir-process.js';

/**
 * Issue 28 defect 8: two processes could open one embedded database at once. Real
 * processes on one DATA_DIR: the second start (and `npm run db:migrate`) exits at
 * once naming the folder and the holder's pid while the first keeps serving; after
 * kill -9 of the holder a new start takes the lock over and its database opens; a
 * clean stop removes the lock.
 */

const ADMIN = { email: 'lock@example.com', password: 'Lock12345!' };
const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-lock-process-'));
const folder = path.join(dataDir, 'pglite');
const lockFile = `${folder}.lock`;
/** "At once": it does not wait for the holder. Bounded generously, for a loaded machine (loading the sources takes most of it). */
const REFUSED_WITHIN_MS = 45_000;

const started: ServerProcess[] = [];
afterAll(() => {
  for (const process of started) if (process.child.exitCode === null) process.child.kill('SIGKILL');
});

async function start(): Promise<RunningServer> {
  const server = await startServer(dataDir, env);
  started.push(server);
  return server;
}

/** A process that must not get the database: its exit code, how long it took, what it said. */
async function refused(script?: string): Promise<{ code: number | null; ms: number; output: string }> {
  const startedAt = Date.now();
  const process = spawnServer(dataDir, env, script);
  started.push(process);
  const timeout = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), REFUSED_WITHIN_MS).unref());
  const code = await Promise.race([process.exited, timeout]);
  if (code === 'still running') process.child.kill('SIGKILL');
  return { code: code === 'still running' ? -1 : code, ms: Date.now() - startedAt, output: process.output() };
}

const holderPid = () => (JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number }).pid;

let first: RunningServer;
let third: RunningServer;

describe('one process per embedded database (the real process)', () => {
  it('a second start on the same DATA_DIR exits at once, non-zero, naming the folder and the first one\'s pid; the first keeps serving', async () => {
    first = await start();

    const second = await refused();
    expect(second.code, second.output).not.toBe(0);
    expect(second.code, second.output).not.toBe(-1);
    expect(second.output).not.toContain('Atende is running');
    expect(second.output).toContain(folder);
    expect(second.output).toContain(`pid ${first.child.pid}`);

    // So does `npm run db:migrate`.
    const migrate = await refused(MIGRATE_SCRIPT);
    expect(migrate.code, migrate.output).toBe(1);
    expect(migrate.output).toContain(folder);
    expect(migrate.output).toContain(`pid ${first.child.pid}`);

    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    expect((await login(first.url, ADMIN)).status).toBe(200);
    expect(holderPid()).toBe(first.child.pid);
  }, 120_000);

  it('after kill -9 of the holder, a new start takes the lock over and serves; its database opens (log in)', async () => {
    first.child.kill('SIGKILL');
    await first.exited;
    // The dead holder could not remove its lock.
    expect(holderPid()).toBe(first.child.pid);

    third = await start();
    expect(holderPid()).toBe(third.child.pid);
    const session = await login(third.url, ADMIN);
    expect(session.status).toBe(200);
    const me = await fetch(`${third.url}/auth/me`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(me.status).toBe(200);
  }, 120_000);

  it('a clean stop (SIGTERM) removes the lock', async () => {
    third.child.kill('SIGTERM');
    expect(await third.exited, third.output()).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  }, 60_000);
});
