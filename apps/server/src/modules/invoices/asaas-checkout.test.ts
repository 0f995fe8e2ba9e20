import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { dayIn, daysBetween, DEFAULT_TIMEZONE, type PixCheckoutView, type SubscriptionView } from '@atende/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, invoices, pixCharges } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import { createLogger } from '../../platform/logger.js';
import { parseBrCode } from '../../platform/payments/brcode.js';
import { FAKE_ASAAS_DECLINED_CARD, registerFakeAsaas, type FakeAsaas } from '../../platform/payments/fake-asaas.js';
import { waitUntil } from '../../test/channel-test-app.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { makeDueInvoices } from './invoices.service.js';
import { ASAAS_WEBHOOK_PATH, asaasWebhookToken } from './payments.js';

/**
 * Asaas as the platform's provider (the main company's setting `asaas` holds the API
 * key), against the local fake of Asaas's API v3 on a real HTTP server: Pix, boleto and
 * card checkouts, the webhook (its `asaas-access-token`, replays, the right company's
 * invoice only), and card data kept nowhere: no column, no log line.
 */
const DAY = 86_400_000;
const API_KEY = '$aact_platform_0123456789abcdef';
const CARD_NUMBER = '4111111111111111';
const CVV = '739';
const PAYER = { firstName: 'Ana', lastName: 'Lima', address2: 'Rua das Flores, 10', city: 'São Paulo', state: 'SP', zipcode: '01000-000', country: 'Brasil', cpfCnpj: '249.715.637-92' };
const expiry = () => `12/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;
const CARD = () => ({ method: 'CREDIT_CARD', nameOnCard: 'ANA LIMA', cardNumber: '4111 1111 1111 1111', expiry: expiry(), cvv: CVV, phone: '(11) 98765-4321' });

let t: TestContext;
let fakeServer: FastifyInstance;
let fake: FakeAsaas;
let superToken: string;
const logLines: string[] = [];

beforeAll(async () => {
  fakeServer = Fastify();
  fake = await registerFakeAsaas(fakeServer, { prefix: '/asaas', merchantName: 'Atende', merchantCity: 'Sao Paulo' });
  await fakeServer.listen({ port: 0, host: '127.0.0.1' });
  const fakeOrigin = `http://127.0.0.1:${(fakeServer.server.address() as AddressInfo).port}`;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await createTestContext({ listen: true, logger: createLogger('trace', sink), env: { PIX_PROVIDER: 'fake', ASAAS_BASE_URL: `${fakeOrigin}/asaas/v3` } });
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
  const saved = await t.request(superToken, 'PUT', '/settings/asaas', { value: API_KEY });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fakeServer?.close();
});

async function billedAdmin(valueCents = 9900) {
  const company = await t.factories.buildCompany({ plan: { valueCents }, dueDate: dayIn(new Date(Date.now() + 5 * DAY), DEFAULT_TIMEZONE) });
  await makeDueInvoices(t.app.services, company.id);
  const [invoice] = await t.database.db.select().from(invoices).where(inTenant(invoices, { companyId: company.id }));
  const { token } = await company.admin.login();
  return { company, token, invoice: invoice! };
}

const invoiceStatus = async (id: number) => (await t.database.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, id)))[0]?.status;
const dueDateOf = async (companyId: number) => (await t.database.db.select({ dueDate: companies.dueDate }).from(companies).where(eq(companies.id, companyId)))[0]!.dueDate!;

function webhook(body: unknown, token: string | null = asaasWebhookToken(t.config)) {
  return t.app.inject({ method: 'POST', url: ASAAS_WEBHOOK_PATH, headers: token === null ? {} : { 'asaas-access-token': token }, payload: body as object });
}

async function payAtFake(id: string) {
  const response = await fetch(`http://127.0.0.1:${(fakeServer.server.address() as AddressInfo).port}/asaas/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  expect(response.status).toBe(200);
}

describe('Asaas chosen by the platform setting', () => {
  it('offers Pix, boleto and card while the setting holds a key, and Pix only (the PIX_PROVIDER one) without it', async () => {
    const { token } = await billedAdmin();
    expect((await t.request(token, 'GET', '/subscription')).json<SubscriptionView>()).toMatchObject({ paymentsEnabled: true, paymentMethods: ['PIX', 'BOLETO', 'CREDIT_CARD'] });
    await t.request(superToken, 'PUT', '/settings/asaas', { value: '' });
    try {
      expect((await t.request(token, 'GET', '/subscription')).json<SubscriptionView>().paymentMethods).toEqual(['PIX']);
      const { invoice } = await billedAdmin();
      const boleto = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, method: 'BOLETO' });
      // Another company's invoice is not found before the method is looked at.
      expect(boleto.statusCode).toBe(404);
      const own = await billedAdmin();
      const refused = await t.request(own.token, 'POST', '/subscription', { invoiceId: own.invoice.id, ...PAYER, method: 'BOLETO' });
      expect([refused.statusCode, refused.json()]).toEqual([409, { error: 'ERR_PAYMENT_METHOD_UNAVAILABLE' }]);
      const pix = (await t.request(own.token, 'POST', '/subscription', { invoiceId: own.invoice.id, ...PAYER })).json<PixCheckoutView>();
      expect(pix).toMatchObject({ method: 'PIX', provider: 'fake' });
    } finally {
      await t.request(superToken, 'PUT', '/settings/asaas', { value: API_KEY });
    }
  });

  it('Pix: the QR code comes from Asaas, and its PAYMENT_RECEIVED pays the invoice and moves the due date once', async () => {
    const { company, token, invoice } = await billedAdmin();
    const before = await dueDateOf(company.id);
    const response = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, method: 'PIX' });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<PixCheckoutView>();
    expect(view).toMatchObject({ method: 'PIX', provider: 'asaas', paid: false, boleto: null, valor: { original: '99.00' } });
    expect(view.txid).toMatch(/^pay_/);
    expect(parseBrCode(view.qrcode.qrcode).ok).toBe(true);
    // Asked again: the same charge.
    expect((await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, method: 'PIX' })).json<PixCheckoutView>().txid).toBe(view.txid);

    await payAtFake(view.txid);
    await waitUntil(async () => (await invoiceStatus(invoice.id)) === 'paid', 5000, 'invoice paid');
    const moved = await dueDateOf(company.id);
    expect(daysBetween(before, moved)).toBeGreaterThanOrEqual(28);
    // The same event again (Asaas retries): nothing more.
    const replay = await webhook({ id: 'evt_1', event: 'PAYMENT_RECEIVED', payment: { id: view.txid } });
    expect(replay.json()).toEqual({ received: true, outcome: 'replay' });
    expect(await dueDateOf(company.id)).toBe(moved);
  });

  it('boleto: its digitable line and PDF, paid through the webhook', async () => {
    const { token, invoice } = await billedAdmin(14990);
    const view = (await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, method: 'BOLETO' })).json<PixCheckoutView>();
    expect(view).toMatchObject({ method: 'BOLETO', provider: 'asaas', qrcode: { qrcode: '' }, paid: false });
    expect(view.boleto?.line).toMatch(/^4619\d{33}0000014990$/);
    expect(view.boleto?.url).toContain('/asaas/b/');
    await payAtFake(view.txid);
    await waitUntil(async () => (await invoiceStatus(invoice.id)) === 'paid', 5000, 'invoice paid');
  });

  it('card: charged at once, the invoice paid in the answer; its PAYMENT_CONFIRMED is a replay', async () => {
    const { company, token, invoice } = await billedAdmin();
    const response = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, ...CARD() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<PixCheckoutView>()).toMatchObject({ method: 'CREDIT_CARD', paid: true, qrcode: { qrcode: '' } });
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    const moved = await dueDateOf(company.id);
    const txid = response.json<PixCheckoutView>().txid;
    await waitUntil(async () => fake.deliveries().some((d) => d.paymentId === txid && d.event === 'PAYMENT_CONFIRMED'), 5000, 'confirmed event delivered');
    expect(fake.deliveries().find((d) => d.paymentId === txid)?.status).toBe(200);
    expect(await dueDateOf(company.id)).toBe(moved);
    // Paid: another checkout is refused.
    expect((await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, ...CARD() })).json()).toEqual({ error: 'ERR_INVOICE_ALREADY_PAID' });
  });

  it('card refused by the issuer: 422 with the reason, the invoice open, no charge kept', async () => {
    const { token, invoice } = await billedAdmin();
    const response = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, ...CARD(), cardNumber: FAKE_ASAAS_DECLINED_CARD });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'ERR_PAYMENT_REFUSED', message: expect.stringMatching(/não autorizada/) });
    expect(await invoiceStatus(invoice.id)).toBe('open');
    expect(await t.database.db.select().from(pixCharges).where(eq(pixCharges.invoiceId, invoice.id))).toEqual([]);
  });

  it('validates the card step on the server: number (Luhn), expiry, CVV, name, CPF/CNPJ, postal code', async () => {
    const { token, invoice } = await billedAdmin();
    const cases: [Record<string, string>, string][] = [
      [{ cardNumber: '4111 1111 1111 1112' }, 'cardNumber'],
      [{ cardNumber: '1234' }, 'cardNumber'],
      [{ expiry: '13/30' }, 'expiry'],
      [{ expiry: '01/20' }, 'expiry'],
      [{ expiry: '1230' }, 'expiry'],
      [{ cvv: '12' }, 'cvv'],
      [{ cvv: '12a' }, 'cvv'],
      [{ nameOnCard: '' }, 'nameOnCard'],
      [{ cpfCnpj: '123.456.789-00' }, 'cpfCnpj'],
      [{ zipcode: '0100' }, 'zipcode'],
      [{ phone: '123' }, 'phone'],
    ];
    for (const [change, field] of cases) {
      const response = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, ...CARD(), ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(Object.keys(response.json<{ fields: Record<string, string[]> }>().fields), JSON.stringify(change)).toContain(field);
    }
    // Amex: 4 digits.
    const amex = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, ...CARD(), cardNumber: '3782 822463 10005', cvv: '123' });
    expect(amex.json<{ fields: Record<string, string[]> }>().fields.cvv).toBeDefined();
    // A Pix at Asaas needs the payer's CPF or CNPJ too.
    const noCpf = await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, cpfCnpj: '', method: 'PIX' });
    expect([noCpf.statusCode, Object.keys(noCpf.json<{ fields: Record<string, string[]> }>().fields)]).toEqual([400, ['cpfCnpj']]);
    expect(await invoiceStatus(invoice.id)).toBe('open');
  });
});

describe('Asaas webhook', () => {
  it('refuses a call without the token, or with another one (401), before reading it', async () => {
    const { token, invoice } = await billedAdmin();
    const view = (await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, method: 'PIX' })).json<PixCheckoutView>();
    for (const header of [null, '', 'x'.repeat(43), `${asaasWebhookToken(t.config)}x`]) {
      const response = await webhook({ event: 'PAYMENT_RECEIVED', payment: { id: view.txid } }, header);
      expect(response.statusCode, String(header)).toBe(401);
    }
    expect((await webhook('not json at all', null)).statusCode).toBe(401);
    expect(await invoiceStatus(invoice.id)).toBe('open');
  });

  it('trusts nothing an event says: a payment Asaas has not received pays nothing; unknown ids and other events are acknowledged', async () => {
    const { token, invoice } = await billedAdmin();
    const view = (await t.request(token, 'POST', '/subscription', { invoiceId: invoice.id, ...PAYER, method: 'BOLETO' })).json<PixCheckoutView>();
    const forged = await webhook({ event: 'PAYMENT_RECEIVED', payment: { id: view.txid, status: 'RECEIVED', value: 99 } });
    expect([forged.statusCode, forged.json()]).toEqual([200, { received: true, outcome: 'not-paid' }]);
    expect((await webhook({ event: 'PAYMENT_RECEIVED', payment: { id: 'pay_not_ours' } })).json()).toEqual({ received: true, outcome: 'unknown-charge' });
    expect((await webhook({ event: 'PAYMENT_OVERDUE', payment: { id: view.txid } })).json()).toEqual({ received: true, outcome: 'ignored' });
    expect((await webhook({ event: 'PAYMENT_RECEIVED', payment: { id: 'x'.repeat(101) } })).statusCode).toBe(400);
    expect(await invoiceStatus(invoice.id)).toBe('open');
  });

  it("pays only the invoice of the company whose payment it is, once, whatever the order of events", async () => {
    const a = await billedAdmin();
    const b = await billedAdmin();
    const viewA = (await t.request(a.token, 'POST', '/subscription', { invoiceId: a.invoice.id, ...PAYER, method: 'PIX' })).json<PixCheckoutView>();
    const viewB = (await t.request(b.token, 'POST', '/subscription', { invoiceId: b.invoice.id, ...PAYER, method: 'PIX' })).json<PixCheckoutView>();
    const dueB = await dueDateOf(b.company.id);
    await payAtFake(viewA.txid);
    await waitUntil(async () => (await invoiceStatus(a.invoice.id)) === 'paid', 5000, 'A paid');
    // A's payment named again, as RECEIVED and CONFIRMED, pays nothing of B's.
    for (const event of ['PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED']) {
      expect((await webhook({ event, payment: { id: viewA.txid } })).json()).toEqual({ received: true, outcome: 'replay' });
    }
    expect(await invoiceStatus(b.invoice.id)).toBe('open');
    expect(await dueDateOf(b.company.id)).toBe(dueB);
    // B's own event, before its payment arrived: nothing; after: B's invoice.
    expect((await webhook({ event: 'PAYMENT_RECEIVED', payment: { id: viewB.txid } })).json()).toEqual({ received: true, outcome: 'not-paid' });
    await payAtFake(viewB.txid);
    await waitUntil(async () => (await invoiceStatus(b.invoice.id)) === 'paid', 5000, 'B paid');
  });
});

describe('card data', () => {
  it('is kept in no column and no log line, approved or refused', async () => {
    const approved = await billedAdmin();
    expect((await t.request(approved.token, 'POST', '/subscription', { invoiceId: approved.invoice.id, ...PAYER, ...CARD() })).statusCode).toBe(200);
    const refused = await billedAdmin();
    expect((await t.request(refused.token, 'POST', '/subscription', { invoiceId: refused.invoice.id, ...PAYER, ...CARD(), cardNumber: FAKE_ASAAS_DECLINED_CARD })).statusCode).toBe(422);
    const invalid = await billedAdmin();
    expect((await t.request(invalid.token, 'POST', '/subscription', { invoiceId: invalid.invoice.id, ...PAYER, ...CARD(), expiry: '13/99' })).statusCode).toBe(400);

    // Every row of every table, as text.
    const tables = (await t.database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)) as unknown as {
      rows: { table_name: string }[];
    };
    expect(tables.rows.length).toBeGreaterThan(20);
    let dump = '';
    for (const { table_name } of tables.rows) {
      const rows = (await t.database.db.execute(sql`select row_to_json(r)::text as row from ${sql.identifier(table_name)} r`)) as unknown as { rows: { row: string }[] };
      dump += rows.rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain('pay_');
    for (const secret of [CARD_NUMBER, '4111 1111 1111 1111', FAKE_ASAAS_DECLINED_CARD, `"${CVV}"`, 'ANA LIMA']) expect(dump, secret).not.toContain(secret);

    const logs = logLines.join('');
    expect(logs).toContain('/subscription');
    // The CVV as a value (3 digits alone also occur in timestamps).
    for (const secret of [CARD_NUMBER, '4111 1111 1111 1111', FAKE_ASAAS_DECLINED_CARD, `"${CVV}"`, 'ANA LIMA', API_KEY]) expect(logs, secret).not.toContain(secret);
  });
});
