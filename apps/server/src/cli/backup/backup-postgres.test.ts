import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/data-dir-process.js';
import { expectConsistentRestore, filesUnder, photoOf, runCli, serveWithSandbox, startWriters, stopServer, type Query, backupConfig } from '../../test/backup-fixture.js';
import type { RunningServer } from '../../test/data-dir-process.js';
import { usePostgres } from '../../test/test-database.js';
import { DamagedArchiveError, readArchive } from './archive.js';
import { createBackup } from './backup.js';
import { restorePostgres } from './postgres.js';
import { restoreBackup, RestoreRefusedError } from './restore.js';

/**
 * Backups on PostgreSQL with the real server running: pg_dump's one snapshot while
 * customers keep writing, then the media; a restore in one transaction, refused while a
 * server is connected and over existing data without --force. Under `npm run test:pg`.
 */

const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databases: string[] = [];
const servers: RunningServer[] = [];

function urlOf(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function createDatabase(): Promise<string> {
  const name = `atende_test_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  databases.push(name);
  return urlOf(name);
}

async function withClient<T>(url: string, work: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  for (const name of databases) await admin(`drop database if exists ${name} with (force)`);
});

describe.skipIf(!usePostgres)('backup and restore on PostgreSQL', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'atende-backup-pg-'));
  const dataDir = path.join(work, 'data');
  const media = path.join(dataDir, 'media');
  const archive = path.join(work, 'while-writing.tar.gz');
  let url: string;
  let storedBefore: number[];
  let restoredCounts: number[];

  beforeAll(async () => {
    url = await createDatabase();
    const { server, api, whatsappId } = await serveWithSandbox(dataDir, { DATABASE_URL: url });
    servers.push(server);
    const writers = startWriters(api, whatsappId, 3);
    while (writers.stored().some((count) => count < 12)) await new Promise((resolve) => setTimeout(resolve, 50));

    storedBefore = writers.stored();
    const summary = await createBackup({ config: backupConfig(dataDir, url), out: archive });
    const storedAfter = await writers.stop();
    expect(summary.manifest.database).toMatchObject({ kind: 'postgres', serverVersion: expect.stringMatching(/^\d+\.\d+/) });
    expect(summary.manifest.database.migrations.applied).toBeGreaterThan(30);
    expect(summary.manifest.entries.map((entry) => entry.path)).toContain('database/postgres.sql');
    expect(storedAfter.reduce((a, b) => a + b)).toBeGreaterThan(storedBefore.reduce((a, b) => a + b));

    // The server's sessions are connected: a restore is refused and names them.
    const refused = await runCli('restore', ['--from', archive, '--force'], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The database is in use: \d+ from .*A restore while the server runs is refused/);
    await stopServer(server);
  }, 240_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('restores, over changed rows and media, exactly the snapshot (the npm script, with --force, in one transaction)', async () => {
    const removedPhoto = await withClient(url, async (query) => {
      const [photo] = await query(`select media_path from messages where external_id = 'w0-0'`);
      await query(`delete from messages where external_id like 'w1-%'`);
      await query(`update tickets set last_message = 'changed after the backup'`);
      // A table a later migration would have added: the restore replaces the schema whole.
      await query('create table public.added_later (id int)');
      return String(photo?.media_path);
    });
    await unlink(path.join(media, removedPhoto));
    writeFileSync(path.join(media, path.dirname(removedPhoto), 'stray.jpg'), 'not in the archive');

    const withoutForce = await runCli('restore', ['--from', archive], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(withoutForce.code).toBe(1);
    expect(withoutForce.stderr).toMatch(/Refused: the database holds \d+ tables and .*media holds \d+ files\. .*--force/);

    const restored = await runCli('restore', ['--from', archive, '--force'], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Restored: PostgreSQL database of .*replacing what was there/);

    restoredCounts = await withClient(url, async (query) => {
      expect(await query(`select to_regclass('public.added_later') as present`)).toEqual([{ present: null }]);
      return expectConsistentRestore(query, media, storedBefore);
    });
    expect(existsSync(path.join(media, path.dirname(removedPhoto), 'stray.jpg'))).toBe(false);
  }, 180_000);

  it('a restore that fails midway (a damaged dump, an SQL error) leaves the database as it was', async () => {
    const state = () => withClient(url, (query) => query(`select (select count(*)::int from messages) as messages, (select count(*)::int from tickets) as tickets`));
    const before = await state();
    // A changed byte in the archive (a valid gzip and tar) is told by the check of the whole archive, before psql runs.
    const tarBytes = gunzipSync(readFileSync(archive));
    const at = tarBytes.indexOf(Buffer.from('COPY public.messages'));
    tarBytes[at + 2] = tarBytes[at + 2] === 0x58 ? 0x59 : 0x58;
    const damaged = path.join(work, 'damaged.tar.gz');
    writeFileSync(damaged, gzipSync(tarBytes));
    const refused = await runCli('restore', ['--from', damaged, '--force'], { DATA_DIR: dataDir, DATABASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Restore failed: the archive cannot be used: database/postgres.sql differs from its checksum or size in the manifest');

    // Failures while psql runs: the dump's reading fails half-way (damage found at the end of a
    // second reading), or PostgreSQL refuses a statement in the middle. Neither commits anything.
    let dump = Buffer.alloc(0);
    await readArchive(archive, async (entry) => {
      if (entry.path !== 'database/postgres.sql') return;
      const chunks: Buffer[] = [];
      for await (const chunk of entry.data()) chunks.push(chunk);
      dump = Buffer.concat(chunks);
    });
    const version = await withClient(url, (query) => query(`select current_setting('server_version_num')::int / 10000 as major, current_setting('server_version') as version`));
    const target = { replace: true, serverMajor: Number(version[0]?.major), serverVersion: String(version[0]?.version) };
    async function* halfThenDamaged() {
      yield dump.subarray(0, Math.floor(dump.length * 0.6));
      throw new DamagedArchiveError('database/postgres.sql differs from its checksum');
    }
    await expect(restorePostgres(url, halfThenDamaged(), target)).rejects.toBeInstanceOf(DamagedArchiveError);
    expect(await state()).toEqual(before);
    const middle = dump.indexOf(Buffer.from('\nCREATE TABLE public.tickets'));
    const withError = Buffer.concat([dump.subarray(0, middle), Buffer.from('\nselect no_such_column from no_such_table;\n'), dump.subarray(middle)]);
    await expect(restorePostgres(url, (async function* () { yield withError; })(), target)).rejects.toThrow(/psql failed \(exit 3\); nothing was restored: .*no_such_table/s);
    expect(await state()).toEqual(before);
  }, 120_000);

  it('the server starts on the restored database and serves the restored conversations and photos', async () => {
    const [photo] = await withClient(url, (query) => query(`select ticket_id from messages where external_id = 'w0-0'`));
    const { server, api } = await serveWithSandbox(dataDir, { DATABASE_URL: url });
    servers.push(server);
    const count = await call(api, 'GET', '/tickets/count?status=pending&showAll=true');
    expect(count).toEqual({ status: 200, body: { count: restoredCounts.reduce((a, b) => a + b) } });
    const history = await call(api, 'GET', `/messages/${String(photo?.ticket_id)}`);
    const message = (history.body.messages as { body: string; mediaUrl: string | null }[]).find((candidate) => candidate.body === 'photo w0-0');
    const served = await fetch(new URL(message?.mediaUrl ?? '', api.url));
    expect(Buffer.from(await served.arrayBuffer()).equals(photoOf('w0-0'))).toBe(true);
    await stopServer(server);
  }, 120_000);

  it('restores into a new, empty database and DATA_DIR without --force', async () => {
    const fresh = await createDatabase();
    const freshDir = path.join(work, 'fresh');
    const restored = await runCli('restore', ['--from', archive], { DATA_DIR: freshDir, DATABASE_URL: fresh });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).not.toContain('replacing');
    const counts = await withClient(fresh, (query) => expectConsistentRestore(query, path.join(freshDir, 'media'), storedBefore));
    expect(counts).toEqual(restoredCounts);
    expect(filesUnder(path.join(freshDir, 'media')).length).toBeGreaterThan(0);
  }, 120_000);

  it('refuses an archive of the other database mode, before touching anything', async () => {
    await expect(restoreBackup({ config: backupConfig(path.join(work, 'embedded')), from: archive, force: true })).rejects.toThrow(
      new RestoreRefusedError(
        'This archive holds PostgreSQL (DATABASE_URL), and this install uses the embedded database (PGlite, DATA_DIR/pglite). ' +
          'Restore it with DATABASE_URL set to a PostgreSQL database; a backup does not move data between the two database modes.',
      ),
    );
    expect(existsSync(path.join(work, 'embedded'))).toBe(false);
  });
});
