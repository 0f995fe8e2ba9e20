import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMediaStore } from '../../platform/storage/local-media-store.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { createS3MediaStore } from '../../platform/storage/s3-media-store.js';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { moveMedia } from './move-media.js';

/** `npm run media:to-s3` against a local S3-compatible server: a folder of media moved into a bucket, by key. */

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A media folder as the server leaves it: companies' files, a whaticket import's, a temporary of a write in progress. */
function mediaFolder(files: Record<string, Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'atende-move-'));
  for (const [key, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    writeFileSync(path.join(root, key), data);
  }
  mkdirSync(path.join(root, '1', '2026-05'), { recursive: true });
  writeFileSync(path.join(root, '1', '2026-05', '.abc-photo.jpg.1234.part'), 'half a file');
  return root;
}

async function contents(store: MediaStore, prefix: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const object of store.list(prefix)) found[object.key] = sha(await buffer((await store.get(object.key))!.stream));
  return found;
}

describe('moving media from a folder into a bucket', () => {
  it('copies every file by key, checked, resumes after an interruption, and a second run copies nothing', async () => {
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 12; i++) files[`${(i % 3) + 1}/2026-0${(i % 2) + 5}/${randomBytes(4).toString('hex')}-arquivo ${i}.pdf`] = randomBytes(1000 + i * 5000);
    files['2/whaticket/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d-ação.jpg'] = randomBytes(70_000);
    const root = mediaFolder(files);
    const from = createLocalMediaStore(root);
    const to = createS3MediaStore({ ...s3.settings, pageSize: 5 });

    // Interrupted after 5 files (Ctrl-C): those copied are complete, the rest is left for the next run.
    const stop = new AbortController();
    const first = await moveMedia({
      from,
      to,
      concurrency: 2,
      signal: stop.signal,
      onProgress: (report) => {
        if (report.copied >= 5) stop.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.failed).toEqual([]);
    const partial = await contents(to, '');
    expect(Object.keys(partial).length).toBe(first.copied);
    for (const [key, digest] of Object.entries(partial)) expect(digest).toBe(sha(files[key]!));

    const second = await moveMedia({ from, to, concurrency: 3 });
    expect(second).toMatchObject({ found: 13, copied: 13 - first.copied, alreadyThere: first.copied, failed: [], interrupted: false });
    expect(await contents(to, '')).toEqual(Object.fromEntries(Object.entries(files).map(([key, data]) => [key, sha(data)])));

    const third = await moveMedia({ from, to });
    expect(third).toMatchObject({ found: 13, copied: 0, alreadyThere: 13, failed: [] });
    expect(third.bytes).toBe(Object.values(files).reduce((sum, data) => sum + data.length, 0));
  });

  it('replaces an object of the same size but other bytes, reports a dry run, and removes the folder’s files only once copied', async () => {
    const key = '5/2026-05/11111111-2222-3333-4444-555555555555-nota.pdf';
    const right = randomBytes(4096);
    const root = mediaFolder({ [key]: right, '5/2026-05/kept.txt': Buffer.from('kept') });
    const from = createLocalMediaStore(root);
    const to = createS3MediaStore(s3.settings);
    // What a broken earlier copy left: the same size, other bytes.
    await to.put(key, randomBytes(4096), { size: 4096 });

    const dry = await moveMedia({ from, to, dryRun: true, removeSource: true });
    expect(dry).toMatchObject({ found: 2, toCopy: 2, copied: 0, removed: 0 });
    expect(existsSync(path.join(root, key))).toBe(true);

    const moved = await moveMedia({ from, to, removeSource: true });
    expect(moved).toMatchObject({ found: 2, copied: 2, removed: 2, failed: [] });
    expect(sha(await buffer((await to.get(key))!.stream))).toBe(sha(right));
    // Only the temporary of a write in progress is left in the folder.
    expect(readdirSync(path.join(root, '5', '2026-05'))).toEqual([]);
    expect(readdirSync(path.join(root, '1', '2026-05'))).toEqual(['.abc-photo.jpg.1234.part']);
  });

  it('the command: reads the S3_* environment, prints the counts, exits 0; names what is missing', () => {
    const root = mediaFolder({ '9/2026-05/a.txt': Buffer.from('a'), '9/2026-05/b.txt': Buffer.from('bb') });
    const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', DATA_DIR: path.dirname(root), ...s3.env, MEDIA_STORAGE: 'local' };
    const run = (extra: Record<string, string>, args: string[] = []) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/media-to-s3.ts', '--from', root, ...args], { cwd: serverDir, env: { ...env, ...extra }, encoding: 'utf8' });
    const done = run({});
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toContain('files found:       2');
    expect(done.stdout).toContain('copied:            2');
    expect(done.stdout).toContain('Every file is in the target, checked by size and MD5.');
    expect(run({}).stdout).toContain('already there:     2');
    const missing = run({ S3_BUCKET: '' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('S3_BUCKET required to move media to S3');
  }, 60_000);
});
