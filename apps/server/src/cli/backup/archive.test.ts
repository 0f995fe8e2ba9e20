import { backupConfig } from '../../test/backup-fixture.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { codeMigrationLevel } from '../../platform/db/migrations.js';
import { ArchiveWriter, DamagedArchiveError, newHeader, readArchive, type ArchiveEntry, type BackupHeader } from './archive.js';
import { restoreBackup, RestoreRefusedError } from './restore.js';

/**
 * The archive format on real files: what a backup writes reads back whole (and GNU tar
 * reads it too); a damaged archive (a flipped byte, a changed file, a cut) is told
 * before anything is used; names that would escape DATA_DIR, another format version and
 * a newer schema are refused.
 */

const work = mkdtempSync(path.join(tmpdir(), 'atende-archive-'));
afterAll(() => rm(work, { recursive: true, force: true }));

const PHOTO = Buffer.alloc(200_000, 'the photo of a customer|');
const DATABASE: BackupHeader['database'] = { kind: 'pglite', serverVersion: '17.5', snapshotAt: '2026-01-02T03:04:05.000Z', migrations: codeMigrationLevel() };

async function writeSample(file: string, database = DATABASE): Promise<void> {
  const archive = await ArchiveWriter.create(file, newHeader(database));
  await archive.addDirectory('database');
  await archive.addDirectory('database/pglite');
  await archive.addFile('database/pglite/PG_VERSION', Readable.from([Buffer.from('17\n')]), 3);
  await archive.addDirectory('media');
  // A long name (over tar's 100 bytes) and a non-ASCII one: both come back as they went in.
  const longName = `media/1/2026-01/${'0'.repeat(36)}-${'catálogo_'.repeat(8)}.pdf`;
  await archive.addFile(longName, Readable.from([Buffer.from('%PDF-1.4')]), 8);
  await archive.addFile('media/1/2026-01/photo.jpg', Readable.from([PHOTO.subarray(0, 100_000), PHOTO.subarray(100_000)]), PHOTO.length);
  await archive.finish();
}

function flip(bytes: Buffer, at: number, bits: number): void {
  bytes.writeUInt8(bytes.readUInt8(at) ^ bits, at);
}

async function entriesOf(file: string): Promise<{ path: string; type: string; bytes: number }[]> {
  const seen: { path: string; type: string; bytes: number }[] = [];
  await readArchive(file, async (entry) => {
    let bytes = 0;
    for await (const chunk of entry.data()) bytes += chunk.length;
    seen.push({ path: entry.path, type: entry.type, bytes });
  });
  return seen;
}

describe('the backup archive', () => {
  const sample = path.join(work, 'sample.tar.gz');

  it('reads back every entry, with a manifest of counts and checksums; GNU tar lists it too', async () => {
    await writeSample(sample);
    const manifest = await readArchive(sample, async () => undefined);
    expect(manifest).toMatchObject({ format: 'atende-backup', version: 1, database: DATABASE, files: { database: 1, media: 2, other: 1 } });
    expect(manifest.entries.find((entry) => entry.path === 'media/1/2026-01/photo.jpg')).toEqual({
      path: 'media/1/2026-01/photo.jpg',
      type: 'file',
      size: PHOTO.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await entriesOf(sample)).map((entry) => `${entry.type} ${entry.path} ${entry.bytes}`)).toEqual([
      'directory database 0',
      'directory database/pglite 0',
      'file database/pglite/PG_VERSION 3',
      'directory media 0',
      `file media/1/2026-01/${'0'.repeat(36)}-${'catálogo_'.repeat(8)}.pdf 8`,
      `file media/1/2026-01/photo.jpg ${PHOTO.length}`,
    ]);
    const listed = execFileSync('tar', ['-tzf', sample], { encoding: 'utf8' }).trim().split('\n');
    expect(listed[0]).toBe('atende-backup.json');
    expect(listed.at(-1)).toBe('manifest.json');
    expect(listed).toContain('media/1/2026-01/photo.jpg');
  });

  it('tells a flipped byte in the compressed file', async () => {
    const bytes = readFileSync(sample);
    const damaged = path.join(work, 'flipped.tar.gz');
    flip(bytes, Math.floor(bytes.length / 2), 0x40);
    writeFileSync(damaged, bytes);
    await expect(readArchive(damaged, async () => undefined)).rejects.toBeInstanceOf(DamagedArchiveError);
  });

  it('tells a file changed inside a well-formed archive by its checksum, and a cut archive', async () => {
    const tarBytes = gunzipSync(readFileSync(sample));
    const at = tarBytes.indexOf(PHOTO.subarray(0, 64));
    flip(tarBytes, at + 5000, 0x01);
    const changed = path.join(work, 'changed.tar.gz');
    writeFileSync(changed, gzipSync(tarBytes));
    await expect(readArchive(changed, async () => undefined)).rejects.toThrow(new DamagedArchiveError('media/1/2026-01/photo.jpg differs from its checksum or size in the manifest'));

    const cut = path.join(work, 'cut.tar.gz');
    const whole = readFileSync(sample);
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.9)));
    await expect(readArchive(cut, async () => undefined)).rejects.toBeInstanceOf(DamagedArchiveError);
  });

  it('given the manifest, fails the reading of a changed file at its end, before the reader could use it', async () => {
    const manifest = await readArchive(sample, async () => undefined);
    const tarBytes = gunzipSync(readFileSync(sample));
    flip(tarBytes, tarBytes.indexOf(PHOTO.subarray(0, 64)) + 7, 0x01);
    const changed = path.join(work, 'changed-again.tar.gz');
    writeFileSync(changed, gzipSync(tarBytes));
    const used: string[] = [];
    const applying = readArchive(
      changed,
      async (entry: ArchiveEntry) => {
        for await (const chunk of entry.data()) void chunk;
        used.push(entry.path);
      },
      manifest,
    );
    await expect(applying).rejects.toThrow(new DamagedArchiveError('media/1/2026-01/photo.jpg differs from its checksum'));
    expect(used).not.toContain('media/1/2026-01/photo.jpg');
  });

  it('refuses an entry whose name would leave DATA_DIR, and a later format version', async () => {
    const header = newHeader(DATABASE);
    const pack = tar.pack();
    pack.entry({ name: 'atende-backup.json' }, JSON.stringify(header));
    pack.entry({ name: 'media/../../../etc/cron.d/x' }, 'boom');
    pack.finalize();
    const escaping = path.join(work, 'escaping.tar.gz');
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    writeFileSync(escaping, gzipSync(Buffer.concat(chunks)));
    await expect(readArchive(escaping, async () => undefined)).rejects.toThrow('it holds an entry a backup never holds: "media/../../../etc/cron.d/x"');

    const later = path.join(work, 'later.tar.gz');
    const laterPack = tar.pack();
    laterPack.entry({ name: 'atende-backup.json' }, JSON.stringify({ ...header, version: 2 }));
    laterPack.finalize();
    const laterChunks: Buffer[] = [];
    for await (const chunk of laterPack) laterChunks.push(chunk as Buffer);
    writeFileSync(later, gzipSync(Buffer.concat(laterChunks)));
    await expect(readArchive(later, async () => undefined)).rejects.toThrow('its format is version 2; this Atende reads version 1 and before');

    writeFileSync(path.join(work, 'not-gzip.tar.gz'), 'hello');
    await expect(readArchive(path.join(work, 'not-gzip.tar.gz'), async () => undefined)).rejects.toThrow(/damaged or not a gzip file/);
  });

  it('a restore refuses an archive of a newer schema, and a damaged one, before touching DATA_DIR', async () => {
    const code = codeMigrationLevel();
    const newer = path.join(work, 'newer.tar.gz');
    await writeSample(newer, { ...DATABASE, migrations: { applied: code.applied + 1, last: null, lastAt: (code.lastAt ?? 0) + 1000 } });
    const dataDir = path.join(work, 'untouched');
    await expect(restoreBackup({ config: backupConfig(dataDir), from: newer, force: true })).rejects.toThrow(
      new RestoreRefusedError(
        `This archive comes from a newer Atende: its database has ${code.applied + 1} migrations, this Atende knows ${code.applied} migrations, last ${code.last}. Upgrade Atende, then restore.`,
      ),
    );
    await expect(restoreBackup({ config: backupConfig(dataDir), from: path.join(work, 'changed.tar.gz'), force: true })).rejects.toBeInstanceOf(DamagedArchiveError);
    expect(existsSync(dataDir)).toBe(false);
  });
});
