import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/**
 * Issue 28 defect 5: a client on an allowed origin (`WEB_ORIGIN`) must be able to use
 * every method the API has, with its headers, over real HTTP preflights; another
 * origin gets no CORS grant at all (the browser blocks it).
 */
const ALLOWED = 'http://desk.example.test:5173';
const FOREIGN = 'http://evil.example.test';

let t: TestContext;
let base: string;
beforeAll(async () => {
  t = await createTestContext({ listen: true, env: { WEB_ORIGIN: `http://other.example.test, ${ALLOWED}` } });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => t.close());

function preflight(origin: string, method: string, headers = 'authorization,content-type,x-request-id', url = '/tickets/1') {
  return fetch(`${base}${url}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const list = (value: string | null) => (value ?? '').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);

describe('CORS for WEB_ORIGIN', () => {
  it('allows every method of the API and its request headers, with credentials, to an allowed origin', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST', 'GET']) {
      const response = await preflight(ALLOWED, method);
      expect(response.status, method).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), method).toBe(ALLOWED);
      expect(response.headers.get('access-control-allow-credentials'), method).toBe('true');
      expect(list(response.headers.get('access-control-allow-methods')), method).toContain(method.toLowerCase());
      expect(list(response.headers.get('access-control-allow-headers')), method).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-request-id']));
    }
    // A DELETE of the session (logout) and a PUT of a ticket, as the web client sends them.
    expect((await preflight(ALLOWED, 'DELETE', 'authorization', '/auth/logout')).headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('exposes the headers clients read on the actual answer', async () => {
    const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { origin: ALLOWED, 'content-type': 'application/json' }, body: JSON.stringify(SUPER_ADMIN) });
    expect(login.status).toBe(200);
    expect(login.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(login.headers.get('access-control-allow-credentials')).toBe('true');
    expect(list(login.headers.get('access-control-expose-headers'))).toEqual(expect.arrayContaining(['x-has-more', 'x-request-id', 'retry-after']));
  });

  it('grants nothing to an origin that is not listed (no Access-Control-Allow-Origin: the browser blocks it)', async () => {
    for (const method of ['PUT', 'DELETE', 'GET']) {
      const response = await preflight(FOREIGN, method);
      expect(response.headers.get('access-control-allow-origin'), method).toBeNull();
    }
    const answer = await fetch(`${base}/health`, { headers: { origin: FOREIGN } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
