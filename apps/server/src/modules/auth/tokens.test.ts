import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it('keeps answering for a verified token until it expires, then answers 403 like a fresh check', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T12:00:00Z'), toFake: ['Date'] });
    const tokens = createTokenService('a-secret-long-enough-for-hs256-0123456789', 60);
    const token = await tokens.signAccess({ userId: 7, companyId: 3, tokenVersion: 1 });
    const expiresAt = new Date('2026-11-23T12:01:00Z').getTime();
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, companyId: 3, tokenVersion: 1, expiresAt });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, companyId: 3, tokenVersion: 1, expiresAt });
    vi.setSystemTime(new Date('2026-11-23T12:01:01Z'));
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ code: 'ERR_SESSION_EXPIRED', statusCode: 403 });
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ statusCode: 403 });
  });

  it('never takes a token signed with another secret, even one that looks like a verified one', async () => {
    const ours = createTokenService('a-secret-long-enough-for-hs256-0123456789', 60);
    const theirs = createTokenService('another-secret-long-enough-for-hs256-xyz', 60);
    const forged = await theirs.signAccess({ userId: 7, companyId: 3, tokenVersion: 1 });
    await expect(ours.verifyAccess(forged)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('carries the sign-in (refresh family) id as claim fid', async () => {
    const tokens = createTokenService('a-secret-long-enough-for-hs256-0123456789', 60);
    const token = await tokens.signAccess({ userId: 7, companyId: 3, tokenVersion: 1, familyId: 'family-1' });
    expect(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({ sub: '7', cid: 3, tv: 1, fid: 'family-1' });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, companyId: 3, tokenVersion: 1, familyId: 'family-1', expiresAt: expect.any(Number) });
  });
});
