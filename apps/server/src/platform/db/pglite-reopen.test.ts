import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mountSmallDisk } from '../../test/tmpfs.js';
import { isNoSpaceError } from '../storage/disk-space.js';
import { openDatabase, type Database } from './client.js';

/**
 * Issue 28 defect 9, the embedded database on a real full disk (a 64 MB tmpfs):
 * PGlite writes its files as it goes, so a statement that needs a new page fails
 * with SQLSTATE 53100, and a checkpoint aborts its WebAssembly, after which that
 * instance answers nothing. Both read as "no space"; once space is back the folder is
 * opened again and nothing committed is lost.
 */

const { disk, skipped } = mountSmallDisk(64);
let database: Database | undefined;

afterAll(async () => {
  disk?.free();
  await database?.close().catch(() => undefined);
  disk?.unmount();
});

describe.skipIf(Boolean(skipped))('the embedded database on a full disk', () => {
  it('answers "no space" (not a crash) while the disk is full, and works again with nothing lost once space is back', async () => {
    if (!disk) return;
    database = await openDatabase({ dataDir: path.join(disk.dir, 'pglite') });
    const sql = database.sql;
    await sql.executeSql('create table notes (id serial primary key, body text)');
    await sql.executeSql('insert into notes (body) values ($1)', ['before the disk filled']);

    disk.fill();
    // New pages cannot be written: SQLSTATE 53100.
    let failure: unknown;
    for (let i = 0; i < 200 && !failure; i++) {
      await sql.executeSql('insert into notes (body) values ($1)', ['x'.repeat(2000)]).catch((error: unknown) => (failure = error));
    }
    expect(isNoSpaceError(failure), String(failure)).toBe(true);
    // A checkpoint aborts PGlite's WebAssembly: reported as no space, and so is every statement until space is back.
    const aborted = await sql.executeSql('checkpoint').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isNoSpaceError(aborted), String(aborted)).toBe(true);
    const whileFull = await sql.executeSql('select count(*) from notes').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isNoSpaceError(whileFull), String(whileFull)).toBe(true);

    disk.free();
    // Opened again from the folder: what was committed is there, and it takes writes.
    const rows = (await sql.executeSql('select body from notes where body = $1', ['before the disk filled'])).rows;
    expect(rows).toHaveLength(1);
    await sql.executeSql('insert into notes (body) values ($1)', ['after']);
    expect((await sql.executeSql('select count(*)::int as n from notes where body = $1', ['after'])).rows).toEqual([{ n: 1 }]);
  }, 120_000);
});
