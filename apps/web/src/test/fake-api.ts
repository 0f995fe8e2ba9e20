import { vi } from 'vitest';

/** One request as the fake API received it. */
export interface FakeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** Parsed JSON, the FormData of a multipart body, or undefined. */
  body: unknown;
}

/** A handler answers a body (sent as JSON with 200) or a whole Response. */
export type FakeHandler = (request: FakeRequest) => unknown;

export interface FakeApi {
  /** Every request, in order. */
  requests: FakeRequest[];
  /** Requests no route answered (they got 404). A test usually expects none. */
  unhandled: FakeRequest[];
  /** Adds or replaces the handler of `"METHOD /path"`. */
  on(route: string, handler: FakeHandler): void;
  /** The requests to one route. */
  calls(route: string): FakeRequest[];
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * The network under the web app: a stub of the global `fetch` that answers
 * routes keyed `"METHOD /path"`. The app's own HTTP client, session, hooks and
 * toasts all run for real; only the server is fake. Undone by
 * `vi.unstubAllGlobals()` (called after every test in setup.ts).
 */
export function fakeApi(routes: Record<string, FakeHandler> = {}): FakeApi {
  const handlers = new Map(Object.entries(routes));
  const requests: FakeRequest[] = [];
  const unhandled: FakeRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const raw = init.body;
    let body: unknown;
    if (typeof raw === 'string') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        body = raw;
      }
    } else body = raw ?? undefined;
    const request: FakeRequest = { method: (init.method ?? 'GET').toUpperCase(), path: url.pathname, query: url.searchParams, headers: new Headers(init.headers), body };
    requests.push(request);
    const handler = handlers.get(`${request.method} ${request.path}`);
    if (!handler) {
      unhandled.push(request);
      return json({ error: 'ERR_NOT_FOUND' }, 404);
    }
    const answer = await handler(request);
    return answer instanceof Response ? answer : json(answer ?? null);
  });
  return {
    requests,
    unhandled,
    on: (route, handler) => handlers.set(route, handler),
    calls: (route) => requests.filter((request) => `${request.method} ${request.path}` === route),
  };
}
