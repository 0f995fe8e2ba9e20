import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { lockDataDir } from './data-dir-lock.js';
import { requestSnapshot, snapshotsFolderOf, SnapshotRequestError } from './embedded-snapshot.js';
import { codeMigrationLevel } from './migrations.js';
import { usePostgres } from '../../test/test-database.js';

/**
 * The embedded database's copies on a real folder: the process holding the database answers
 * a backup's request with a copy of one instant, taken while a writer keeps committing; a
 * holder that does not answer, or stops, fails the request with the reason.
 */

const work = mkdtempSync(path.join(tmpdir(), 'atende-snapshot-'));
afterAll(() => rm(work, { recursive: true, force: true }));

// Embedded only: under `test:pg` the same runs again for nothing.
describe.skipIf(usePostgres)('copies of the embedded database', () => {
  it('the holder answers a request with a copy of one instant, while a writer commits pairs of rows', async () => {
    const folder = path.join(work, 'answers', 'pglite');
    const database = await openDatabase({ dataDir: folder });
    let stop = false;
    let committed = 0;
    try {
      await database.migrate();
      await database.sql.executeSql('create table pairs (n int not null, half int not null)');
      const writer = (async () => {
        for (let n = 0; !stop; n++) {
          // Two rows in one transaction, with a pause between them: a copy of one instant never holds one without the other.
          await database.db.transaction(async (tx) => {
            await tx.execute(sql`insert into pairs values (${n}, 1)`);
            await new Promise((resolve) => setTimeout(resolve, 1));
            await tx.execute(sql`insert into pairs values (${n}, 2)`);
          });
          committed = n + 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      while (committed < 20) await new Promise((resolve) => setTimeout(resolve, 10));

      const snapshot = await requestSnapshot(folder);
      stop = true;
      await writer;
      expect(snapshot.info.migrations).toEqual(codeMigrationLevel());
      expect(snapshot.info.pausedMs).toBeGreaterThanOrEqual(0);
      expect(existsSync(path.join(snapshot.folder, 'database', 'postmaster.pid'))).toBe(false);

      const copy = await openDatabase({ dataDir: path.join(snapshot.folder, 'database') });
      try {
        const { rows } = await copy.sql.executeSql('select count(*)::int as rows, count(distinct n)::int as pairs, max(n)::int as last from pairs');
        const [counts] = rows as { rows: number; pairs: number; last: number }[];
        expect(counts?.rows).toBe((counts?.pairs ?? 0) * 2);
        expect(counts?.last).toBe((counts?.pairs ?? 0) - 1);
        expect(counts?.pairs).toBeGreaterThanOrEqual(20);
        expect(counts?.pairs).toBeLessThanOrEqual(committed);
      } finally {
        await copy.close();
      }
      await snapshot.remove();
      expect(readdirSync(snapshotsFolderOf(folder))).toEqual([]);
    } finally {
      stop = true;
      await database.close();
    }
  }, 60_000);

  it('a holder that does not take the request fails it with the reason, and the request is withdrawn', async () => {
    const folder = path.join(work, 'silent', 'pglite');
    // A process holding the folder that does not answer (an Atende older than backups).
    const lock = lockDataDir(folder);
    try {
      await expect(requestSnapshot(folder, { pickUpMs: 1200 })).rejects.toThrow(/did not answer the backup request within 1 s\. Is it an Atende server of this version\?/);
      expect(readdirSync(snapshotsFolderOf(folder))).toEqual([]);
    } finally {
      lock.release();
    }
    // Nobody holds it any more: a request says the holder stopped, so that the asker opens it itself.
    const stopped = requestSnapshot(folder, { pickUpMs: 1200 });
    await expect(stopped).rejects.toBeInstanceOf(SnapshotRequestError);
    await expect(stopped).rejects.toMatchObject({ holderStopped: true });
  }, 30_000);
});
