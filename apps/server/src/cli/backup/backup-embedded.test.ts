import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/client.js';
import { snapshotsFolderOf } from '../../platform/db/embedded-snapshot.js';
import { embeddedDatabaseFolder } from '../../platform/db/open-at-start.js';
import { call } from '../../test/data-dir-process.js';
import { expectConsistentRestore, filesUnder, photoOf, runCli, serveWithSandbox, startWriters, stopServer, type Query, backupConfig } from '../../test/backup-fixture.js';
import type { RunningServer } from '../../test/data-dir-process.js';
import { usePostgres } from '../../test/test-database.js';
import { createBackup } from './backup.js';
import { restoreBackup, RestoreRefusedError } from './restore.js';

/**
 * Backups of the embedded database (PGlite in DATA_DIR/pglite) with the real server running:
 * the server copies its database when the backup asks (it alone may open the folder), while
 * customers keep writing; the restore puts back exactly one instant of it, with its photos.
 */

const servers: RunningServer[] = [];
afterAll(() => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

async function withDatabase<T>(dataDir: string, work: (query: Query) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: embeddedDatabaseFolder(dataDir) });
  try {
    return await work(async (text) => (await database.sql.executeSql(text)).rows);
  } finally {
    await database.close();
  }
}

describe.skipIf(usePostgres)('backup and restore of the embedded database', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'atende-backup-'));
  const dataDir = path.join(work, 'data');
  const archive = path.join(work, 'while-writing.tar.gz');
  const media = path.join(dataDir, 'media');
  let storedBefore: number[];
  let restoredCounts: number[];

  beforeAll(async () => {
    const { server, api, whatsappId } = await serveWithSandbox(dataDir);
    servers.push(server);
    const writers = startWriters(api, whatsappId, 2);
    while (writers.stored().some((count) => count < 12)) await new Promise((resolve) => setTimeout(resolve, 50));

    storedBefore = writers.stored();
    const summary = await createBackup({ config: backupConfig(dataDir), out: archive });
    const storedAfter = await writers.stop();
    expect(summary.embeddedCopy).toEqual({ by: 'server', pausedMs: expect.any(Number) });
    expect(summary.manifest.database).toMatchObject({ kind: 'pglite', migrations: { applied: expect.any(Number) } });
    expect(summary.manifest.database.migrations.applied).toBeGreaterThan(30);
    // The writers went on during the backup, and past it.
    expect(storedAfter.reduce((a, b) => a + b)).toBeGreaterThan(storedBefore.reduce((a, b) => a + b));

    // While the server runs, a restore is refused, naming the process.
    const refused = await runCli('restore', ['--from', archive, '--force'], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`in use by pid ${server.child.pid}`);
    expect(refused.stderr).toContain('a restore while the server runs is refused');
    await stopServer(server);
    // Nothing of the request is left beside the database.
    expect(readdirSync(snapshotsFolderOf(embeddedDatabaseFolder(dataDir)))).toEqual([]);
  }, 240_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('restores, over changed rows and media, exactly the instant of the snapshot (the npm script, with --force)', async () => {
    // Changes after the backup: messages deleted and edited, a photo lost, a stray file added.
    const removedPhoto = await withDatabase(dataDir, async (query) => {
      const [photo] = await query(`select media_path from messages where external_id = 'w0-0'`);
      await query(`delete from messages where external_id like 'w1-%'`);
      await query(`update tickets set last_message = 'changed after the backup'`);
      return String(photo?.media_path);
    });
    await unlink(path.join(media, removedPhoto));
    writeFileSync(path.join(media, path.dirname(removedPhoto), 'stray.jpg'), 'not in the archive');

    const withoutForce = await runCli('restore', ['--from', archive], { DATA_DIR: dataDir });
    expect(withoutForce.code).toBe(1);
    expect(withoutForce.stderr).toMatch(/Refused: .*pglite holds a database and .*media holds \d+ files\. .*--force/);

    const restored = await runCli('restore', ['--from', archive, '--force'], { DATA_DIR: dataDir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Restored: embedded database of .*replacing what was there/);
    // The stray file, and the photos of messages stored after the backup, are not in the archive.
    expect(restored.stdout).toMatch(/media: \d+ written, [1-9]\d* removed \(not in the archive\)/);

    restoredCounts = await withDatabase(dataDir, (query) => expectConsistentRestore(query, media, storedBefore));
    expect(existsSync(path.join(media, path.dirname(removedPhoto), 'stray.jpg'))).toBe(false);
    expect(existsSync(path.join(media, removedPhoto))).toBe(true);
    // Nothing left of the restore's work beside the database.
    expect(readdirSync(dataDir).sort()).toEqual(['media', 'pglite', 'pglite.backups', 'secrets.json']);
  }, 120_000);

  it('the server starts on the restored folder and serves the restored conversations and photos', async () => {
    const [photo] = await withDatabase(dataDir, (query) => query(`select ticket_id from messages where external_id = 'w0-0'`));
    const { server, api } = await serveWithSandbox(dataDir);
    servers.push(server);
    const count = await call(api, 'GET', '/tickets/count?status=pending&showAll=true');
    expect(count).toEqual({ status: 200, body: { count: restoredCounts.reduce((a, b) => a + b) } });
    const history = await call(api, 'GET', `/messages/${String(photo?.ticket_id)}`);
    const message = (history.body.messages as { body: string; mediaUrl: string | null }[]).find((candidate) => candidate.body === 'photo w0-0');
    const served = await fetch(new URL(message?.mediaUrl ?? '', api.url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(photoOf('w0-0'))).toBe(true);
    await stopServer(server);
  }, 120_000);

  it('without a server, the backup opens the database itself; it restores into a new DATA_DIR without --force', async () => {
    const offline = path.join(work, 'offline.tar.gz');
    const backup = await runCli('backup', ['--out', offline], { DATA_DIR: dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('no server running');

    const fresh = path.join(work, 'fresh');
    const restored = await runCli('restore', ['--from', offline], { DATA_DIR: fresh });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).not.toContain('replacing');
    const counts = await withDatabase(fresh, (query) => expectConsistentRestore(query, path.join(fresh, 'media'), restoredCounts));
    expect(counts).toEqual(restoredCounts);
    expect(filesUnder(path.join(fresh, 'media'))).toEqual(filesUnder(media));
  }, 120_000);

  it('refuses an archive of the other database mode before touching anything', async () => {
    await expect(
      restoreBackup({ config: backupConfig(path.join(work, 'elsewhere'), 'postgres://nobody@127.0.0.1:1/none'), from: archive, force: true }),
    ).rejects.toThrow(new RestoreRefusedError(
      'This archive holds the embedded database (PGlite, DATA_DIR/pglite), and this install uses PostgreSQL (DATABASE_URL). ' +
        'Restore it with DATABASE_URL unset; a backup does not move data between the two database modes.',
    ));
    expect(existsSync(path.join(work, 'elsewhere'))).toBe(false);
  });
});
