import { createRequestTurns } from './request-turns';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly data: Record<string, unknown> = {},
    /** The server's id of the request (`X-Request-Id`): the error toast shows it so a user can quote it. */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** The request id the server answered with, when it is one we can show. */
export function requestIdOf(response: Response): string | undefined {
  const id = response.headers.get('x-request-id');
  return id && /^[\w.-]{1,64}$/.test(id) ? id : undefined;
}

export interface HttpClientOptions {
  baseUrl?: string;
  getToken(): string | null;
  setToken(token: string): void;
  /** A 401, a repeated 403 or a failed refresh ends the session. */
  onSessionEnd(): void;
  fetchImpl?: typeof fetch;
}

interface RequestOptions {
  params?: Record<string, unknown>;
  body?: unknown;
}

export interface HttpClient {
  get<T>(url: string, params?: Record<string, unknown>): Promise<T>;
  /** A GET whose response headers matter too (e.g. `x-has-more` of `GET /invoices/all`). */
  getWithHeaders<T>(url: string, params?: Record<string, unknown>): Promise<{ data: T; headers: Headers }>;
  post<T>(url: string, body?: unknown): Promise<T>;
  put<T>(url: string, body?: unknown): Promise<T>;
  delete<T>(url: string): Promise<T>;
  request<T>(method: string, url: string, options?: RequestOptions): Promise<T>;
  /** One refresh at a time: concurrent callers share it (spec part 1 §7). */
  refresh(): Promise<string>;
  /** Told of every new access token from a refresh (the socket sends it on); answers an unsubscribe. */
  onTokenRefreshed(listener: (token: string) => void): () => void;
}

function withParams(url: string, params?: Record<string, unknown>): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const query = search.toString();
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The API client: bearer token on every request, cookies included (the refresh
 * token lives in one). A first 403 means an expired access token: refresh once,
 * retry once. A 401, a second 403 or a failed refresh ends the session.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const base = options.baseUrl ?? '';
  let refreshing: Promise<string> | null = null;
  const turns = createRequestTurns();
  const tokenListeners = new Set<(token: string) => void>();

  const refresh = (): Promise<string> => {
    refreshing ??= (async () => {
      try {
        const response = await fetchImpl(`${base}/auth/refresh_token`, { method: 'POST', credentials: 'include', headers: { accept: 'application/json' } });
        if (!response.ok) throw new ApiError(response.status, 'ERR_SESSION_EXPIRED', 'ERR_SESSION_EXPIRED', {}, requestIdOf(response));
        const { token } = (await response.json()) as { token: string };
        options.setToken(token);
        for (const listener of tokenListeners) listener(token);
        return token;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  };

  const send = async <T>(method: string, url: string, requestOptions: RequestOptions = {}, retried = false): Promise<{ data: T; headers: Headers }> => {
    await turns.take();
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (requestOptions.body instanceof FormData) body = requestOptions.body;
    else if (requestOptions.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(requestOptions.body);
    }
    const response = await fetchImpl(`${base}${withParams(url, requestOptions.params)}`, { method, headers, body, credentials: 'include' });
    const isAuthRoute = url.startsWith('/auth/login') || url.startsWith('/auth/refresh_token');
    const data = await readBody(response);
    // Only an expired token is worth a refresh; a 403 for a missing permission is an answer.
    const expired = response.status === 403 && isExpiredToken(data);
    if (expired && !retried && !isAuthRoute) {
      try {
        await refresh();
      } catch (error) {
        options.onSessionEnd();
        throw error;
      }
      return send<T>(method, url, requestOptions, true);
    }
    if (!response.ok) {
      if (!isAuthRoute && (response.status === 401 || expired)) options.onSessionEnd();
      const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
      const code = typeof record.error === 'string' ? record.error : undefined;
      const message = typeof record.message === 'string' ? record.message : typeof data === 'string' ? data : code ?? response.statusText;
      throw new ApiError(response.status, code, message, record, requestIdOf(response));
    }
    return { data: data as T, headers: response.headers };
  };
  const request = async <T>(method: string, url: string, requestOptions: RequestOptions = {}): Promise<T> => (await send<T>(method, url, requestOptions)).data;

  return {
    request: (method, url, requestOptions) => request(method, url, requestOptions),
    get: (url, params) => request('GET', url, { params }),
    getWithHeaders: (url, params) => send('GET', url, { params }),
    post: (url, body) => request('POST', url, { body }),
    put: (url, body) => request('PUT', url, { body }),
    delete: (url) => request('DELETE', url),
    refresh,
    onTokenRefreshed(listener) {
      tokenListeners.add(listener);
      return () => tokenListeners.delete(listener);
    },
  };
}

/** A 403 that is still about the token after a refresh (not a permission refusal). */
function isExpiredToken(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { error?: unknown }).error === 'ERR_SESSION_EXPIRED';
}
