import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { mediaSigningKey } from './media-storage.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signWith = (key: string | Buffer, relativePath: string, expires: string) =>
  createHmac('sha256', key).update(`${relativePath}\n${expires}`).digest('base64url');

describe('media URL signatures', () => {
  it('use a key derived from the JWT secret with HKDF, never the JWT secret itself', async () => {
    const saved = await t.app.services.media.save({ companyId: 1 }, { data: Buffer.from('hello'), fileName: 'nota.pdf', mimeType: 'application/pdf' });
    const url = new URL(t.app.services.media.signedUrl(saved.path), 'http://x');
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(200);

    expect(signature).not.toBe(signWith(t.config.JWT_SECRET, saved.path, expires));
    expect(signature).toBe(signWith(mediaSigningKey(t.config.JWT_SECRET), saved.path, expires));
    expect(mediaSigningKey(t.config.JWT_SECRET).equals(Buffer.from(t.config.JWT_SECRET))).toBe(false);

    // A URL signed with the JWT secret (as before) is refused.
    const forged = `${url.pathname}?expires=${expires}&signature=${signWith(t.config.JWT_SECRET, saved.path, expires)}`;
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
  });
});
