/**
 * A local fake PSP: the subset of Efí's Pix API that efi-pix.provider.ts uses, in memory,
 * as a Fastify plugin. Tests drive the real provider against it over HTTP, and a server
 * without a real PSP can embed it.
 *
 * Receiver's side (Efí's shapes): POST /oauth/token, PUT and GET /v2/cob/:txid,
 * GET /v2/loc/:id, GET /v2/loc/:id/qrcode, PUT /v2/webhook/:chave, and refunds with
 * PUT /v2/pix/:e2eId/devolucao/:id (settled at once: DEVOLVIDO). Charges get a
 * dynamic BR Code whose field 26/25 is the charge's location URL.
 *
 * Payer's side, which no real PSP API has: POST /pay with `{ pixCopiaECola, amount? }`
 * pays the charge the code points to (with `amount`, a wrong amount can be paid), and
 * posts the notification to the registered webhook URL + '/pix', as Efí does.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { buildPixBrCode, parseBrCode, parsePixAmount } from './brcode.js';
import type { PixChargeStatus } from './payment-provider.js';

export interface FakePspOptions {
  /** Where the routes are mounted, e.g. '/fake-psp'. */
  prefix: string;
  clientId: string;
  clientSecret: string;
  /** Receiver's name and city in the BR Codes. */
  merchantName: string;
  merchantCity: string;
  /** Used to deliver webhook notifications; global fetch by default. */
  fetchImpl?: typeof fetch;
  logger?: { warn(...args: unknown[]): void };
  /** Lifetime of issued access tokens (expires_in); 3600 by default. */
  tokenTtlSeconds?: number;
}

/** A handle on the fake PSP's state, for tests. */
export interface FakePsp {
  /** Every issued access token stops working (API calls answer 401 until a new token is fetched). */
  revokeTokens(): void;
}

interface PixRefund {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao: string };
  status: 'DEVOLVIDO';
}

interface PixReceived {
  endToEndId: string;
  txid: string;
  valor: string;
  chave: string;
  horario: string;
  devolucoes?: PixRefund[];
}

interface FakeCharge {
  txid: string;
  chave: string;
  original: string;
  expiracao: number;
  criacao: Date;
  solicitacaoPagador: string | undefined;
  status: PixChargeStatus;
  locId: number;
  location: string;
  pixCopiaECola: string;
  pix: PixReceived[];
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const WEBHOOK_TIMEOUT_MS = 5_000;

const CobBody = z.object({
  calendario: z.object({ expiracao: z.number().int().positive() }).optional(),
  valor: z.object({ original: z.string() }),
  chave: z.string().min(1).max(77),
  solicitacaoPagador: z.string().max(140).optional(),
});
const WebhookBody = z.object({ webhookUrl: z.string().min(1) });
const TokenBody = z.object({ grant_type: z.literal('client_credentials') });
const RefundBody = z.object({ valor: z.string() });
const REFUND_ID = /^[a-zA-Z0-9]{1,35}$/;
const PayBody = z.object({ pixCopiaECola: z.string().min(1), amount: z.string().optional() });

function pspError(reply: FastifyReply, status: number, nome: string, mensagem: string): FastifyReply {
  return reply.status(status).send({ nome, mensagem });
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** 'E' + ISPB (8 digits) + yyyyMMddHHmm + 11 random characters: the 32-character end-to-end id format. */
function endToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const tail = Array.from(randomBytes(11), (byte) => alphabet[byte % alphabet.length]).join('');
  return `E99999999${stamp}${tail}`;
}

export async function registerFakePsp(app: FastifyInstance, options: FakePspOptions): Promise<FakePsp> {
  const prefix = options.prefix.replace(/\/+$/, '');
  const fetchImpl = options.fetchImpl ?? fetch;
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
  const warn = (message: string, error: unknown): void => {
    if (options.logger) options.logger.warn(message, error);
    else app.log.warn({ err: error }, message);
  };

  const tokens = new Map<string, number>();
  const charges = new Map<string, FakeCharge>();
  const byLocation = new Map<string, FakeCharge>();
  const byLocId = new Map<number, FakeCharge>();
  const webhooks = new Map<string, string>();
  let nextLocId = 1;

  const cobView = (charge: FakeCharge): Record<string, unknown> => ({
    calendario: { criacao: charge.criacao.toISOString(), expiracao: charge.expiracao },
    txid: charge.txid,
    revisao: 0,
    loc: { id: charge.locId, location: charge.location, tipoCob: 'cob', criacao: charge.criacao.toISOString() },
    location: charge.location,
    status: charge.status,
    valor: { original: charge.original },
    chave: charge.chave,
    ...(charge.solicitacaoPagador ? { solicitacaoPagador: charge.solicitacaoPagador } : {}),
    pixCopiaECola: charge.pixCopiaECola,
    ...(charge.pix.length ? { pix: charge.pix } : {}),
  });

  /** onRequest hook of the API routes: a bearer token this fake issued and that has not expired. */
  async function requireBearer(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    const expiresAt = scheme?.toLowerCase() === 'bearer' && token ? tokens.get(token) : undefined;
    if (expiresAt === undefined || expiresAt <= Date.now()) {
      return pspError(reply, 401, 'nao_autorizado', 'Token de acesso ausente, inválido ou expirado');
    }
    return undefined;
  }

  async function notify(charge: FakeCharge, pix: PixReceived): Promise<number> {
    const url = webhooks.get(charge.chave);
    if (!url) return 0;
    const target = `${url.replace(/\/+$/, '')}/pix`;
    try {
      const response = await fetchImpl(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pix: [{ endToEndId: pix.endToEndId, txid: pix.txid, chave: pix.chave, valor: pix.valor, horario: pix.horario }] }),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      warn(`fake PSP: webhook delivery to ${target} failed`, error);
      return 0;
    }
  }

  await app.register(
    async (scope) => {
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const status = error.statusCode ?? 500;
        return pspError(reply, status, status < 500 ? 'json_invalido' : 'erro_interno', error.message);
      });

      scope.post('/oauth/token', async (request, reply) => {
        const [scheme, encoded] = (request.headers.authorization ?? '').split(' ');
        const decoded = scheme?.toLowerCase() === 'basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
        const colon = decoded.indexOf(':');
        const valid = colon > 0 && sameSecret(decoded.slice(0, colon), options.clientId) && sameSecret(decoded.slice(colon + 1), options.clientSecret);
        if (!valid) return reply.status(401).send({ error: 'invalid_client', error_description: 'Credenciais inválidas ou inativas' });
        if (!TokenBody.safeParse(request.body).success) {
          return reply.status(400).send({ error: 'unsupported_grant_type', error_description: 'grant_type deve ser client_credentials' });
        }
        const accessToken = randomBytes(24).toString('base64url');
        tokens.set(accessToken, Date.now() + tokenTtlSeconds * 1000);
        return { access_token: accessToken, token_type: 'Bearer', expires_in: tokenTtlSeconds, scope: 'cob.write cob.read webhook.write' };
      });

      scope.put<{ Params: { txid: string } }>('/v2/cob/:txid', { onRequest: requireBearer }, async (request, reply) => {
        const { txid } = request.params;
        if (!TXID.test(txid)) return pspError(reply, 400, 'txid_invalido', 'O txid deve ter de 26 a 35 caracteres [a-zA-Z0-9]');
        const body = CobBody.safeParse(request.body);
        if (!body.success) return pspError(reply, 400, 'json_invalido', z.prettifyError(body.error));
        const cents = parsePixAmount(body.data.valor.original);
        if (cents === null || cents <= 0) return pspError(reply, 400, 'json_invalido', 'valor.original deve ser um decimal positivo com 2 casas');
        if (charges.has(txid)) return pspError(reply, 400, 'txid_duplicado', 'Campo txid informado já foi utilizado em outra cobrança');

        const locId = nextLocId++;
        const location = `${request.host}${prefix}/v2/loc/${locId}`;
        const charge: FakeCharge = {
          txid,
          chave: body.data.chave,
          original: body.data.valor.original,
          expiracao: body.data.calendario?.expiracao ?? 86_400,
          criacao: new Date(),
          solicitacaoPagador: body.data.solicitacaoPagador,
          status: 'ATIVA',
          locId,
          location,
          pixCopiaECola: buildPixBrCode({ url: location, merchantName: options.merchantName, merchantCity: options.merchantCity, singleUse: true }),
          pix: [],
        };
        charges.set(txid, charge);
        byLocation.set(location, charge);
        byLocId.set(locId, charge);
        return reply.status(201).send(cobView(charge));
      });

      scope.get<{ Params: { txid: string } }>('/v2/cob/:txid', { onRequest: requireBearer }, async (request, reply) => {
        const charge = charges.get(request.params.txid);
        if (!charge) return pspError(reply, 404, 'cobranca_nao_encontrada', 'Nenhuma cobrança encontrada para o txid informado');
        return cobView(charge);
      });

      scope.get<{ Params: { id: string } }>('/v2/loc/:id', { onRequest: requireBearer }, async (request, reply) => {
        const charge = byLocId.get(Number(request.params.id));
        if (!charge) return pspError(reply, 404, 'location_nao_encontrada', 'Nenhuma location encontrada para o id informado');
        return { id: charge.locId, location: charge.location, tipoCob: 'cob', criacao: charge.criacao.toISOString(), txid: charge.txid };
      });

      scope.get<{ Params: { id: string } }>('/v2/loc/:id/qrcode', { onRequest: requireBearer }, async (request, reply) => {
        const charge = byLocId.get(Number(request.params.id));
        if (!charge) return pspError(reply, 404, 'location_nao_encontrada', 'Nenhuma location encontrada para o id informado');
        return { qrcode: charge.pixCopiaECola };
      });

      // A refund of a received Pix (BCB's API Pix: the receiver asks for it), up to what is left of it.
      scope.put<{ Params: { e2eId: string; id: string } }>('/v2/pix/:e2eId/devolucao/:id', { onRequest: requireBearer }, async (request, reply) => {
        const { e2eId, id } = request.params;
        if (!REFUND_ID.test(id)) return pspError(reply, 400, 'id_invalido', 'O id da devolução deve ter de 1 a 35 caracteres [a-zA-Z0-9]');
        const body = RefundBody.safeParse(request.body);
        const cents = body.success ? parsePixAmount(body.data.valor) : null;
        if (!body.success || cents === null || cents <= 0) return pspError(reply, 400, 'json_invalido', 'valor deve ser um decimal positivo com 2 casas');
        const pix = [...charges.values()].flatMap((charge) => charge.pix).find((received) => received.endToEndId === e2eId);
        if (!pix) return pspError(reply, 404, 'pix_nao_encontrado', 'Nenhum Pix recebido com o e2eId informado');
        const refunded = (pix.devolucoes ?? []).reduce((sum, refund) => sum + (parsePixAmount(refund.valor) ?? 0), 0);
        if (refunded + cents > (parsePixAmount(pix.valor) ?? 0)) return pspError(reply, 400, 'valor_devolucao_excede', 'A soma das devoluções excede o valor do Pix');
        const now = new Date().toISOString();
        const refund: PixRefund = { id, rtrId: `D${e2eId.slice(1)}`, valor: body.data.valor, horario: { solicitacao: now, liquidacao: now }, status: 'DEVOLVIDO' };
        pix.devolucoes = [...(pix.devolucoes ?? []), refund];
        return reply.status(201).send(refund);
      });

      scope.put<{ Params: { chave: string } }>('/v2/webhook/:chave', { onRequest: requireBearer }, async (request, reply) => {
        const body = WebhookBody.safeParse(request.body);
        const url = body.success && URL.canParse(body.data.webhookUrl) ? new URL(body.data.webhookUrl) : null;
        if (!body.success || !url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
          return pspError(reply, 400, 'webhook_invalido', 'webhookUrl deve ser uma URL http(s)');
        }
        webhooks.set(request.params.chave, body.data.webhookUrl);
        return { webhookUrl: body.data.webhookUrl, chave: request.params.chave, criacao: new Date().toISOString() };
      });

      scope.post('/pay', async (request, reply) => {
        const body = PayBody.safeParse(request.body);
        if (!body.success) return pspError(reply, 400, 'json_invalido', z.prettifyError(body.error));
        const code = parseBrCode(body.data.pixCopiaECola);
        if (!code.ok) return pspError(reply, 400, 'brcode_invalido', code.error);
        if (code.url === null) return pspError(reply, 400, 'brcode_invalido', 'Não é um BR Code dinâmico (sem URL de location)');
        const charge = byLocation.get(code.url);
        if (!charge) return pspError(reply, 404, 'cobranca_nao_encontrada', 'Nenhuma cobrança para esta location');
        if (charge.status !== 'ATIVA') return pspError(reply, 409, 'cobranca_nao_ativa', `A cobrança está ${charge.status}`);
        if (Date.now() > charge.criacao.getTime() + charge.expiracao * 1000) return pspError(reply, 409, 'cobranca_expirada', 'A cobrança expirou');
        const valor = body.data.amount ?? charge.original;
        const cents = parsePixAmount(valor);
        if (cents === null || cents <= 0) return pspError(reply, 400, 'json_invalido', 'amount deve ser um decimal positivo com 2 casas');

        const now = new Date();
        const pix: PixReceived = { endToEndId: endToEndId(now), txid: charge.txid, valor, chave: charge.chave, horario: now.toISOString() };
        charge.status = 'CONCLUIDA';
        charge.pix.push(pix);
        const webhookStatus = await notify(charge, pix);
        return { status: 'CONCLUIDA', txid: charge.txid, endToEndId: pix.endToEndId, webhookStatus };
      });
    },
    { prefix },
  );

  return {
    revokeTokens: () => tokens.clear(),
  };
}
