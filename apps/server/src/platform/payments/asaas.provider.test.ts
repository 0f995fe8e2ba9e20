import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAsaasProvider, AsaasRefusal, type AsaasProvider } from './asaas.provider.js';
import { parseBrCode } from './brcode.js';
import { PaymentProviderError } from './efi-pix.provider.js';
import { FAKE_ASAAS_DECLINED_CARD, registerFakeAsaas, type FakeAsaas } from './fake-asaas.js';

/**
 * The Asaas client (asaas.provider.ts) against the local fake of Asaas's API v3, over
 * real HTTP: customers, Pix, boleto and card payments, the webhook's registration and
 * what the fake posts to it (the `asaas-access-token` header Asaas sends).
 */
const API_KEY = '$aact_test_0123456789abcdef';
const CPF = '24971563792';
const TODAY = new Date().toISOString().slice(0, 10);
const HOLDER = { name: 'Ana Lima', email: 'ana@example.com', cpfCnpj: CPF, postalCode: '01000000', addressNumber: '10', phone: '11987654321' };
const CARD = { holderName: 'ANA LIMA', number: '4111111111111111', expiryMonth: '12', expiryYear: String(new Date().getFullYear() + 2), ccv: '123' };

let fakeServer: FastifyInstance;
let hooks: FastifyInstance;
let fake: FakeAsaas;
let origin: string;
let hooksOrigin: string;
const received: { token: string | undefined; body: { event: string; payment: { id: string; status: string } } }[] = [];

const provider = (apiKey = API_KEY): AsaasProvider => createAsaasProvider({ baseUrl: `${origin}/asaas/v3`, apiKey, sandbox: true });

beforeAll(async () => {
  fakeServer = Fastify();
  fake = await registerFakeAsaas(fakeServer, { prefix: '/asaas', merchantName: 'Atende', merchantCity: 'Sao Paulo' });
  await fakeServer.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(fakeServer.server.address() as AddressInfo).port}`;
  hooks = Fastify();
  hooks.post('/hook', async (request) => {
    const token = request.headers['asaas-access-token'];
    received.push({ token: typeof token === 'string' ? token : undefined, body: request.body as (typeof received)[number]['body'] });
    return { ok: true };
  });
  await hooks.listen({ port: 0, host: '127.0.0.1' });
  hooksOrigin = `http://127.0.0.1:${(hooks.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fakeServer?.close();
  await hooks?.close();
});

async function customer(asaas = provider()): Promise<string> {
  return asaas.createCustomer({ name: 'Ana Lima', cpfCnpj: CPF, email: 'ana@example.com', externalReference: 'company-1' });
}

describe('Asaas provider against the local fake (API v3)', () => {
  it('refuses a key that is not an Asaas API key (401), as a PaymentProviderError', async () => {
    const error = await provider('not-a-key').createCustomer({ name: 'Ana', cpfCnpj: CPF }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).status).toBe(401);
  });

  it('creates a customer, refusing an invalid CPF with Asaas\'s own error list', async () => {
    expect(await customer()).toMatch(/^cus_\d{12}$/);
    const refusal = await provider().createCustomer({ name: 'Ana', cpfCnpj: '11111111111' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AsaasRefusal);
    expect((refusal as AsaasRefusal).nome).toBe('invalid_cpfCnpj');
  });

  it('makes a Pix payment whose QR code payload is a dynamic BR Code, and reads it back', async () => {
    const asaas = provider();
    const payment = await asaas.createPayment({ customer: await customer(), method: 'PIX', amountCents: 14990, dueDate: TODAY, description: 'Plano', externalReference: 'invoice-7' });
    expect(payment).toMatchObject({ status: 'PENDING', state: 'waiting', amountCents: 14990, externalReference: 'invoice-7', billingType: 'PIX' });
    const qr = await asaas.pixQrCode(payment.id);
    const code = parseBrCode(qr.payload);
    expect(code.ok && code.url).toContain('/asaas/qr/');
    expect(qr.expirationDate).toContain(TODAY);
    expect(await asaas.getPayment(payment.id)).toMatchObject({ id: payment.id, state: 'waiting' });
    expect(await asaas.getPayment('pay_unknown')).toBeNull();
    // Another account's key does not see it.
    expect(await provider('$aact_another_account_key').getPayment(payment.id)).toBeNull();
  });

  it('makes a boleto with its digitable line and PDF', async () => {
    const asaas = provider();
    const payment = await asaas.createPayment({ customer: await customer(), method: 'BOLETO', amountCents: 9900, dueDate: TODAY, description: 'Plano', externalReference: 'invoice-8' });
    expect(payment.bankSlipUrl).toContain('/asaas/b/');
    const { identificationField } = await asaas.identificationField(payment.id);
    expect(identificationField).toMatch(/^4619\d{33}0000009900$/);
  });

  it('charges an authorised card at once (CONFIRMED) and keeps no more than its last 4 digits', async () => {
    const asaas = provider();
    const payment = await asaas.createPayment({
      customer: await customer(),
      method: 'CREDIT_CARD',
      amountCents: 14990,
      dueDate: TODAY,
      description: 'Plano',
      externalReference: 'invoice-9',
      card: { creditCard: CARD, holder: HOLDER, remoteIp: '203.0.113.9' },
    });
    expect(payment).toMatchObject({ status: 'CONFIRMED', state: 'paid' });
    const held = fake.payments(API_KEY).find((p) => p.id === payment.id);
    expect(held?.creditCard?.creditCardNumber).toBe('1111');
    expect(JSON.stringify(fake.payments(API_KEY))).not.toContain(CARD.number);
  });

  it('answers a refused card with Asaas\'s reason, and keeps no payment', async () => {
    const before = fake.payments(API_KEY).length;
    const refusal = await provider()
      .createPayment({
        customer: await customer(),
        method: 'CREDIT_CARD',
        amountCents: 14990,
        dueDate: TODAY,
        description: 'Plano',
        externalReference: 'invoice-10',
        card: { creditCard: { ...CARD, number: FAKE_ASAAS_DECLINED_CARD }, holder: HOLDER, remoteIp: '203.0.113.9' },
      })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AsaasRefusal);
    expect((refusal as AsaasRefusal).mensagem).toMatch(/não autorizada/);
    expect(fake.payments(API_KEY).length).toBe(before);
  });

  it('registers one webhook per URL (again: updated, not duplicated) and the fake posts paid events with its token', async () => {
    const asaas = provider('$aact_webhook_account_key');
    const url = `${hooksOrigin}/hook`;
    await asaas.registerWebhook({ url, authToken: 'a'.repeat(40), email: 'ops@example.com' });
    await asaas.registerWebhook({ url, authToken: 'b'.repeat(40), email: 'ops@example.com' });
    const list = (await (await fetch(`${origin}/asaas/v3/webhooks`, { headers: { access_token: '$aact_webhook_account_key' } })).json()) as { data: { url: string; hasAuthToken: boolean }[] };
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ url, hasAuthToken: true });

    const id = (
      await asaas.createPayment({ customer: await customer(asaas), method: 'PIX', amountCents: 500, dueDate: TODAY, description: 'x', externalReference: 'invoice-11' })
    ).id;
    const pay = await fetch(`${origin}/asaas/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
    expect(pay.status).toBe(200);
    const event = received.find((r) => r.body.payment.id === id);
    expect(event).toMatchObject({ token: 'b'.repeat(40), body: { event: 'PAYMENT_RECEIVED', payment: { id, status: 'RECEIVED' } } });
    expect((await asaas.getPayment(id))?.state).toBe('paid');
    // Paid once: a second payment of it is refused.
    expect((await fetch(`${origin}/asaas/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) })).status).toBe(409);
  });

  it('cannot reach a stopped server: a PaymentProviderError with status 0', async () => {
    const dead = createAsaasProvider({ baseUrl: 'http://127.0.0.1:9/v3', apiKey: API_KEY, sandbox: true, fetchTimeoutMs: 2000 });
    const error = await dead.getPayment('pay_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as PaymentProviderError).status).toBe(0);
  });
});
