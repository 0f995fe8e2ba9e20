import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT as BOOT } from '../test/boot-script';
import { STORAGE } from './storage-keys';

/** A stand-in for `Intl` that counts the date formatters made. */
function countingIntl(): { Intl: unknown; made: () => number } {
  let made = 0;
  const DateTimeFormat = function (this: unknown) {
    made += 1;
    return new Intl.DateTimeFormat();
  };
  return { Intl: { DateTimeFormat }, made: () => made };
}

/** Runs boot.js as the browser would, with this storage; answers the globals it left, the requests it sent and the timers it queued. */
function runBoot(stored: Record<string, string>, intl = countingIntl()) {
  const requests: { url: string; init: RequestInit }[] = [];
  const timers: (() => void)[] = [];
  const globals: Record<string, unknown> = {
    Intl: intl.Intl,
    setTimeout: (callback: () => void) => timers.push(callback),
    localStorage: { getItem: (key: string) => stored[key] ?? null },
    fetch: (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return Promise.resolve('answer');
    },
  };
  globals.globalThis = globals;
  runInNewContext(BOOT, globals);
  return { globals, requests, timers };
}

describe('boot.js', () => {
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
    refusing.setTimeout = () => undefined;
    expect(() => runInNewContext(BOOT, refusing)).not.toThrow();
    expect(refusing.__atendeSessionUser).toBeUndefined();
  });

  it('makes the first date formatter (the Intl locale data) in a task of its own, not while the page parses', () => {
    const intl = countingIntl();
    const { timers } = runBoot({}, intl);
    expect(intl.made()).toBe(0);
    expect(timers).toHaveLength(1);
    timers[0]?.();
    expect(intl.made()).toBe(1);
  });
});
