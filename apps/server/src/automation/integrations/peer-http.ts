/**
 * Calls to the peers the automation talks to (Typebot, webhooks, Dialogflow,
 * OpenAI) with plain `fetch` and a time budget. Anything but a 2xx answer within
 * the budget is a PeerError: the caller answers the customer and hands the
 * ticket to the agents.
 */
export class PeerError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface PeerResponse {
  status: number;
  /** Parsed JSON when the answer was JSON, else null. */
  json: unknown;
  text: string;
}

export async function callPeer(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | FormData | URLSearchParams; timeoutMs: number },
): Promise<PeerResponse> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new PeerError(timedOut ? `no answer from ${new URL(url).host} within ${init.timeoutMs} ms` : `cannot reach ${new URL(url).host}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new PeerError(`answer from ${new URL(url).host} interrupted`, response.status);
  }
  if (!response.ok) throw new PeerError(`${new URL(url).host} answered ${response.status}`, response.status);
  let json: unknown = null;
  if (text && (response.headers.get('content-type') ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new PeerError(`${new URL(url).host} answered invalid JSON`, response.status);
    }
  }
  return { status: response.status, json, text };
}

export function postJson(url: string, body: unknown, options: { headers?: Record<string, string>; timeoutMs: number }): Promise<PeerResponse> {
  return callPeer(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
  });
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
