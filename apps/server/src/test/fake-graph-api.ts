import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string }[];
}

interface SentRecord {
  phoneNumberId: string;
  body: Record<string, unknown>;
}

export interface FakeGraphApi {
  /** e.g. http://127.0.0.1:1234/v21.0 */
  baseUrl: string;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  templates: FakeTemplate[];
  /** Messages and read receipts posted to /{phone-number-id}/messages, in order. */
  sent: SentRecord[];
  /** The messages of `sent`, without the read receipts (which the server posts at its own pace). */
  sends(): SentRecord[];
  uploads: { id: string; mimeType: string; size: number }[];
  /** Media a customer "sent": downloadable by id. */
  addMedia(data: Buffer, mimeType: string): string;
  /** A group the business phone is in (Meta's Groups API): its id, whose info answers the subject. */
  addGroup(subject: string): string;
  /** The next `times` requests whose path contains `pathPart` answer 500. */
  failNext(pathPart: string, times: number): void;
  /** The next `times` sends (POST /{phone-number-id}/messages, not read receipts) answer Meta's error `code` with `status`. */
  failSends(code: number, times: number, status?: number): void;
  /** The next `times` sends are taken (recorded, as Meta would deliver them) but never answered: the connection drops. */
  dropAnswers(times: number): void;
  /** The access token stops working (expired or revoked): every call answers 401 with code 190. */
  revokeToken(): void;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Meta's webhook body for one phone number of a WABA: each value becomes a change of the
 * `messages` field, with the metadata naming the number.
 */
export function webhookEnvelope(target: { wabaId: string; phoneNumberId: string }, values: Record<string, unknown>[]) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: target.wabaId,
        changes: values.map((value) => ({
          field: 'messages',
          value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '551140000000', phone_number_id: target.phoneNumberId }, ...value },
        })),
      },
    ],
  };
}

/** The `messages` change of one customer's text (Meta's shape: the contact's profile, then the message). */
export function customerTextValue(from: string, id: string, body: string, timestamp = Math.floor(Date.now() / 1000), name = `Cliente ${from.slice(-3)}`) {
  return { contacts: [{ wa_id: from, profile: { name } }], messages: [{ from, id, timestamp: String(timestamp), type: 'text', text: { body } }] };
}

/** `X-Hub-Signature-256` of a raw webhook body: HMAC-SHA256 under the app secret, as Meta signs it. */
export function metaSignature(raw: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** Meta's error object (Graph API "Handling errors"): a send's refusal also names the details under `error_data`. */
function graphError(response: ServerResponse, status: number, code: number, message: string, details?: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  const errorData = details ? { error_data: { messaging_product: 'whatsapp', details } } : {};
  response.end(JSON.stringify({ error: { message, type: 'OAuthException', code, ...errorData, fbtrace_id: randomBytes(6).toString('hex') } }));
}

function json(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A local stand-in for the Graph API endpoints the Cloud API channel uses, after
 * Meta's public WhatsApp Cloud API reference: send messages and read receipts
 * (`POST /{phone-number-id}/messages`), upload media (`POST /{phone-number-id}/media`),
 * media URL and download (`GET /{media-id}`, then the returned URL with the same
 * bearer), message templates (`GET /{waba-id}/message_templates`, paged) and the
 * phone number (`GET /{phone-number-id}`) and group info (`GET /{group-id}`). Every call
 * needs the bearer token; a send to a group (`recipient_type: 'group'`) must name a known one.
 */
export async function startFakeGraphApi(options: { outsideWindow?: Set<string> } = {}): Promise<FakeGraphApi> {
  const phoneNumberId = String(100_000_000_000 + Math.floor(Math.random() * 1e9));
  const wabaId = String(200_000_000_000 + Math.floor(Math.random() * 1e9));
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const media = new Map<string, { data: Buffer; mimeType: string }>();
  const groups = new Map<string, string>();
  const failures: { pathPart: string; remaining: number }[] = [];
  const sendFailures: { code: number; status: number; remaining: number }[] = [];
  let revoked = false;
  let unanswered = 0;
  let counter = 0;

  const state: Omit<FakeGraphApi, 'baseUrl' | 'close'> = {
    phoneNumberId,
    wabaId,
    accessToken,
    templates: [],
    sent: [],
    sends() {
      return state.sent.filter((record) => record.body.status !== 'read');
    },
    uploads: [],
    requests: [],
    addMedia(data, mimeType) {
      const id = String(300_000_000_000 + ++counter);
      media.set(id, { data, mimeType });
      return id;
    },
    addGroup(subject) {
      // Meta's group ids are opaque base64-like strings (letters and digits), not phone numbers.
      const id = Buffer.from(`capi_group:${phoneNumberId}:${120_363_000_000_000_000n + BigInt(++counter)}`).toString('base64').replace(/[^A-Za-z0-9]/g, '');
      groups.set(id, subject);
      return id;
    },
    failNext(pathPart, times) {
      failures.push({ pathPart, remaining: times });
    },
    failSends(code, times, status = 400) {
      sendFailures.push({ code, status, remaining: times });
    },
    dropAnswers(times) {
      unanswered += times;
    },
    revokeToken() {
      revoked = true;
    },
  };

  let base = '';
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      state.requests.push(`${request.method} ${url.pathname}`);
      if (revoked || request.headers.authorization !== `Bearer ${accessToken}`) return graphError(response, 401, 190, 'Error validating access token: Session has expired.');
      const failure = failures.find((f) => f.remaining > 0 && url.pathname.includes(f.pathPart));
      if (failure) {
        failure.remaining -= 1;
        return graphError(response, 500, 2, 'An unexpected error has occurred. Please retry your request later.');
      }
      const parts = url.pathname.replace(/^\/v[\d.]+\//, '').split('/').filter(Boolean);

      if (parts[0] === 'download' && parts[1]) {
        const file = media.get(parts[1]);
        if (!file) return graphError(response, 404, 100, 'Unknown media');
        response.writeHead(200, { 'content-type': file.mimeType });
        return response.end(file.data);
      }
      if (parts[0] === phoneNumberId && parts[1] === 'messages' && request.method === 'POST') {
        const body = JSON.parse((await readBody(request)).toString('utf8')) as Record<string, unknown>;
        if (body.messaging_product !== 'whatsapp') return graphError(response, 400, 100, 'Invalid parameter');
        state.sent.push({ phoneNumberId, body });
        if (body.status === 'read') return json(response, { success: true });
        const to = String(body.to ?? '');
        const sendFailure = sendFailures.find((f) => f.remaining > 0);
        if (sendFailure) {
          sendFailure.remaining -= 1;
          return graphError(response, sendFailure.status, sendFailure.code, `(#${sendFailure.code}) Error ${sendFailure.code}`, `Details of error ${sendFailure.code}`);
        }
        if (body.recipient_type === 'group' && !groups.has(to)) return graphError(response, 400, 100, 'Invalid parameter', `Unknown group ${to}`);
        if (body.type !== 'template' && options.outsideWindow?.has(to)) {
          return graphError(response, 400, 131047, 'Re-engagement message');
        }
        if (unanswered > 0) {
          unanswered -= 1;
          return request.socket.destroy();
        }
        // Meta adds `message_status` for some sends (templates: accepted, held_for_quality_assessment, paused).
        const status = body.type === 'template' ? { message_status: 'accepted' } : {};
        return json(response, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: `wamid.FAKE${++counter}`, ...status }] });
      }
      if (parts[0] === phoneNumberId && parts[1] === 'media' && request.method === 'POST') {
        const raw = await readBody(request);
        const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': request.headers['content-type'] ?? '' } }).formData();
        const file = form.get('file');
        if (form.get('messaging_product') !== 'whatsapp' || !(file instanceof Blob)) return graphError(response, 400, 100, 'Invalid parameter');
        const id = state.addMedia(Buffer.from(await file.arrayBuffer()), file.type);
        state.uploads.push({ id, mimeType: file.type, size: file.size });
        return json(response, { id });
      }
      if (parts[0] === phoneNumberId && parts.length === 1 && request.method === 'GET') {
        return json(response, { display_phone_number: '+55 11 4000-0000', verified_name: 'Atende Test', id: phoneNumberId });
      }
      if (parts[0] === wabaId && parts[1] === 'message_templates' && request.method === 'GET') {
        const limit = Number(url.searchParams.get('limit') ?? 25);
        const after = Number(url.searchParams.get('after') ?? 0);
        const page = state.templates.slice(after, after + limit);
        const next = after + limit < state.templates.length ? `${base}/${wabaId}/message_templates?limit=${limit}&after=${after + limit}` : undefined;
        return json(response, { data: page, paging: { cursors: { before: String(after), after: String(after + page.length) }, ...(next ? { next } : {}) } });
      }
      if (parts.length === 1 && parts[0] && groups.has(parts[0]) && request.method === 'GET') {
        return json(response, { id: parts[0], subject: groups.get(parts[0]) });
      }
            if (parts.length === 1 && parts[0] && media.has(parts[0]) && request.method === 'GET') {
        const file = media.get(parts[0]);
        if (!file) return graphError(response, 404, 100, 'Unknown media');
        return json(response, {
          messaging_product: 'whatsapp',
          url: `${base}/download/${parts[0]}`,
          mime_type: file.mimeType,
          sha256: createHash('sha256').update(file.data).digest('hex'),
          file_size: file.data.length,
          id: parts[0],
        });
      }
      return graphError(response, 404, 100, `Unsupported request: ${request.method} ${url.pathname}`);
    })().catch(() => {
      if (!response.headersSent) graphError(response, 500, 1, 'fake failed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/v21.0`;
  return Object.assign(state, {
    baseUrl: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
