import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { createLocalMediaStore } from './local-media-store.js';
import type { MediaStore } from './media-store.js';
import { createMediaStorage, sanitizeFileName, signedUrlExpiry } from './media-storage.js';
import { createS3MediaStore } from './s3-media-store.js';

const SECRET = 'secret-for-tests-0123456789';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

describe('media file names', () => {
  it('sanitizes names: no directories, spaces to underscores, no control characters', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\x\\minha foto.png')).toBe('minha_foto.png');
    expect(sanitizeFileName('a\u0000b\u001fc.pdf')).toBe('abc.pdf');
    expect(sanitizeFileName('...hidden')).toBe('hidden');
    expect(sanitizeFileName('')).toBe('file');
  });
});

describe('signed link expiry', () => {
  it('lasts at least a day and stays the same link for the rest of the hour', () => {
    const at = (iso: string) => signedUrlExpiry(Date.parse(iso)) * 1000;
    expect(new Date(at('2026-11-30T08:00:00Z')).toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(new Date(at('2026-11-30T08:00:01Z')).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(at('2026-11-30T08:59:59.999Z')).toBe(at('2026-11-30T08:00:01Z'));
  });
});

const stores: { kind: string; make: () => MediaStore }[] = [
  { kind: 'local', make: () => createLocalMediaStore(mkdtempSync(path.join(tmpdir(), 'atende-media-'))) },
  { kind: 's3', make: () => createS3MediaStore(s3.settings) },
];

describe.each(stores)('media storage on $kind', ({ make }) => {
  it('stores under the company folder and serves only a valid, unexpired signature', async () => {
    const storage = createMediaStorage({ store: make(), secret: SECRET });
    const saved = await storage.save({ companyId: 7 }, { data: Buffer.from('hello'), fileName: 'Nota Fiscal.pdf', mimeType: 'application/pdf' });
    expect(saved.path.startsWith('7/')).toBe(true);
    expect(saved).toMatchObject({ name: 'Nota_Fiscal.pdf', mediaType: 'application', size: 5 });
    const url = new URL(storage.signedUrl(saved.path), 'http://x');
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    const opened = await storage.open(saved.path, expires, signature);
    expect(opened).toMatchObject({ size: 5, name: 'Nota_Fiscal.pdf' });
    expect((await buffer(opened.stream)).toString()).toBe('hello');
    await expect(storage.open(saved.path, expires, `${signature}x`)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await expect(storage.open(saved.path, String(Number(expires) + 1), signature)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await expect(storage.open('../outside', expires, signature)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await expect(storage.save({ companyId: 7 }, { data: Buffer.from('x'), fileName: 'run.exe', mimeType: 'application/octet-stream' })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
  });

  it('reads a stored file whole and tells its size; a missing one is ERR_MEDIA_MISSING and no size', async () => {
    const storage = createMediaStorage({ store: make(), secret: SECRET });
    const saved = await storage.save({ companyId: 7 }, { data: Buffer.from('voice note'), fileName: 'audio.ogg', mimeType: 'audio/ogg' });
    expect((await storage.read(saved.path)).toString()).toBe('voice note');
    expect(await storage.size(saved.path)).toBe(10);
    await expect(storage.read('7/2020-01/gone.ogg')).rejects.toMatchObject({ code: 'ERR_MEDIA_MISSING' });
    expect(await storage.size('7/2020-01/gone.ogg')).toBeNull();
    expect(await storage.size('../outside')).toBeNull();
  });

  it("removes a company's own file only", async () => {
    const storage = createMediaStorage({ store: make(), secret: SECRET });
    const mine = await storage.save({ companyId: 7 }, { data: Buffer.from('a'), fileName: 'a.txt', mimeType: 'text/plain' });
    const theirs = await storage.save({ companyId: 8 }, { data: Buffer.from('b'), fileName: 'b.txt', mimeType: 'text/plain' });
    await storage.remove({ companyId: 7 }, theirs.path);
    expect(await storage.size(theirs.path)).toBe(1);
    await storage.remove({ companyId: 7 }, mine.path);
    expect(await storage.size(mine.path)).toBeNull();
    await expect(storage.remove({ companyId: 7 }, mine.path)).resolves.toBeUndefined();
  });
});

describe('media storage on a bucket that does not answer', () => {
  it('answers 503 ERR_SERVICE_UNAVAILABLE with Retry-After (not 404, not 500), and says so in the log and its status', async () => {
    const down = await startS3Server('down-bucket');
    const warnings: unknown[] = [];
    const storage = createMediaStorage({ store: createS3MediaStore(down.settings), secret: SECRET, logger: { warn: (...args: unknown[]) => warnings.push(args) } });
    const saved = await storage.save({ companyId: 7 }, { data: Buffer.from('hello'), fileName: 'a.txt', mimeType: 'text/plain' });
    const url = new URL(storage.signedUrl(saved.path), 'http://x');
    expect(storage.status()).toEqual({ kind: 's3', status: 'ok' });
    await down.close();
    const unavailable = { code: 'ERR_SERVICE_UNAVAILABLE', statusCode: 503, headers: { 'retry-after': '5' } };
    await expect(storage.save({ companyId: 7 }, { data: Buffer.from('x'), fileName: 'b.txt', mimeType: 'text/plain' })).rejects.toMatchObject(unavailable);
    await expect(storage.open(saved.path, url.searchParams.get('expires') ?? '', url.searchParams.get('signature') ?? '')).rejects.toMatchObject(unavailable);
    await expect(storage.read(saved.path)).rejects.toMatchObject(unavailable);
    expect(warnings.length).toBeGreaterThan(0);
    expect(storage.status()).toMatchObject({ kind: 's3', status: 'unavailable', reason: expect.stringMatching(/^bucket down-bucket at .* did not answer \d+ s ago: GET 7\/.*ECONNREFUSED/) });
  });
});
