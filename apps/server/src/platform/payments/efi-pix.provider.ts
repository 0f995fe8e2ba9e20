/**
 * A PaymentProvider that speaks Efí's Pix API (formerly Gerencianet; the Banco Central
 * do Brasil's "API Pix" as Efí exposes it), for Efí itself and for the local fake PSP
 * (fake-psp.ts), which implements the same subset:
 *
 * - POST /oauth/token, HTTP Basic client_id:client_secret, {"grant_type":"client_credentials"}:
 *   an access token, cached until shortly before it expires; an API call answered 401
 *   fetches a new one and is retried once.
 * - PUT /v2/cob/{txid}: creates an immediate charge; GET /v2/cob/{txid} reads it (404: unknown).
 * - GET /v2/loc/{id}/qrcode: the charge's BR Code when the charge itself lacks `pixCopiaECola`.
 * - PUT /v2/webhook/{chave}: where the PSP posts payment notifications ({url}/pix).
 *
 * Amounts are decimal strings with two places on the wire and integer cents here.
 * Requests go through node:http/node:https, so that mutual TLS (a client certificate,
 * which Efí requires on every call) can be configured with an https.Agent.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { z } from 'zod';
import { formatPixAmount, parsePixAmount } from './brcode.js';
import type { CreatePixCharge, PaymentProvider, PixCharge, PixChargeStatus } from './payment-provider.js';

interface EfiPixTlsOptions {
  /** PKCS#12 bundle with the client certificate and key (Efí hands out .p12 files). */
  pfx?: Buffer;
  passphrase?: string;
  /** PEM client certificate and key, as an alternative to `pfx`. */
  cert?: Buffer;
  key?: Buffer;
  /** Extra trusted CA certificates (PEM) for the PSP's server certificate, e.g. a test CA. */
  ca?: Buffer | string;
}

export interface EfiPixProviderOptions {
  /** e.g. https://pix.api.efipay.com.br, or the fake PSP's http://127.0.0.1:3000/fake-psp */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The receiver's Pix key (`chave`) charges are paid to. */
  pixKey: string;
  kind: 'efi' | 'fake';
  /** Client certificate for mutual TLS (pfx, or cert and key), used on every request; needs an https baseUrl. */
  tls?: EfiPixTlsOptions;
  /** Deadline for each HTTP exchange, answer body included; 10 s by default. */
  fetchTimeoutMs?: number;
}

/** The PSP refused a request (`status` is its HTTP status) or could not be reached (`status` 0). */
export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';

  constructor(
    message: string,
    readonly status: number,
    /** The PSP's error name (Efí: `nome`), when it gave one. */
    readonly nome?: string,
    /** The PSP's error text (Efí: `mensagem`), when it gave one. */
    readonly mensagem?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A cached token is dropped this long before the PSP says it expires (at most half its lifetime). */
const TOKEN_MARGIN_MS = 60_000;

const STATUSES = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const satisfies readonly PixChargeStatus[];

const TokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

const CobAnswer = z.object({
  txid: z.string(),
  status: z.enum(STATUSES),
  calendario: z.object({ criacao: z.string(), expiracao: z.number().int().nonnegative() }),
  valor: z.object({ original: z.string() }),
  loc: z.object({ id: z.number().int() }).optional(),
  pixCopiaECola: z.string().min(1).optional(),
  pix: z.array(z.object({ valor: z.string(), devolucoes: z.array(z.object({ valor: z.string(), status: z.string() })).optional() })).optional(),
});

/** Refunds that take money back: done, or under way (a failed one, NAO_REALIZADO, returned nothing). */
const REFUNDING = new Set(['DEVOLVIDO', 'EM_PROCESSAMENTO']);
type CobAnswer = z.infer<typeof CobAnswer>;

const QrCodeAnswer = z.object({ qrcode: z.string().min(1) });

const ErrorAnswer = z.object({
  nome: z.string().optional(),
  mensagem: z.string().optional(),
  // OAuth-style errors from the token endpoint.
  error: z.string().optional(),
  error_description: z.string().optional(),
});

interface Answer {
  status: number;
  body: unknown;
}

interface Exchange {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export function createEfiPixProvider(options: EfiPixProviderOptions): PaymentProvider {
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new TypeError(`PSP base URL must be http or https: ${options.baseUrl}`);
  const tls = options.tls;
  if (tls && base.protocol !== 'https:') throw new TypeError('a client certificate needs an https PSP base URL');
  if (tls && (tls.cert === undefined) !== (tls.key === undefined)) throw new TypeError('a client certificate needs both cert and key');
  const basePath = base.pathname.replace(/\/+$/, '');
  const timeoutMs = options.fetchTimeoutMs ?? 10_000;
  const agent =
    base.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, pfx: tls?.pfx, passphrase: tls?.passphrase, cert: tls?.cert, key: tls?.key, ca: tls?.ca })
      : new HttpAgent({ keepAlive: true });
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');

  function send({ method, path, headers, body }: Exchange): Promise<Answer> {
    const url = new URL(base.origin + basePath + path);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const allHeaders: Record<string, string> = { accept: 'application/json', ...headers };
    if (payload !== undefined) allHeaders['content-type'] = 'application/json';
    const what = `${method} ${path}`;

    return new Promise<Answer>((resolve, reject) => {
      const failed = (error: Error): void => {
        clearTimeout(timer);
        reject(new PaymentProviderError(`PSP unreachable (${what}): ${error.message}`, 0, undefined, undefined, { cause: error }));
      };
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers: allHeaders, agent }, (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) request.destroy(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.on('error', failed);
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString('utf8')) });
        });
      });
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      request.on('error', failed);
      request.end(payload);
    });
  }

  let token: { value: string; expiresAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const answer = await send({
      method: 'POST',
      path: '/oauth/token',
      headers: { authorization: `Basic ${basic}` },
      body: { grant_type: 'client_credentials' },
    });
    if (!isSuccess(answer.status)) throw refusal('POST /oauth/token', answer);
    const parsed = parseAnswer(TokenAnswer, answer, 'POST /oauth/token');
    const lifetimeMs = parsed.expires_in * 1000;
    token = { value: parsed.access_token, expiresAt: Date.now() + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2) };
    return token.value;
  }

  function accessToken(): Promise<string> {
    if (token && Date.now() < token.expiresAt) return Promise.resolve(token.value);
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = null;
    });
    return pendingToken;
  }

  /** An API call with the bearer token; one retry with a fresh token after a 401. Anything but 2xx throws. */
  async function api(method: Exchange['method'], path: string, body?: unknown): Promise<Answer> {
    let bearer = await accessToken();
    let answer = await send({ method, path, headers: { authorization: `Bearer ${bearer}` }, body });
    if (answer.status === 401) {
      if (token?.value === bearer) token = null;
      bearer = await accessToken();
      answer = await send({ method, path, headers: { authorization: `Bearer ${bearer}` }, body });
    }
    if (!isSuccess(answer.status)) throw refusal(`${method} ${path}`, answer);
    return answer;
  }

  /** A charge from a parsed 2xx answer (`status`); malformed values throw PaymentProviderError with that status. */
  async function toCharge(cob: CobAnswer, what: string, status: number): Promise<PixCharge> {
    const amountCents = parsePixAmount(cob.valor.original);
    if (amountCents === null) throw new PaymentProviderError(`PSP answered a malformed amount to ${what}: ${cob.valor.original}`, status);
    let paidCents = 0;
    for (const pix of cob.pix ?? []) {
      const cents = parsePixAmount(pix.valor);
      if (cents === null) throw new PaymentProviderError(`PSP answered a malformed Pix amount to ${what}: ${pix.valor}`, status);
      paidCents += cents;
      for (const refund of pix.devolucoes ?? []) {
        if (!REFUNDING.has(refund.status)) continue;
        const refunded = parsePixAmount(refund.valor);
        if (refunded === null) throw new PaymentProviderError(`PSP answered a malformed refund amount to ${what}: ${refund.valor}`, status);
        paidCents -= refunded;
      }
    }
    const createdAt = new Date(cob.calendario.criacao);
    if (Number.isNaN(createdAt.getTime())) throw new PaymentProviderError(`PSP answered a malformed creation date to ${what}`, status);
    return {
      txid: cob.txid,
      status: cob.status,
      amountCents,
      paidCents,
      copyPaste: cob.pixCopiaECola ?? (await copyPasteOfLocation(cob, what, status)),
      createdAt,
      expiresInSeconds: cob.calendario.expiracao,
    };
  }

  async function copyPasteOfLocation(cob: CobAnswer, what: string, status: number): Promise<string> {
    if (!cob.loc) throw new PaymentProviderError(`PSP answered a charge with neither pixCopiaECola nor loc to ${what}`, status);
    const path = `/v2/loc/${cob.loc.id}/qrcode`;
    const answer = await api('GET', path);
    return parseAnswer(QrCodeAnswer, answer, `GET ${path}`).qrcode;
  }

  async function getPixCharge(txid: string): Promise<PixCharge | null> {
    assertTxid(txid);
    const path = `/v2/cob/${txid}`;
    let answer: Answer;
    try {
      answer = await api('GET', path);
    } catch (error) {
      if (error instanceof PaymentProviderError && error.status === 404) return null;
      throw error;
    }
    return toCharge(parseAnswer(CobAnswer, answer, `GET ${path}`), `GET ${path}`, answer.status);
  }

  async function createPixCharge(input: CreatePixCharge): Promise<PixCharge> {
    assertTxid(input.txid);
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
    if (!Number.isSafeInteger(input.expiresInSeconds) || input.expiresInSeconds <= 0) throw new RangeError('expiresInSeconds must be a positive integer');
    if (input.description.length > 140) throw new RangeError('description must hold at most 140 characters');
    const path = `/v2/cob/${input.txid}`;
    const body = {
      calendario: { expiracao: input.expiresInSeconds },
      valor: { original: formatPixAmount(input.amountCents) },
      chave: options.pixKey,
      ...(input.description ? { solicitacaoPagador: input.description } : {}),
    };
    try {
      const answer = await api('PUT', path, body);
      return await toCharge(parseAnswer(CobAnswer, answer, `PUT ${path}`), `PUT ${path}`, answer.status);
    } catch (error) {
      // A retry after a lost answer: the charge exists already. The same charge is fine; another is not.
      if (!(error instanceof PaymentProviderError) || error.nome !== 'txid_duplicado') throw error;
      const existing = await getPixCharge(input.txid);
      if (!existing || existing.amountCents !== input.amountCents) throw error;
      return existing;
    }
  }

  async function registerWebhook(url: string): Promise<void> {
    const target = new URL(url);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new RangeError('webhook URL must be http or https');
    await api('PUT', `/v2/webhook/${encodeURIComponent(options.pixKey)}`, { webhookUrl: url });
  }

  return { kind: options.kind, createPixCharge, getPixCharge, registerWebhook };
}

function assertTxid(txid: string): void {
  if (!TXID.test(txid)) throw new RangeError('txid must be 26 to 35 characters [a-zA-Z0-9]');
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function parseAnswer<T>(schema: z.ZodType<T>, answer: Answer, what: string): T {
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    throw new PaymentProviderError(`PSP answered ${what} with an unexpected body: ${z.prettifyError(parsed.error)}`, answer.status);
  }
  return parsed.data;
}

function refusal(what: string, answer: Answer): PaymentProviderError {
  const parsed = ErrorAnswer.safeParse(answer.body);
  const details = parsed.success ? parsed.data : {};
  const nome = details.nome ?? details.error;
  const mensagem = details.mensagem ?? details.error_description;
  const reason = [nome, mensagem].filter(Boolean).join(': ');
  return new PaymentProviderError(`PSP answered ${answer.status} to ${what}${reason ? ` (${reason})` : ''}`, answer.status, nome, mensagem);
}
