import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from './http-client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  let token = 'old';
  const onSessionEnd = vi.fn();
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => handler(String(input), init ?? {}));
  const client = createHttpClient({ getToken: () => token, setToken: (t) => (token = t), onSessionEnd, fetchImpl: fetchImpl as typeof fetch });
  return { client, fetchImpl, onSessionEnd, token: () => token };
}

const expired = () => jsonResponse(403, { error: 'ERR_SESSION_EXPIRED' });

describe('http client', () => {
  it('refreshes once for N concurrent 403s and retries each request', async () => {
    let refreshes = 0;
    const { client, onSessionEnd, token } = setup(async (url, init) => {
      if (url === '/auth/refresh_token') {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return jsonResponse(200, { token: 'new', user: {} });
      }
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer new' ? jsonResponse(200, { url }) : expired();
    });
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => client.get<{ url: string }>(`/things/${i}`)));
    expect(refreshes).toBe(1);
    expect(results.map((r) => r.url)).toEqual(['/things/0', '/things/1', '/things/2', '/things/3', '/things/4']);
    expect(token()).toBe('new');
    expect(onSessionEnd).not.toHaveBeenCalled();
  });

  it('tells the token listeners (the socket) of each refreshed token, until they unsubscribe', async () => {
    let n = 0;
    const { client } = setup((url) => (url === '/auth/refresh_token' ? jsonResponse(200, { token: `fresh-${(n += 1)}` }) : expired()));
    const heard: string[] = [];
    const stop = client.onTokenRefreshed((token) => heard.push(token));
    await client.refresh();
    stop();
    await client.refresh();
    expect(heard).toEqual(['fresh-1']);
  });

  it('ends the session on a 401', async () => {
    const { client, onSessionEnd } = setup(() => jsonResponse(401, { error: 'ERR_SESSION_EXPIRED' }));
    await expect(client.get('/users')).rejects.toMatchObject({ status: 401, code: 'ERR_SESSION_EXPIRED' });
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
  });

  it('ends the session on a repeated 403 and when the refresh fails', async () => {
    const repeated = setup((url) => (url === '/auth/refresh_token' ? jsonResponse(200, { token: 'new' }) : expired()));
    await expect(repeated.client.get('/users')).rejects.toMatchObject({ status: 403 });
    expect(repeated.onSessionEnd).toHaveBeenCalledTimes(1);
    const failing = setup((url) => (url === '/auth/refresh_token' ? jsonResponse(401, { error: 'ERR_SESSION_EXPIRED' }) : expired()));
    await expect(failing.client.get('/users')).rejects.toBeTruthy();
    expect(failing.onSessionEnd).toHaveBeenCalledTimes(1);
  });

  it('keeps the session on a permission 403 and reports the error code', async () => {
    const { client, onSessionEnd, fetchImpl } = setup(() => jsonResponse(403, { error: 'ERR_NO_PERMISSION' }));
    await expect(client.delete('/users/2')).rejects.toMatchObject({ status: 403, code: 'ERR_NO_PERMISSION' });
    expect(onSessionEnd).not.toHaveBeenCalled();
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('sends the bearer token, JSON bodies and query parameters, with credentials', async () => {
    const { client, fetchImpl } = setup(() => jsonResponse(200, { ok: true }));
    await client.request('POST', '/tickets', { body: { a: 1 }, params: { queueIds: [1, 2], empty: '' } });
    const [url, init] = fetchImpl.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/tickets?queueIds=%5B1%2C2%5D');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"a":1}' });
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer old');
  });
});
