import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { createLocalMediaStore } from './local-media-store.js';
import { MediaStoreError, MediaStoreUnavailableError, type MediaStore } from './media-store.js';
import { createS3MediaStore } from './s3-media-store.js';

/**
 * The media store's contract, the same cases for the folder and the bucket (a local
 * S3-compatible server): what the server, the move to S3 and backups rely on.
 */

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `total` bytes in chunks of 64 KiB, made as they are read (never one buffer of the whole). */
function generated(total: number, seed: number): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let left = total;
  const stream = new Readable({
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(left, 64 * 1024), (seed + left) % 251);
      left -= chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

async function keysOf(store: MediaStore, prefix: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for await (const object of store.list(prefix)) found.set(object.key, object.size);
  return found;
}

const stores: { kind: string; make: () => MediaStore }[] = [
  { kind: 'local', make: () => createLocalMediaStore(mkdtempSync(path.join(tmpdir(), 'atende-store-'))) },
  // A small page, so that listing goes through S3's continuation tokens.
  { kind: 's3', make: () => createS3MediaStore({ ...s3.settings, pageSize: 2 }) },
];

describe.each(stores)('media store contract: $kind', ({ make }) => {
  let store: MediaStore;
  let company: string;
  beforeAll(() => {
    store = make();
  });
  // Each test writes under a company prefix of its own (the bucket is shared by the file).
  let next = 100;
  const newCompany = () => {
    next += 1;
    company = `${next}${Math.floor(Math.random() * 1e6)}`;
    return company;
  };

  it('answers its check, and keeps a file put from a Buffer: the same bytes, size and digest back', async () => {
    await expect(store.check()).resolves.toBeUndefined();
    const key = `${newCompany()}/2026-05/${randomBytes(4).toString('hex')}-nota.pdf`;
    const data = randomBytes(70_000);
    await store.put(key, data, { size: data.length, md5: md5(data), contentType: 'application/pdf' });
    const got = await store.get(key);
    expect(got?.size).toBe(data.length);
    expect(await buffer(got!.stream)).toEqual(data);
    const info = await store.stat(key);
    expect(info?.size).toBe(data.length);
    if (info?.md5) expect(info.md5).toBe(md5(data));
  });

  it('streams a large file in and out without a length known but the one given', async () => {
    const key = `${newCompany()}/big.bin`;
    const size = 6 * 1024 * 1024 + 123;
    const source = generated(size, 7);
    await store.put(key, source.stream, { size });
    const got = await store.get(key);
    expect(got?.size).toBe(size);
    expect(sha256(await buffer(got!.stream))).toBe(source.digest());
  });

  it('replaces a file of the same key', async () => {
    const key = `${newCompany()}/a.txt`;
    await store.put(key, Buffer.from('first'), { size: 5 });
    await store.put(key, Readable.from([Buffer.from('second')]), { size: 6 });
    expect((await buffer((await store.get(key))!.stream)).toString()).toBe('second');
  });

  it('refuses a stream of another length or bytes of another digest, and keeps nothing of them', async () => {
    const prefix = `${newCompany()}/`;
    await expect(store.put(`${prefix}short.bin`, Readable.from([Buffer.from('abc')]), { size: 10 })).rejects.toBeInstanceOf(MediaStoreError);
    await expect(store.put(`${prefix}long.bin`, Readable.from([Buffer.alloc(20, 1)]), { size: 10 })).rejects.toBeInstanceOf(MediaStoreError);
    await expect(store.put(`${prefix}buffer.bin`, Buffer.from('abc'), { size: 4 })).rejects.toBeInstanceOf(MediaStoreError);
    const data = Buffer.from('the real bytes');
    await expect(store.put(`${prefix}digest.bin`, data, { size: data.length, md5: md5(Buffer.from('other bytes')) })).rejects.toBeInstanceOf(MediaStoreError);
    await expect(store.put(`${prefix}digest-stream.bin`, Readable.from([data]), { size: data.length, md5: md5(Buffer.from('other bytes')) })).rejects.toBeInstanceOf(
      MediaStoreError,
    );
    for (const name of ['short.bin', 'long.bin', 'buffer.bin', 'digest.bin', 'digest-stream.bin']) expect(await store.stat(`${prefix}${name}`)).toBeNull();
    expect(await keysOf(store, prefix)).toEqual(new Map());
  });

  it('a stream that fails half-way stores nothing, and the failure is the stream’s', async () => {
    const key = `${newCompany()}/broken.bin`;
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(1000, 1);
        throw new Error('the client went away');
      })(),
    );
    await expect(store.put(key, failing, { size: 5000 })).rejects.toThrow('the client went away');
    expect(await store.stat(key)).toBeNull();
  });

  it('answers null for a missing file, and removes a file (a missing one is fine)', async () => {
    const key = `${newCompany()}/gone.txt`;
    expect(await store.get(key)).toBeNull();
    expect(await store.stat(key)).toBeNull();
    await store.put(key, Buffer.from('x'), { size: 1 });
    await store.remove(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.remove(key)).resolves.toBeUndefined();
  });

  it("lists a company's files by prefix, every page, with their sizes, and names in any script", async () => {
    const own = newCompany();
    const neighbour = `${own}0`;
    const names = ['2026-05/ação.pdf', '2026-05/with space+plus.txt', '2026-06/日本.png', 'whaticket/a-b_c.jpg', 'one.bin'];
    for (const [i, name] of names.entries()) await store.put(`${own}/${name}`, Buffer.alloc(i + 1, 1), { size: i + 1 });
    await store.put(`${neighbour}/not-mine.txt`, Buffer.from('no'), { size: 2 });
    const listed = await keysOf(store, `${own}/`);
    expect(listed).toEqual(new Map(names.map((name, i) => [`${own}/${name}`, i + 1])));
    expect((await keysOf(store, own)).has(`${neighbour}/not-mine.txt`)).toBe(true);
    expect((await keysOf(store, `${own}/2026-05/`)).size).toBe(2);
    const all = await keysOf(store, '');
    expect(all.get(`${neighbour}/not-mine.txt`)).toBe(2);
    for (const name of names) expect((await buffer((await store.get(`${own}/${name}`))!.stream)).length).toBe(names.indexOf(name) + 1);
  });

  it('refuses keys that are not relative paths of plain segments', async () => {
    for (const key of ['../x', '/x', '7//x', '7/../x', '7/.part', '7\\x', '', '7/a\u0000b']) {
      await expect(store.put(key, Buffer.from('x'), { size: 1 })).rejects.toBeInstanceOf(MediaStoreError);
      await expect(store.get(key)).rejects.toBeInstanceOf(MediaStoreError);
      await expect(store.stat(key)).rejects.toBeInstanceOf(MediaStoreError);
      await expect(store.remove(key)).rejects.toBeInstanceOf(MediaStoreError);
    }
    expect(() => store.list('../')).toThrow(MediaStoreError);
  });
});

describe('media store: a folder', () => {
  it('leaves no temporary behind after a refused or failed write', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'atende-store-'));
    const store = createLocalMediaStore(root);
    await store.put('7/kept.txt', Buffer.from('kept'), { size: 4 });
    await expect(store.put('7/short.txt', Readable.from([Buffer.from('ab')]), { size: 3 })).rejects.toBeInstanceOf(MediaStoreError);
    await expect(store.put('7/kept.txt', Buffer.from('abc'), { size: 3, md5: md5(Buffer.from('xyz')) })).rejects.toBeInstanceOf(MediaStoreError);
    expect(readdirSync(path.join(root, '7'))).toEqual(['kept.txt']);
    expect((await buffer((await store.get('7/kept.txt'))!.stream)).toString()).toBe('kept');
  });
});

describe('media store: a bucket', () => {
  it('names what an operator must fix: a missing bucket', async () => {
    const store = createS3MediaStore({ ...s3.settings, bucket: 'no-such-bucket' });
    await expect(store.check()).rejects.toThrow(/no such bucket/);
    await expect(store.get('7/x')).rejects.toBeInstanceOf(MediaStoreError);
  });

  it('is refused with a secret the server does not know (every request carries a Signature V4 the test server checks)', async () => {
    const store = createS3MediaStore({ ...s3.settings, secretAccessKey: 'not-the-secret' });
    await expect(store.check()).rejects.toThrow(/the credentials were refused \(403\)/);
    await expect(store.put('7/signed.txt', Buffer.from('x'), { size: 1 })).rejects.toThrow(/403 SignatureDoesNotMatch/);
    await expect(store.get('7/signed.txt')).rejects.toBeInstanceOf(MediaStoreError);
    await expect(keysOf(store, '7/')).rejects.toThrow(/SignatureDoesNotMatch/);
  });

  it('says "unavailable" (not "missing") while the server does not answer, for every call', async () => {
    const down = await startS3Server('down-bucket');
    const store = createS3MediaStore({ ...down.settings, timeoutMs: 2000 });
    await store.put('7/x.txt', Buffer.from('x'), { size: 1 });
    await down.close();
    await expect(store.check()).rejects.toBeInstanceOf(MediaStoreUnavailableError);
    await expect(store.get('7/x.txt')).rejects.toBeInstanceOf(MediaStoreUnavailableError);
    await expect(store.stat('7/x.txt')).rejects.toBeInstanceOf(MediaStoreUnavailableError);
    await expect(store.put('7/y.txt', Readable.from([Buffer.from('y')]), { size: 1 })).rejects.toBeInstanceOf(MediaStoreUnavailableError);
    await expect(keysOf(store, '7/')).rejects.toBeInstanceOf(MediaStoreUnavailableError);
  });
});
