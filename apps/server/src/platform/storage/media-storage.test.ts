import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMediaStorage, sanitizeFileName } from './media-storage.js';

describe('media storage', () => {
  it('sanitizes names: no directories, spaces to underscores, no control characters', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\x\\minha foto.png')).toBe('minha_foto.png');
    expect(sanitizeFileName('a\u0000b\u001fc.pdf')).toBe('abc.pdf');
    expect(sanitizeFileName('...hidden')).toBe('hidden');
    expect(sanitizeFileName('')).toBe('file');
  });

  it('stores under the company folder and serves only a valid, unexpired signature', async () => {
    const storage = createMediaStorage(mkdtempSync(path.join(tmpdir(), 'atende-media-')), 'secret-for-tests-0123456789');
    const saved = await storage.save({ companyId: 7 }, { data: Buffer.from('hello'), fileName: 'Nota Fiscal.pdf', mimeType: 'application/pdf' });
    expect(saved.path.startsWith('7/')).toBe(true);
    expect(saved).toMatchObject({ name: 'Nota_Fiscal.pdf', mediaType: 'application', size: 5 });
    const url = new URL(storage.signedUrl(saved.path), 'http://x');
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    await expect(storage.open(saved.path, expires, signature)).resolves.toMatchObject({ size: 5, name: 'Nota_Fiscal.pdf' });
    await expect(storage.open(saved.path, expires, `${signature}x`)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await expect(storage.open(saved.path, String(Number(expires) + 1), signature)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await expect(storage.open('../outside', expires, signature)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await expect(storage.save({ companyId: 7 }, { data: Buffer.from('x'), fileName: 'run.exe', mimeType: 'application/octet-stream' })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
  });

  it("removes a company's own file only", async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'atende-media-'));
    const storage = createMediaStorage(root, 'secret-for-tests-0123456789');
    const mine = await storage.save({ companyId: 7 }, { data: Buffer.from('a'), fileName: 'a.txt', mimeType: 'text/plain' });
    const theirs = await storage.save({ companyId: 8 }, { data: Buffer.from('b'), fileName: 'b.txt', mimeType: 'text/plain' });
    await storage.remove({ companyId: 7 }, theirs.path);
    expect(existsSync(storage.absolutePath(theirs.path))).toBe(true);
    await storage.remove({ companyId: 7 }, mine.path);
    expect(existsSync(storage.absolutePath(mine.path))).toBe(false);
    await expect(storage.remove({ companyId: 7 }, mine.path)).resolves.toBeUndefined();
  });
});
