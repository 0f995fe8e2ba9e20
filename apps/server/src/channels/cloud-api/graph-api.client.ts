import type { CloudApiSettings } from '../../modules/connections/cloud-api-settings.js';

/** What Meta's error object says beyond its code: shown with a failed message (`data.failure`). */
export interface GraphErrorDetails {
  title?: string;
  details?: string;
}

/** A Graph API answer other than 2xx (Meta's error object when it sent one). */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly details: GraphErrorDetails = {},
  ) {
    super(message);
  }

  /** Meta's side failed for now (a 5xx, or codes 1, 2 and 131000): the same request may go through later. */
  get transient(): boolean {
    return this.status >= 500 || TRANSIENT_CODES.has(this.code ?? 0);
  }
}

/** Meta's error object (Graph API "Handling errors"; Cloud API error codes). */
interface GraphErrorBody {
  code?: number;
  message?: string;
  type?: string;
  title?: string;
  error_user_title?: string;
  error_user_msg?: string;
  error_data?: { details?: string };
}

function graphError(status: number, body: unknown): GraphApiError {
  const error = (body as { error?: GraphErrorBody } | null)?.error;
  const text = (value: unknown) => (typeof value === 'string' && value ? value.slice(0, 1000) : undefined);
  const title = text(error?.error_user_title) ?? text(error?.title) ?? text(error?.message);
  const details = text(error?.error_data?.details) ?? text(error?.error_user_msg);
  return new GraphApiError(status, typeof error?.code === 'number' ? error.code : null, text(error?.message) ?? `Graph API answered ${status}`, {
    ...(title ? { title } : {}),
    ...(details ? { details } : {}),
  });
}

export interface GraphTemplate {
  id?: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  components?: { type: string; text?: string; format?: string }[];
}

export interface GraphMediaInfo {
  url: string;
  mime_type: string;
  file_size?: number | string;
  sha256?: string;
  id: string;
}

/** Meta's "too many messages" codes: worth waiting for before the send fails. */
const RATE_LIMIT_CODES = new Set([130429, 131056]);
/** Meta's "try again later" codes: 1 (unknown), 2 (service temporarily unavailable), 131000 (something went wrong). */
const TRANSIENT_CODES = new Set([1, 2, 131000]);
const SEND_ATTEMPTS = 3;
const RETRY_BASE_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests to Meta are bounded: a slow Graph API must not hold a request or a job forever. */
const TIMEOUT_MS = 20_000;

/**
 * The few Graph API calls the Cloud API channel makes (Meta's WhatsApp Cloud
 * API reference): send messages, upload and fetch media, list templates, read
 * the phone number. The base URL comes from the connection or GRAPH_API_BASE_URL.
 */
export function createGraphApiClient(settings: CloudApiSettings, fetchImpl: typeof fetch = fetch) {
  const auth = { authorization: `Bearer ${settings.accessToken}` };

  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const url = path.startsWith('http') ? path : `${settings.graphApiBaseUrl}/${path.replace(/^\//, '')}`;
    const response = await fetchImpl(url, { ...init, headers: { ...auth, ...(init.headers ?? {}) }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      body = null;
    }
    if (!response.ok) throw graphError(response.status, body);
    return body as T;
  }

  return {
    /**
     * POST /{phone-number-id}/messages; answers the new message's wamid and its
     * `message_status` when Meta gives one. Meta's rate limit (130429 and its
     * per-pair and spam cousins) and its temporary failures (5xx, codes 1, 2 and
     * 131000) are waited out a few times, with backoff and jitter. A request that
     * got no answer (timeout, connection lost) is not repeated: Meta may have sent it.
     */
    async sendMessage(payload: Record<string, unknown>): Promise<{ id: string; status?: string }> {
      for (let attempt = 1; ; attempt++) {
        try {
          const body = await call<{ messages?: { id: string; message_status?: string }[] }>(`${settings.phoneNumberId}/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...payload }),
          });
          const sent = body?.messages?.[0];
          // A 200 without an id is not retried: Meta may have sent it.
          if (!sent?.id) throw new GraphApiError(200, null, 'Graph API returned no message id');
          return { id: sent.id, ...(sent.message_status ? { status: sent.message_status } : {}) };
        } catch (error) {
          const worthWaiting = error instanceof GraphApiError && (RATE_LIMIT_CODES.has(error.code ?? 0) || error.transient);
          if (!worthWaiting || attempt >= SEND_ATTEMPTS) throw error;
          await sleep(RETRY_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
        }
      }
    },

    async markRead(messageId: string): Promise<void> {
      await call(`${settings.phoneNumberId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', status: 'read', message_id: messageId }),
      });
    },

    /** POST /{phone-number-id}/media (multipart); answers the media id to send. */
    async uploadMedia(data: Buffer, mimeType: string, fileName: string): Promise<string> {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', mimeType);
      form.append('file', new Blob([new Uint8Array(data)], { type: mimeType }), fileName);
      const body = await call<{ id?: string }>(`${settings.phoneNumberId}/media`, { method: 'POST', body: form });
      if (!body?.id) throw new GraphApiError(502, null, 'Graph API returned no media id');
      return body.id;
    },

    /** GET /{media-id}, then the returned URL (which also needs the token). */
    async downloadMedia(mediaId: string): Promise<{ data: Buffer; mimeType: string }> {
      const info = await call<GraphMediaInfo>(encodeURIComponent(mediaId));
      const response = await fetchImpl(info.url, { headers: auth, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!response.ok) throw new GraphApiError(response.status, null, `media download answered ${response.status}`);
      return { data: Buffer.from(await response.arrayBuffer()), mimeType: info.mime_type };
    },

    /** GET /{waba-id}/message_templates, every page. */
    async listTemplates(): Promise<GraphTemplate[]> {
      const templates: GraphTemplate[] = [];
      let next: string | null = `${settings.wabaId}/message_templates?fields=name,language,status,category,components&limit=100`;
      for (let page = 0; next && page < 20; page++) {
        const body: { data?: GraphTemplate[]; paging?: { next?: string } } = await call(next);
        templates.push(...(body?.data ?? []));
        const following = body?.paging?.next ?? null;
        // The token only travels to the Graph API's own host.
        next = following && new URL(following).origin === new URL(settings.graphApiBaseUrl).origin ? following : null;
      }
      return templates;
    },

    /** GET /{phone-number-id}: proves the token works and names the number. */
    /** GET /{group-id}?fields=subject (Meta's Groups API): the group's name. */
    async groupSubject(groupId: string): Promise<string | undefined> {
      const group = await call<{ subject?: unknown } | null>(`${encodeURIComponent(groupId)}?fields=subject`);
      return typeof group?.subject === 'string' && group.subject ? group.subject : undefined;
    },
    async phoneNumber(): Promise<{ display_phone_number?: string; verified_name?: string }> {
      return call(`${settings.phoneNumberId}?fields=display_phone_number,verified_name`);
    },
  };
}

export type GraphApiClient = ReturnType<typeof createGraphApiClient>;
