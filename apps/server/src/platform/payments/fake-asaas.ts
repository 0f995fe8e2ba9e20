/**
 * A local fake of Asaas's API v3: the subset asaas.provider.ts uses, in memory, as a
 * Fastify plugin, built from Asaas's public documentation (docs.asaas.com). Tests drive
 * the real provider against it over HTTP; a server with PIX_PROVIDER=fake mounts it at
 * /fake-asaas, so the browser tests pay through Asaas's shapes without the network.
 *
 * Receiver's side (Asaas's shapes, `access_token` header; each API key is its own
 * account, a key must start with `$aact_`): POST /v3/customers, POST /v3/payments
 * (PIX, BOLETO, CREDIT_CARD; a card is charged at once: CONFIRMED, or 400 with
 * `errors` when refused), GET /v3/payments/:id, GET /v3/payments/:id/pixQrCode,
 * GET /v3/payments/:id/identificationField, GET, POST and PUT /v3/webhooks.
 * Cards: any number that passes Luhn's check is authorised except 4000 0000 0000 0002
 * (refused, as the issuer would); only the last 4 digits are kept, as Asaas shows them.
 *
 * Payer's side, which Asaas has no API for: POST /pay with `{ id }` pays a waiting Pix
 * or boleto (RECEIVED). Every change that means paid is posted to the account's
 * webhooks that listen for it (PAYMENT_CONFIRMED, PAYMENT_RECEIVED), with the
 * webhook's token in the `asaas-access-token` header, as Asaas does.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dayIn, luhnValid, validCpfCnpj } from '@atende/shared';
import { z } from 'zod';
import { buildPixBrCode } from './brcode.js';

export interface FakeAsaasOptions {
  /** Where the routes are mounted, e.g. '/fake-asaas' (the API is then at /fake-asaas/v3). */
  prefix: string;
  merchantName: string;
  merchantCity: string;
  logger?: { warn(...args: unknown[]): void };
}

/** A handle on the fake's state, for tests. */
export interface FakeAsaas {
  /** The payments the fake holds for an API key (what Asaas's dashboard would list). */
  payments(apiKey: string): FakeAsaasPayment[];
  /** Every webhook delivery made, newest last. */
  deliveries(): { url: string; event: string; paymentId: string; status: number }[];
}

interface FakeAsaasPayment {
  object: 'payment';
  id: string;
  customer: string;
  billingType: 'PIX' | 'BOLETO' | 'CREDIT_CARD';
  value: number;
  netValue: number;
  status: string;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
  invoiceUrl: string;
  bankSlipUrl: string | null;
  invoiceNumber: string;
  deleted: boolean;
  dateCreated: string;
  confirmedDate: string | null;
  paymentDate: string | null;
  creditCard: { creditCardNumber: string; creditCardBrand: string; creditCardToken: string } | null;
}

interface Webhook {
  id: string;
  name: string;
  url: string;
  email: string;
  enabled: boolean;
  interrupted: boolean;
  authToken: string;
  sendType: string;
  events: string[];
}

interface Account {
  customers: Map<string, { id: string; name: string; cpfCnpj: string }>;
  payments: Map<string, FakeAsaasPayment>;
  webhooks: Map<string, Webhook>;
}

export const FAKE_ASAAS_DECLINED_CARD = '4000000000000002';
const WEBHOOK_TIMEOUT_MS = 5_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** 1x1 transparent PNG: the fake's stand-in for the QR code image (the payload is what counts). */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const CustomerBody = z.object({ name: z.string().trim().min(1).max(255), cpfCnpj: z.string().min(1) }).loose();
const CardBody = z.object({
  holderName: z.string().trim().min(1),
  number: z.string().regex(/^\d{13,19}$/),
  expiryMonth: z.string().regex(/^(0[1-9]|1[0-2])$/),
  expiryYear: z.string().regex(/^\d{4}$/),
  ccv: z.string().regex(/^\d{3,4}$/),
});
const HolderBody = z.object({
  name: z.string().trim().min(1),
  email: z.string().includes('@'),
  cpfCnpj: z.string().min(11),
  postalCode: z.string().min(8),
  addressNumber: z.string().min(1),
  phone: z.string().min(10),
});
const PaymentBody = z.object({
  customer: z.string().min(1),
  billingType: z.enum(['PIX', 'BOLETO', 'CREDIT_CARD', 'UNDEFINED']),
  value: z.number().positive(),
  dueDate: z.string().regex(DATE),
  description: z.string().max(500).optional(),
  externalReference: z.string().max(100).optional(),
  creditCard: z.unknown().optional(),
  creditCardHolderInfo: z.unknown().optional(),
  remoteIp: z.string().optional(),
});
const WebhookBody = z.object({
  name: z.string().min(1),
  url: z.url(),
  email: z.string().includes('@'),
  enabled: z.boolean(),
  interrupted: z.boolean(),
  authToken: z.string().min(32).max(255).optional(),
  sendType: z.enum(['SEQUENTIALLY', 'NON_SEQUENTIALLY']),
  events: z.array(z.string()).min(1),
});
const PayBody = z.object({ id: z.string().min(1) });

function errors(reply: FastifyReply, status: number, code: string, description: string): FastifyReply {
  return reply.status(status).send({ errors: [{ code, description }] });
}

const digits = (length: number) => Array.from({ length }, () => String(randomInt(10))).join('');
/** Asaas keeps Brasília's calendar: its today, not UTC's (they differ from 00:00 to 03:00 UTC). */
const today = () => dayIn(new Date(), 'America/Sao_Paulo');

export async function registerFakeAsaas(app: FastifyInstance, options: FakeAsaasOptions): Promise<FakeAsaas> {
  const prefix = options.prefix.replace(/\/+$/, '');
  const accounts = new Map<string, Account>();
  const deliveries: { url: string; event: string; paymentId: string; status: number }[] = [];
  const owner = new Map<string, Account>();
  const warn = (message: string, error: unknown): void => {
    if (options.logger) options.logger.warn(message, error);
    else app.log.warn({ err: error }, message);
  };

  const accountOf = (request: FastifyRequest): Account | null => {
    const key = request.headers['access_token'];
    if (typeof key !== 'string' || !key.startsWith('$aact_') || key.length < 16) return null;
    let account = accounts.get(key);
    if (!account) {
      account = { customers: new Map(), payments: new Map(), webhooks: new Map() };
      accounts.set(key, account);
    }
    return account;
  };

  async function deliver(account: Account, event: string, payment: FakeAsaasPayment): Promise<void> {
    for (const hook of account.webhooks.values()) {
      if (!hook.enabled || hook.interrupted || !hook.events.includes(event)) continue;
      let status = 0;
      try {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(hook.authToken ? { 'asaas-access-token': hook.authToken } : {}) },
          body: JSON.stringify({ id: `evt_${randomBytes(16).toString('hex')}`, event, dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19), payment }),
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch (error) {
        warn(`fake Asaas: webhook delivery to ${hook.url} failed`, error);
      }
      deliveries.push({ url: hook.url, event, paymentId: payment.id, status });
    }
  }

  await app.register(
    async (scope) => {
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        const status = error.statusCode ?? 500;
        return errors(reply, status, status < 500 ? 'invalid_request' : 'internal_error', error.message);
      });

      // The API: every route needs an API key; an unknown one is 401 (Asaas answers so).
      await scope.register(
        async (api) => {
          api.decorateRequest('account', null);
          api.addHook('onRequest', async (request, reply) => {
            const account = accountOf(request);
            if (!account) return reply.status(401).send({ errors: [{ code: 'invalid_access_token', description: 'A chave de API informada não pertence a este ambiente' }] });
            (request as FastifyRequest & { account: Account }).account = account;
            return undefined;
          });
          const account = (request: FastifyRequest) => (request as FastifyRequest & { account: Account }).account;

          api.post('/customers', async (request, reply) => {
            const body = CustomerBody.safeParse(request.body);
            if (!body.success) return errors(reply, 400, 'invalid_object', 'Informe nome e CPF/CNPJ do cliente.');
            if (!validCpfCnpj(body.data.cpfCnpj)) return errors(reply, 400, 'invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
            const customer = { id: `cus_${digits(12)}`, name: body.data.name, cpfCnpj: body.data.cpfCnpj.replace(/\D/g, '') };
            account(request).customers.set(customer.id, customer);
            return { object: 'customer', ...customer, dateCreated: today(), deleted: false };
          });

          api.post('/payments', async (request, reply) => {
            const body = PaymentBody.safeParse(request.body);
            if (!body.success) return errors(reply, 400, 'invalid_object', z.prettifyError(body.error));
            const data = body.data;
            const own = account(request);
            if (!own.customers.has(data.customer)) return errors(reply, 400, 'invalid_customer', 'Cliente inexistente.');
            if (data.dueDate < today()) return errors(reply, 400, 'invalid_dueDate', 'A data de vencimento não pode ser anterior à data de hoje.');
            if (data.billingType === 'UNDEFINED') return errors(reply, 400, 'invalid_billingType', 'Esta cópia do Asaas não aceita UNDEFINED.');
            const id = `pay_${randomBytes(8).toString('hex')}`;
            const payment: FakeAsaasPayment = {
              object: 'payment',
              id,
              customer: data.customer,
              billingType: data.billingType,
              value: data.value,
              netValue: data.value,
              status: 'PENDING',
              dueDate: data.dueDate,
              description: data.description ?? null,
              externalReference: data.externalReference ?? null,
              invoiceUrl: `${request.protocol}://${request.host}${prefix}/i/${id}`,
              bankSlipUrl: data.billingType === 'BOLETO' ? `${request.protocol}://${request.host}${prefix}/b/${id}` : null,
              invoiceNumber: digits(8),
              deleted: false,
              dateCreated: today(),
              confirmedDate: null,
              paymentDate: null,
              creditCard: null,
            };
            if (data.billingType === 'CREDIT_CARD' && data.creditCard !== undefined) {
              const card = CardBody.safeParse(data.creditCard);
              const holder = HolderBody.safeParse(data.creditCardHolderInfo);
              if (!card.success) return errors(reply, 400, 'invalid_creditCard', 'Informe os dados do cartão de crédito.');
              if (!holder.success) return errors(reply, 400, 'invalid_creditCardHolderInfo', 'Informe os dados do titular do cartão.');
              if (!data.remoteIp) return errors(reply, 400, 'invalid_remoteIp', 'Informe o IP do comprador (remoteIp).');
              const expiry = Number(card.data.expiryYear) * 12 + Number(card.data.expiryMonth) - 1;
              const now = new Date();
              if (expiry < now.getFullYear() * 12 + now.getMonth()) return errors(reply, 400, 'invalid_creditCard', 'Cartão vencido.');
              if (!luhnValid(card.data.number) || card.data.number === FAKE_ASAAS_DECLINED_CARD) {
                // Refused: Asaas does not keep the payment.
                return errors(reply, 400, 'invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.');
              }
              payment.status = 'CONFIRMED';
              payment.confirmedDate = today();
              payment.creditCard = {
                creditCardNumber: card.data.number.slice(-4),
                creditCardBrand: card.data.number.startsWith('4') ? 'VISA' : card.data.number.startsWith('5') ? 'MASTERCARD' : 'UNKNOWN',
                creditCardToken: randomBytes(16).toString('hex'),
              };
            }
            own.payments.set(id, payment);
            owner.set(id, own);
            // Asaas notifies after it answers.
            if (payment.status === 'CONFIRMED') setImmediate(() => void deliver(own, 'PAYMENT_CONFIRMED', payment));
            return payment;
          });

          api.get<{ Params: { id: string } }>('/payments/:id', async (request, reply) => {
            const payment = account(request).payments.get(request.params.id);
            if (!payment) return errors(reply, 404, 'not_found', 'Cobrança não encontrada.');
            return payment;
          });

          api.get<{ Params: { id: string } }>('/payments/:id/pixQrCode', async (request, reply) => {
            const payment = account(request).payments.get(request.params.id);
            if (!payment) return errors(reply, 404, 'not_found', 'Cobrança não encontrada.');
            if (payment.billingType === 'CREDIT_CARD') return errors(reply, 400, 'invalid_billingType', 'A cobrança não aceita Pix.');
            const location = `${request.host}${prefix}/qr/${payment.id}`;
            return {
              encodedImage: PIXEL_PNG,
              payload: buildPixBrCode({ url: location, merchantName: options.merchantName, merchantCity: options.merchantCity, singleUse: true }),
              expirationDate: `${payment.dueDate} 23:59:59`,
            };
          });

          api.get<{ Params: { id: string } }>('/payments/:id/identificationField', async (request, reply) => {
            const payment = account(request).payments.get(request.params.id);
            if (!payment) return errors(reply, 404, 'not_found', 'Cobrança não encontrada.');
            if (payment.billingType !== 'BOLETO') return errors(reply, 400, 'invalid_billingType', 'A cobrança não é um boleto.');
            // Bank 461 (Asaas), currency 9, then the value in the last 10 digits, as a digitable line ends.
            const value = String(Math.round(payment.value * 100)).padStart(10, '0');
            const line = `4619${digits(33)}${value}`;
            return { identificationField: line, nossoNumero: digits(8), barCode: `4619${digits(30)}${value}` };
          });

          api.get('/webhooks', async (request) => {
            const data = [...account(request).webhooks.values()].map(({ authToken, ...hook }) => ({ ...hook, hasAuthToken: Boolean(authToken) }));
            return { object: 'list', hasMore: false, totalCount: data.length, limit: 100, offset: 0, data };
          });

          api.post('/webhooks', async (request, reply) => {
            const body = WebhookBody.safeParse(request.body);
            if (!body.success) return errors(reply, 400, 'invalid_object', z.prettifyError(body.error));
            const own = account(request);
            if (own.webhooks.size >= 10) return errors(reply, 400, 'invalid_action', 'Limite de 10 webhooks atingido.');
            const hook: Webhook = { id: randomBytes(8).toString('hex'), ...body.data, authToken: body.data.authToken ?? '' };
            own.webhooks.set(hook.id, hook);
            const { authToken, ...shown } = hook;
            return { ...shown, hasAuthToken: Boolean(authToken) };
          });

          api.put<{ Params: { id: string } }>('/webhooks/:id', async (request, reply) => {
            const own = account(request);
            const current = own.webhooks.get(request.params.id);
            if (!current) return errors(reply, 404, 'not_found', 'Webhook não encontrado.');
            const body = WebhookBody.partial().safeParse(request.body);
            if (!body.success) return errors(reply, 400, 'invalid_object', z.prettifyError(body.error));
            Object.assign(current, Object.fromEntries(Object.entries(body.data).filter(([, value]) => value !== undefined)));
            const { authToken, ...shown } = current;
            return { ...shown, hasAuthToken: Boolean(authToken) };
          });
        },
        { prefix: '/v3' },
      );

      scope.post('/pay', async (request, reply) => {
        const body = PayBody.safeParse(request.body);
        if (!body.success) return errors(reply, 400, 'invalid_object', 'Informe o id da cobrança.');
        const own = owner.get(body.data.id);
        const payment = own?.payments.get(body.data.id);
        if (!own || !payment) return errors(reply, 404, 'not_found', 'Cobrança não encontrada.');
        if (payment.billingType === 'CREDIT_CARD') return errors(reply, 400, 'invalid_billingType', 'Um cartão é cobrado na criação da cobrança.');
        if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE') return errors(reply, 409, 'invalid_status', `A cobrança está ${payment.status}`);
        payment.status = 'RECEIVED';
        payment.paymentDate = today();
        payment.confirmedDate = today();
        await deliver(own, 'PAYMENT_RECEIVED', payment);
        return { status: payment.status, id: payment.id, webhookStatus: deliveries.at(-1)?.status ?? 0 };
      });
    },
    { prefix },
  );

  return {
    payments: (apiKey) => [...(accounts.get(apiKey)?.payments.values() ?? [])],
    deliveries: () => [...deliveries],
  };
}
