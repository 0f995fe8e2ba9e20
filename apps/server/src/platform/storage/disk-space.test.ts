import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mountSmallDisk } from '../../test/tmpfs.js';
import { canWrite, checkSpaceToStart, createStorageMonitor, DATABASE_FULL_REPORTED_MS, isNoSpaceError, NoSpaceToStartError } from './disk-space.js';
import { createLocalMediaStore } from './local-media-store.js';
import { createMediaStorage } from './media-storage.js';

/**
 * Issue 28 defect 9 on a real small disk (a 16 MB tmpfs): what counts as "no space",
 * what the monitor behind /health says, and media writes that leave nothing behind
 * when the disk fills under them.
 */

const { disk, skipped } = mountSmallDisk(16);
afterAll(() => disk?.unmount());

const MB = 1024 * 1024;
const file = (bytes: number) => ({ data: Buffer.alloc(bytes, 7), fileName: 'photo.jpg', mimeType: 'image/jpeg' });
/** Every file under a folder, temporaries included. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('what counts as no space', () => {
  it('recognises the file system, PostgreSQL and PGlite errors, through the wrappers', () => {
    expect(isNoSpaceError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe(true);
    expect(isNoSpaceError(Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT' }))).toBe(true);
    // drizzle wraps the driver's error (PostgreSQL or PGlite: SQLSTATE 53100) in `cause`.
    const disk53100 = Object.assign(new Error('could not extend file "base/1/16385_fsm": No space left on device'), { code: '53100' });
    expect(isNoSpaceError(new Error('Failed query: insert into ...', { cause: disk53100 }))).toBe(true);
    expect(isNoSpaceError(new Error('Failed query: insert into ...', { cause: Object.assign(new Error('duplicate key'), { code: '23505' }) }))).toBe(false);
    expect(isNoSpaceError(new TypeError('a plain bug'))).toBe(false);
  });
});

describe.skipIf(Boolean(skipped))('a small disk filling up', () => {
  it('the monitor: ok with room, full under the minimum (with the free space), ok again once freed', async () => {
    if (!disk) return;
    const monitor = createStorageMonitor({ dataDir: disk.dir, minFreeMb: 4, databaseServer: false });
    expect(await monitor.status()).toMatchObject({ status: 'ok', minFreeMb: 4 });
    disk.fill(2 * MB);
    const full = await monitor.status();
    expect(full).toMatchObject({ status: 'full', minFreeMb: 4 });
    expect(full.freeMb).toBeLessThan(4);
    expect(full.reason).toBe(`no space left in DATA_DIR (${full.freeMb} MB free)`);
    expect(await monitor.hasRoomFor(1024)).toBe(false);
    await expect(checkSpaceToStart(disk.dir, 4)).rejects.toThrow(NoSpaceToStartError);
    await expect(checkSpaceToStart(disk.dir, 4)).rejects.toThrow(`no space left in DATA_DIR (${full.freeMb} MB free): ${disk.dir} needs at least 4 MB`);
    disk.free();
    expect(await monitor.status()).toMatchObject({ status: 'ok' });
    await expect(checkSpaceToStart(disk.dir, 4)).resolves.toBeUndefined();
  });

  it('the monitor: a refused write counts until a real write succeeds; a PostgreSQL server out of space is reported for a while', async () => {
    if (!disk) return;
    let now = 1_000_000;
    const local = createStorageMonitor({ dataDir: disk.dir, minFreeMb: 0, databaseServer: false, now: () => now });
    disk.fill();
    local.noteNoSpace(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
    expect(await canWrite(disk.dir)).toBe(false);
    expect(await local.status()).toMatchObject({ status: 'full' });
    disk.free();
    expect(await local.status()).toMatchObject({ status: 'ok' });

    const withServer = createStorageMonitor({ dataDir: disk.dir, minFreeMb: 0, databaseServer: true, now: () => now });
    withServer.noteNoSpace(new Error('Failed query', { cause: Object.assign(new Error('could not extend file'), { code: '53100' }) }));
    expect(await withServer.status()).toMatchObject({ status: 'database_full', reason: expect.stringContaining('database server refused a write') });
    now += DATABASE_FULL_REPORTED_MS;
    expect(await withServer.status()).toMatchObject({ status: 'ok' });
  });

  it('a media file that does not fit leaves nothing behind (no partial file, no temporary) and answers ERR_STORAGE_FULL', async () => {
    if (!disk) return;
    const root = path.join(disk.dir, 'media');
    // No monitor: the write itself meets the full disk, half-way through the file.
    const storage = createMediaStorage({ store: createLocalMediaStore(root), secret: 'secret-for-tests-0123456789' });
    const kept = await storage.save({ companyId: 3 }, file(1000));
    disk.fill(256 * 1024);
    await expect(storage.save({ companyId: 3 }, file(2 * MB))).rejects.toMatchObject({ code: 'ERR_STORAGE_FULL', statusCode: 507 });
    expect(filesUnder(root)).toEqual([path.join(root, kept.path)]);
    disk.free();
    const saved = await storage.save({ companyId: 3 }, file(2 * MB));
    expect(filesUnder(root).sort()).toEqual([path.join(root, kept.path), path.join(root, saved.path)].sort());
  });

  it('with the monitor, a file that would leave DATA_DIR under its minimum is refused before it is written', async () => {
    if (!disk) return;
    const monitor = createStorageMonitor({ dataDir: disk.dir, minFreeMb: 8, databaseServer: false });
    const root = path.join(disk.dir, 'media-kept-room');
    const storage = createMediaStorage({ store: createLocalMediaStore(root), secret: 'secret-for-tests-0123456789', disk: monitor });
    await expect(storage.save({ companyId: 3 }, file(10 * MB))).rejects.toMatchObject({ code: 'ERR_STORAGE_FULL' });
    expect(filesUnder(root)).toEqual([]);
    await expect(storage.save({ companyId: 3 }, file(MB))).resolves.toMatchObject({ size: MB });
  });
});
