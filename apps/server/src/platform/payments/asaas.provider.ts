/**
 * Asaas's API v3 (https://docs.asaas.com): customers, payments by Pix, boleto and credit
 * card, the Pix QR code and the boleto's digitable line of a payment, and the webhook
 * that notifies payments. Every call carries the account's API key in the `access_token`
 * header (and a User-Agent, which Asaas requires of newer accounts). Card data is sent
 * to Asaas in the payment request and kept nowhere here.
 */
import { z } from 'zod';
import type { PaymentMethod } from '@atende/shared';
import { PaymentProviderError } from './efi-pix.provider.js';

export interface AsaasProviderOptions {
  /** e.g. https://api.asaas.com/v3, https://api-sandbox.asaas.com/v3, or the fake's http://127.0.0.1:3000/fake-asaas/v3 */
  baseUrl: string;
  apiKey: string;
  /** True when baseUrl is the local fake (PIX_PROVIDER=fake): nothing is really paid. */
  sandbox: boolean;
  /** Deadline for each HTTP exchange; 15 s by default (a card authorisation takes a few seconds). */
  fetchTimeoutMs?: number;
}

/** Where a payment stands, in the terms the invoices use. */
type AsaasPaymentState = 'waiting' | 'paid' | 'removed';

export interface AsaasPayment {
  id: string;
  status: string;
  state: AsaasPaymentState;
  billingType: string;
  /** The payment's value in integer cents. */
  amountCents: number;
  externalReference: string | null;
  dueDate: string;
  invoiceUrl: string | null;
  bankSlipUrl: string | null;
}

interface AsaasCustomerInput {
  name: string;
  cpfCnpj: string;
  email?: string;
  phone?: string;
  postalCode?: string;
  externalReference?: string;
}

interface AsaasCard {
  holderName: string;
  number: string;
  expiryMonth: string;
  expiryYear: string;
  ccv: string;
}

interface AsaasCardHolder {
  name: string;
  email: string;
  cpfCnpj: string;
  postalCode: string;
  addressNumber: string;
  addressComplement?: string;
  phone: string;
}

interface AsaasPaymentInput {
  customer: string;
  method: PaymentMethod;
  amountCents: number;
  /** YYYY-MM-DD */
  dueDate: string;
  description: string;
  externalReference: string;
  /** Card payments: charged at once (Asaas answers 400 when the card is refused). */
  card?: { creditCard: AsaasCard; holder: AsaasCardHolder; remoteIp: string };
}

export interface AsaasProvider {
  readonly kind: 'asaas';
  readonly sandbox: boolean;
  readonly methods: readonly PaymentMethod[];
  createCustomer(input: AsaasCustomerInput): Promise<string>;
  createPayment(input: AsaasPaymentInput): Promise<AsaasPayment>;
  /** The payment as Asaas knows it now; null when it does not know the id. */
  getPayment(id: string): Promise<AsaasPayment | null>;
  pixQrCode(id: string): Promise<{ payload: string; expirationDate: string }>;
  identificationField(id: string): Promise<{ identificationField: string }>;
  /** Points the account's payment events at `url` (one webhook per URL: an existing one is updated). */
  registerWebhook(input: { url: string; authToken: string; email: string }): Promise<void>;
}

/** Asaas refused a request and said why (`errors[].description`), e.g. a card not authorised. */
export class AsaasRefusal extends PaymentProviderError {}

const PAID = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);
const WAITING = new Set(['PENDING', 'OVERDUE', 'AWAITING_RISK_ANALYSIS']);
const ASAAS_METHODS = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const satisfies readonly PaymentMethod[];
/** The events that mean "paid": confirmed (card, balance not yet released) and received. */
export const ASAAS_PAID_EVENTS = ['PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED'] as const;

const PaymentAnswer = z.object({
  id: z.string().min(1),
  status: z.string(),
  billingType: z.string(),
  value: z.number(),
  dueDate: z.string(),
  externalReference: z.string().nullish(),
  deleted: z.boolean().optional(),
  invoiceUrl: z.string().nullish(),
  bankSlipUrl: z.string().nullish(),
});
const ErrorAnswer = z.object({ errors: z.array(z.object({ code: z.string().optional(), description: z.string() })).min(1) });
const WebhookList = z.object({ data: z.array(z.object({ id: z.string(), url: z.string() })) });

function toPayment(answer: z.infer<typeof PaymentAnswer>): AsaasPayment {
  const state: AsaasPaymentState = answer.deleted ? 'removed' : PAID.has(answer.status) ? 'paid' : WAITING.has(answer.status) ? 'waiting' : 'removed';
  return {
    id: answer.id,
    status: answer.status,
    state,
    billingType: answer.billingType,
    amountCents: Math.round(answer.value * 100),
    externalReference: answer.externalReference ?? null,
    dueDate: answer.dueDate,
    invoiceUrl: answer.invoiceUrl ?? null,
    bankSlipUrl: answer.bankSlipUrl ?? null,
  };
}

export function createAsaasProvider(options: AsaasProviderOptions): AsaasProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeout = options.fetchTimeoutMs ?? 15_000;

  async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          access_token: options.apiKey,
          'user-agent': 'Atende',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        // GET requests go with an empty body (Asaas answers 403 otherwise).
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (error) {
      throw new PaymentProviderError(`Asaas could not be reached: ${(error as Error).message}`, 0, undefined, undefined, { cause: error });
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json };
  }

  /** A 2xx answer parsed by `schema`; Asaas's own error list becomes an AsaasRefusal with its first description. */
  async function expect<T>(schema: z.ZodType<T>, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const { status, json } = await call(method, path, body);
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new PaymentProviderError(`Asaas answered ${method} ${path.split('?')[0]} in an unexpected shape`, status);
      return parsed.data;
    }
    const refusal = ErrorAnswer.safeParse(json);
    if (status === 400 && refusal.success) {
      const first = refusal.data.errors[0]!;
      throw new AsaasRefusal(`Asaas refused ${method} ${path.split('?')[0]}: ${first.description}`, status, first.code, first.description);
    }
    throw new PaymentProviderError(`Asaas answered ${status} to ${method} ${path.split('?')[0]}`, status);
  }

  const reais = (cents: number) => Math.round(cents) / 100;

  return {
    kind: 'asaas',
    sandbox: options.sandbox,
    methods: ASAAS_METHODS,

    async createCustomer(input) {
      const answer = await expect(z.object({ id: z.string().min(1) }), 'POST', '/customers', input);
      return answer.id;
    },

    async createPayment(input) {
      const answer = await expect(PaymentAnswer, 'POST', '/payments', {
        customer: input.customer,
        billingType: input.method,
        value: reais(input.amountCents),
        dueDate: input.dueDate,
        description: input.description.slice(0, 500),
        externalReference: input.externalReference,
        ...(input.card ? { creditCard: input.card.creditCard, creditCardHolderInfo: input.card.holder, remoteIp: input.card.remoteIp } : {}),
      });
      return toPayment(answer);
    },

    async getPayment(id) {
      const { status, json } = await call('GET', `/payments/${encodeURIComponent(id)}`);
      if (status === 404) return null;
      if (status < 200 || status >= 300) throw new PaymentProviderError(`Asaas answered ${status} to GET /payments/{id}`, status);
      const parsed = PaymentAnswer.safeParse(json);
      if (!parsed.success) throw new PaymentProviderError('Asaas answered GET /payments/{id} in an unexpected shape', status);
      return toPayment(parsed.data);
    },

    pixQrCode(id) {
      return expect(z.object({ payload: z.string().min(1), expirationDate: z.string() }), 'GET', `/payments/${encodeURIComponent(id)}/pixQrCode`);
    },

    identificationField(id) {
      return expect(z.object({ identificationField: z.string().min(1) }), 'GET', `/payments/${encodeURIComponent(id)}/identificationField`);
    },

    async registerWebhook({ url, authToken, email }) {
      const body = { name: 'Atende', url, email, enabled: true, interrupted: false, authToken, sendType: 'SEQUENTIALLY', events: [...ASAAS_PAID_EVENTS] };
      const existing = (await expect(WebhookList, 'GET', '/webhooks?limit=100')).data.find((hook) => hook.url === url);
      if (existing) await expect(z.unknown(), 'PUT', `/webhooks/${encodeURIComponent(existing.id)}`, body);
      else await expect(z.unknown(), 'POST', '/webhooks', body);
    },
  };
}
