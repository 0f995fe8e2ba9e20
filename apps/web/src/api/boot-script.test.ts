import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT as BOOT } from '../test/boot-script';
import { STORAGE } from './storage-keys';

/** Runs public/boot.js as the browser would, with this storage; answers the globals it left and the requests it sent. */
function runBoot(stored: Record<string, string>): { globals: Record<string, unknown>; requests: { url: string; init: RequestInit }[] } {
  const requests: { url: string; init: RequestInit }[] = [];
  const globals: Record<string, unknown> = {
    localStorage: { getItem: (key: string) => stored[key] ?? null },
    fetch: (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return Promise.resolve('answer');
    },
  };
  globals.globalThis = globals;
  runInNewContext(BOOT, globals);
  return { globals, requests };
}

describe('public/boot.js', () => {
  it('sends a stored session’s GET /auth/me before the modules load, under the key the app stores its token', () => {
    const { globals, requests } = runBoot({ [STORAGE.token]: 'stored-token' });
    expect(requests).toEqual([{ url: '/auth/me', init: { headers: { accept: 'application/json', authorization: 'Bearer stored-token' }, credentials: 'include' } }]);
    expect(globals.__atendeSessionUser).toBeInstanceOf(Promise);
    expect(globals.__zod_globalConfig).toEqual({ jitless: true });
  });

  it('asks nothing without a session, and survives a storage that refuses to be read', () => {
    expect(runBoot({}).requests).toEqual([]);
    const refusing: Record<string, unknown> = {
      localStorage: {
        getItem: () => {
          throw new Error('SecurityError');
        },
      },
    };
    refusing.globalThis = refusing;
    expect(() => runInNewContext(BOOT, refusing)).not.toThrow();
    expect(refusing.__atendeSessionUser).toBeUndefined();
  });
});
