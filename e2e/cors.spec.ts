import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN, api, apiLogin, expect, test, uniqueStamp } from './fixtures';

/**
 * Issue 28 defect 5: a web client served from another origin that the server allows
 * (`WEB_ORIGIN`; scripts/e2e.mjs allows E2E_ALLOWED_ORIGIN) calls the API from
 * Chromium with PUT and DELETE, a bearer token, JSON and cookies: the browser's
 * preflights must let them through. From an origin not listed they are blocked.
 * Each origin is a plain page served by a small HTTP server this test starts.
 */
const allowedOrigin = process.env.E2E_ALLOWED_ORIGIN ?? '';

/** A page with no script of its own: the test runs the client's calls in it. */
async function serveOrigin(port: number): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another origin</title></head><body><p>A client served elsewhere</p></body></html>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Answer {
  status: number | 'blocked';
  requestId?: string | null;
  body?: unknown;
}

interface ClientRun {
  login: Answer;
  refresh: Answer;
  put: Answer;
  remove: Answer;
}

/** What the page does: sign in (cookie set), refresh (cookie sent), PUT then DELETE a tag with the bearer token. */
function runClient(input: { apiBase: string; email: string; password: string; tagId: number; name: string }): Promise<ClientRun> {
  const call = async (method: string, url: string, token: string | null, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { 'x-request-id': `cors-${method.toLowerCase()}` };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${input.apiBase}${url}`, { method, credentials: 'include', headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, requestId: response.headers.get('x-request-id'), body: text ? (JSON.parse(text) as unknown) : null };
    } catch {
      return { status: 'blocked' };
    }
  };
  return (async () => {
    const login = await call('POST', '/auth/login', null, { email: input.email, password: input.password });
    const token = login.status === 200 ? (login.body as { token: string }).token : null;
    const refresh = await call('POST', '/auth/refresh_token', null);
    const put = await call('PUT', `/tags/${input.tagId}`, token, { name: input.name });
    const remove = await call('DELETE', `/tags/${input.tagId}`, token);
    return { login, refresh, put, remove };
  })();
}

test('cors: a page on an allowed origin signs in, refreshes, PUTs and DELETEs through the API; another origin is blocked', async ({ page, browser, baseURL }) => {
  expect(allowedOrigin, 'E2E_ALLOWED_ORIGIN, the origin scripts/e2e.mjs puts in WEB_ORIGIN').toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const apiBase = baseURL ?? '';
  const allowed = await serveOrigin(Number(new URL(allowedOrigin).port));
  const foreign = await serveOrigin(0);
  try {
    const token = await apiLogin(apiBase);
    const stamp = uniqueStamp();
    const tag = await api<{ id: number }>(apiBase, token, 'POST', '/tags', { name: `CORS ${stamp.text}`, color: '#1565c0' });
    const kept = await api<{ id: number }>(apiBase, token, 'POST', '/tags', { name: `CORS kept ${stamp.text}`, color: '#2e7d32' });

    // The allowed origin: every call goes through, the cookie included, and the exposed request id is readable.
    await page.goto(`${allowed.origin}/client.html`);
    const run = await page.evaluate(runClient, { apiBase, email: ADMIN.email, password: ADMIN.password, tagId: tag.id, name: `CORS renamed ${stamp.text}` });
    expect(run.login.status).toBe(200);
    expect(run.refresh.status, 'the refresh cookie set cross-origin is sent back').toBe(200);
    // The page may send its own x-request-id (an allowed request header); the server, with no
    // trusted proxy in front, answers with an id of its own, which the page can read (exposed).
    expect(run.put).toMatchObject({ status: 200, requestId: expect.stringMatching(/^[0-9a-f]{16}$/), body: { id: tag.id, name: `CORS renamed ${stamp.text}` } });
    expect(run.remove).toMatchObject({ status: 200, requestId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const gone = await fetch(`${apiBase}/tags/${tag.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(404);

    // An origin not in WEB_ORIGIN: the browser refuses every answer, and the preflighted PUT and DELETE are never sent.
    const context = await browser.newContext();
    try {
      const stranger = await context.newPage();
      await stranger.goto(`${foreign.origin}/client.html`);
      const refused = await stranger.evaluate(runClient, { apiBase, email: ADMIN.email, password: ADMIN.password, tagId: kept.id, name: 'CORS hijacked' });
      expect(refused).toEqual({ login: { status: 'blocked' }, refresh: { status: 'blocked' }, put: { status: 'blocked' }, remove: { status: 'blocked' } });
    } finally {
      await context.close();
    }
    expect(await api<{ name: string }>(apiBase, token, 'GET', `/tags/${kept.id}`)).toMatchObject({ name: `CORS kept ${stamp.text}` });
    expect((await fetch(`${apiBase}/tags/${kept.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  } finally {
    await Promise.all([allowed, foreign].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  }
});
