import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let token: string;

beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'atende-web-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await createTestContext({ env: { WEB_DIST_DIR: dist }, serveWeb: true });
  token = (await (await t.factories.buildCompany()).admin.login()).token;
});
afterAll(() => t.close());

describe('one path, two answers', () => {
  it('gives a navigation the app shell and an API call the JSON, both varying by Accept so a browser cache never swaps them', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/accept/i);

    const api = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
    expect(api.statusCode).toBe(200);
    expect(Array.isArray(api.json())).toBe(true);
    expect(api.headers.vary).toMatch(/accept/i);
  });
});
