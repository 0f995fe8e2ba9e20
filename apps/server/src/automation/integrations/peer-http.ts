import { outboundFetch, OutboundNetworkError, OutboundRefusedError, type OutboundPolicy } from '../../platform/http/outbound.js';

/**
 * Calls to the peers the automation talks to (Typebot, webhooks, Dialogflow,
 * OpenAI) through the outbound helper and a time budget. Anything but a 2xx
 * answer within the budget is a PeerError: the caller answers the customer and
 * hands the ticket to the agents. Each caller names the policy: a URL a tenant
 * typed goes through the deployment's (no internal addresses), an operator's
 * base URL through TRUSTED_OUTBOUND.
 */
export class PeerError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    /** Set when the outbound policy refused the address (logged as such). */
    readonly refused = false,
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
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | FormData | URLSearchParams;
    timeoutMs: number;
    outbound: OutboundPolicy;
  },
): Promise<PeerResponse> {
  let response: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    response = await outboundFetch(init.outbound, url, { method: init.method ?? 'POST', headers: init.headers, body: init.body, timeoutMs: init.timeoutMs });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new PeerError(`refused outgoing call: ${error.message}`, null, true);
    if (error instanceof OutboundNetworkError && error.timedOut) throw new PeerError(`no answer from ${new URL(url).host} within ${init.timeoutMs} ms`);
    if (error instanceof OutboundNetworkError) throw new PeerError(error.message);
    throw new PeerError(`cannot reach ${new URL(url).host}`);
  }
  const { text } = response;
  const host = new URL(response.url).host;
  if (response.status < 200 || response.status > 299) throw new PeerError(`${host} answered ${response.status}`, response.status);
  let json: unknown = null;
  if (text && String(response.headers['content-type'] ?? '').includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new PeerError(`${host} answered invalid JSON`, response.status);
    }
  }
  return { status: response.status, json, text };
}

export function postJson(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; timeoutMs: number; outbound: OutboundPolicy },
): Promise<PeerResponse> {
  return callPeer(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
    outbound: options.outbound,
  });
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
