import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { redactUrl } from './redact.js';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestContext({ env: { BODY_LIMIT_BYTES: '4096', WEB_ORIGIN: 'http://localhost:5173' } });
  token = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
});
afterAll(() => t.close());

describe('HTTP platform', () => {
  it('GET /health reports the database and GET /version the app version', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/version' })).json()).toEqual({ version: '6.0.0' });
  });

  it('answers unknown routes with 404 and a request id header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/no/such/route', headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('ERR_NOT_FOUND');
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('malformed JSON, wrong types, over-long strings and huge bodies get a 4xx and change nothing', async () => {
    const before = (await t.request(token, 'GET', '/users')).json().count;
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"name": "Ana", ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('ERR_VALIDATION');
    const wrongTypes = await t.request(token, 'POST', '/users', { name: 42, email: ['x'], password: true, queueIds: 'all' });
    expect(wrongTypes.statusCode).toBe(400);
    expect(Object.keys(wrongTypes.json().fields).sort()).toEqual(['email', 'name', 'password', 'queueIds']);
    const tooLong = await t.request(token, 'POST', '/users', { name: 'A'.repeat(3000), email: 'a@b.co', password: 'secret1' });
    expect(tooLong.statusCode).toBe(400);
    const huge = await t.request(token, 'POST', '/users', { name: 'A'.repeat(10_000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('ERR_PAYLOAD_TOO_LARGE');
    const badId = await t.request(token, 'GET', '/users/1%27%20or%201=1');
    expect(badId.statusCode).toBe(400);
    expect((await t.request(token, 'GET', '/users')).json().count).toBe(before);
    // And the process keeps serving.
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('allows CORS with credentials only for the configured web origin', async () => {
    const allowed = await t.app.inject({ method: 'OPTIONS', url: '/auth/login', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await t.app.inject({ method: 'OPTIONS', url: '/auth/login', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('redactUrl', () => {
  it('hides the password reset path and tokens in the query', () => {
    expect(redactUrl('/resetpasswords/a@b.com/123456/NewPass1')).toBe('/resetpasswords/[redacted]');
    expect(redactUrl('/socket.io/?EIO=4&token=abc.def&transport=websocket')).toBe('/socket.io/?EIO=4&token=[redacted]&transport=websocket');
    expect(redactUrl('/users?searchParam=x')).toBe('/users?searchParam=x');
  });
});
