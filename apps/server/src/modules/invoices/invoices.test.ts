import { addToCalendarDate, dayIn, DEFAULT_TIMEZONE, RECURRENCE_MONTHS, type InvoiceView, type PixCheckoutView, type Recurrence } from '@atende/shared';
import { and, eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, invoices, pixCharges, whatsapps } from '../../platform/db/schema.js';
import { parseBrCode } from '../../platform/payments/brcode.js';
import type { BuiltCompany } from '../../test/factories.js';
import { waitUntil } from '../../test/channel-test-app.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { createDueInvoices } from './invoices.repo.js';
import { makeDueInvoices } from './invoices.service.js';
import { inTenant } from '../../platform/db/tenant.js';

const DAY = 86_400_000;
let t: TestContext;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true, env: { INVOICE_DAYS_BEFORE_DUE: '10', PIX_PROVIDER: 'fake' } });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

/** A company on a priced plan whose due date is `dueInDays` away (negative: overdue). */
async function buildBilledCompany(options: { dueInDays?: number; valueCents?: number; recurrence?: Recurrence } = {}): Promise<BuiltCompany> {
  const company = await t.factories.buildCompany({ plan: { valueCents: options.valueCents ?? 9900 }, dueDate: inDays(options.dueInDays ?? 5) });
  if (options.recurrence) await t.database.db.update(companies).set({ recurrence: options.recurrence }).where(eq(companies.id, company.id));
  return company;
}

async function invoicesOf(companyId: number) {
  return t.database.db.select().from(invoices).where(inTenant(invoices, { companyId }));
}

async function dueDateOf(companyId: number): Promise<string> {
  const [row] = await t.database.db.select({ dueDate: companies.dueDate }).from(companies).where(eq(companies.id, companyId));
  return row!.dueDate!;
}

async function checkout(token: string, invoiceId: number, extra: Record<string, unknown> = {}) {
  return t.request(token, 'POST', '/subscription', { invoiceId, firstName: 'Ana', lastName: 'Lima', address2: 'Rua A, 1', city: 'São Paulo', state: 'SP', zipcode: '01000-000', country: 'BR', ...extra });
}

/** A billed company's admin at the checkout of its first invoice, with the Pix to pay. */
async function openCheckout(options: Parameters<typeof buildBilledCompany>[0] = {}) {
  const company = await buildBilledCompany(options);
  await makeDueInvoices(t.app.services, company.id);
  const [invoice] = await invoicesOf(company.id);
  const { token } = await company.admin.login();
  const view = (await checkout(token, invoice!.id)).json<PixCheckoutView>();
  return { company, invoice: invoice!, token, view };
}

/** The payer's bank pays the copy-and-paste code at the fake PSP, which notifies our webhook. */
async function pay(copyPaste: string, amount?: string) {
  const response = await t.app.inject({ method: 'POST', url: '/fake-psp/pay', payload: { pixCopiaECola: copyPaste, ...(amount ? { amount } : {}) } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ status: string; webhookStatus: number; txid: string; endToEndId: string }>();
}

/**
 * The receiver's side of the fake PSP, as an operator at the PSP would use it: where
 * its notifications go (`register`; `restore` points them back here), and refunds.
 */
async function pspAsReceiver() {
  const basic = Buffer.from(`atende-fake-psp:${t.config.PAYMENT_WEBHOOK_SECRET}-psp`).toString('base64');
  const token = (await t.app.inject({ method: 'POST', url: '/fake-psp/oauth/token', headers: { authorization: `Basic ${basic}` }, payload: { grant_type: 'client_credentials' } })).json<{ access_token: string }>().access_token;
  const headers = { authorization: `Bearer ${token}` };
  const register = async (webhookUrl: string) => {
    const response = await t.app.inject({ method: 'PUT', url: `/fake-psp/v2/webhook/${encodeURIComponent('pix@atende.local')}`, headers, payload: { webhookUrl } });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };
  return {
    register,
    restore: () => register(`${url}/payments/pix/webhook/${t.config.PAYMENT_WEBHOOK_SECRET}`),
    async refund(endToEndId: string, valor: string) {
      const response = await t.app.inject({ method: 'PUT', url: `/fake-psp/v2/pix/${endToEndId}/devolucao/D${Date.now()}`, headers, payload: { valor } });
      expect(response.statusCode, response.body).toBe(201);
    },
  };
}

/** Calendar months as PostgreSQL adds them: a day the target month lacks becomes its last day (30 Nov + 3 months = 28 Feb). */
function addMonths(date: string, months: number): string {
  return addToCalendarDate(date, { months });
}

/** The calendar date `days` from today in the companies' zone (the default one). */
function inDays(days: number): string {
  return dayIn(new Date(Date.now() + days * DAY), DEFAULT_TIMEZONE);
}

describe('the invoice job', () => {
  it('makes one invoice per company and due date, from the plan, even when two runs race', async () => {
    const soon = await buildBilledCompany({ dueInDays: 5, valueCents: 12345 });
    const later = await buildBilledCompany({ dueInDays: 40 });
    const free = await t.factories.buildCompany({ plan: { valueCents: 0 }, dueDate: inDays(2) });
    const now = new Date();
    await Promise.all([createDueInvoices(t.database.db, { now, daysBefore: 10 }), createDueInvoices(t.database.db, { now, daysBefore: 10 }), makeDueInvoices(t.app.services)]);
    await makeDueInvoices(t.app.services);
    const made = await invoicesOf(soon.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ valueCents: 12345, status: 'open' });
    expect(made[0]!.dueDate).toBe(await dueDateOf(soon.id));
    expect(await invoicesOf(later.id)).toHaveLength(0);
    expect(await invoicesOf(free.id)).toHaveLength(0);
  });
});

describe('invoices at once, without waiting for the job', () => {
  it('moving a company to a paid plan with a near due date invoices it in the same request', async () => {
    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    const company = await t.factories.buildCompany({ plan: { valueCents: 0 }, dueDate: inDays(3) });
    const paid = await t.factories.buildPlan({ valueCents: 4990 });
    expect((await t.request(superToken, 'PUT', `/companies/${company.id}`, { planId: paid.id })).statusCode).toBe(200);
    const made = await invoicesOf(company.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ valueCents: 4990, status: 'open' });
    // The job's run makes nothing more.
    await makeDueInvoices(t.app.services);
    expect(await invoicesOf(company.id)).toHaveLength(1);
  });

  it('a super user issues the current invoice now (201), once (200 after), never for a free plan, and only a super user', async () => {
    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    const far = await buildBilledCompany({ dueInDays: 40, valueCents: 15000 });
    expect(await invoicesOf(far.id)).toHaveLength(0);
    const issued = await t.request(superToken, 'POST', `/companies/${far.id}/invoices`);
    expect(issued.statusCode).toBe(201);
    expect(issued.json<InvoiceView>()).toMatchObject({ value: 150, status: 'open', dueDate: await dueDateOf(far.id) });
    const again = await t.request(superToken, 'POST', `/companies/${far.id}/invoices`);
    expect(again.statusCode).toBe(200);
    expect(again.json<InvoiceView>().id).toBe(issued.json<InvoiceView>().id);
    await makeDueInvoices(t.app.services, far.id);
    expect(await invoicesOf(far.id)).toHaveLength(1);

    const free = await t.factories.buildCompany({ plan: { valueCents: 0 }, dueDate: inDays(2) });
    const refused = await t.request(superToken, 'POST', `/companies/${free.id}/invoices`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('ERR_NOTHING_TO_INVOICE');
    expect((await t.request(superToken, 'POST', '/companies/999999/invoices')).statusCode).toBe(404);

    const { token } = await far.admin.login();
    const denied = await t.request(token, 'POST', `/companies/${far.id}/invoices`);
    expect(denied.statusCode).toBe(403);
  });
});

describe('GET /invoices/all', () => {
  it('lists the company’s invoices, latest first, with paid / open / expired, pages of 20 and the more-pages header', async () => {
    const company = await buildBilledCompany({ dueInDays: 5 });
    await t.database.db.insert(invoices).values([
      { companyId: company.id, detail: 'Paid', valueCents: 100, dueDate: inDays(-40), status: 'paid', paidAt: new Date() },
      { companyId: company.id, detail: 'Expired', valueCents: 100, dueDate: inDays(-10) },
      ...Array.from({ length: 20 }, (_, i) => ({ companyId: company.id, detail: `Future ${i}`, valueCents: 100, dueDate: inDays(100 + i) })),
    ]);
    const { token } = await company.admin.login();
    const first = await t.request(token, 'GET', '/invoices/all?pageNumber=1');
    expect(first.headers['x-has-more']).toBe('true');
    const page1 = first.json<InvoiceView[]>();
    expect(page1).toHaveLength(20);
    expect(page1[0]).toMatchObject({ detail: 'Future 19', value: 1, status: 'open' });
    expect(page1[19]).toMatchObject({ detail: 'Future 0' });
    const second = await t.request(token, 'GET', '/invoices/all?pageNumber=2');
    expect(second.headers['x-has-more']).toBe('false');
    expect(second.json<InvoiceView[]>().map((i) => [i.detail, i.status])).toEqual([
      ['Expired', 'expired'],
      ['Paid', 'paid'],
    ]);
    expect((await t.request(token, 'GET', '/invoices/all?searchParam=expir')).json<InvoiceView[]>().map((i) => i.detail)).toEqual(['Expired']);

    const other = await buildBilledCompany();
    const otherToken = (await other.admin.login()).token;
    expect((await t.request(otherToken, 'GET', '/invoices/all')).json()).toEqual([]);
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    expect((await t.request((await agent.login()).token, 'GET', '/invoices/all')).statusCode).toBe(403);
  });
});

describe('Pix checkout and the payment webhook', () => {
  it('charges the invoice’s amount (never the client’s), shows a valid BR Code, and reuses a charge still payable', async () => {
    const company = await buildBilledCompany({ valueCents: 4990 });
    await makeDueInvoices(t.app.services, company.id);
    const [invoice] = await invoicesOf(company.id);
    const { token } = await company.admin.login();
    const response = await checkout(token, invoice!.id, { plan: JSON.stringify({ price: 0.01, users: 999 }), value: 0.01, amountCents: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json<PixCheckoutView>();
    expect(view).toMatchObject({ invoiceId: invoice!.id, valor: { original: '49.90' }, sandbox: true });
    const parsed = parseBrCode(view.qrcode.qrcode);
    expect(parsed.ok).toBe(true);
    const [charge] = await t.database.db.select().from(pixCharges).where(eq(pixCharges.txid, view.txid));
    expect(charge).toMatchObject({ amountCents: 4990, status: 'ATIVA', companyId: company.id });
    expect((await checkout(token, invoice!.id)).json<PixCheckoutView>().txid).toBe(view.txid);

    const other = await buildBilledCompany();
    expect((await checkout((await other.admin.login()).token, invoice!.id)).statusCode).toBe(404);
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    expect((await checkout((await agent.login()).token, invoice!.id)).statusCode).toBe(403);
  });

  it('pays the invoice once the PSP confirms it, moves the due date, emits CONCLUIDA to the company’s admins, and ignores a replay', async () => {
    const company = await buildBilledCompany({ dueInDays: 5 });
    const outsider = await buildBilledCompany();
    await makeDueInvoices(t.app.services, company.id);
    const [invoice] = await invoicesOf(company.id);
    const { token } = await company.admin.login();
    const heard: unknown[] = [];
    const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.on(`company-${company.id}-payment`, (payload: unknown) => heard.push(payload));
    const outsiderSocket = io(url, { transports: ['websocket'], query: { token: (await outsider.admin.login()).token }, reconnection: false });
    sockets.push(outsiderSocket);
    const outsiderHeard: unknown[] = [];
    outsiderSocket.onAny((event: string, payload: unknown) => event.endsWith('-payment') && outsiderHeard.push(payload));

    const view = (await checkout(token, invoice!.id)).json<PixCheckoutView>();
    const paid = await pay(view.qrcode.qrcode);
    expect(paid).toMatchObject({ status: 'CONCLUIDA', webhookStatus: 200 });
    const expectedDue = addMonths(invoice!.dueDate, 1);
    await waitUntil(() => heard.length > 0, 5000, 'payment event');
    expect(heard[0]).toEqual({ action: 'CONCLUIDA', invoiceId: invoice!.id, company: { id: company.id, dueDate: expectedDue } });
    expect(await dueDateOf(company.id)).toBe(expectedDue);
    const [after] = await invoicesOf(company.id);
    expect(after).toMatchObject({ status: 'paid' });
    expect(outsiderHeard).toEqual([]);

    // The PSP sends the same notification again: nothing moves twice.
    const secret = t.config.PAYMENT_WEBHOOK_SECRET;
    const replay = await t.app.inject({ method: 'POST', url: `/payments/pix/webhook/${secret}/pix`, payload: { pix: [{ txid: view.txid, endToEndId: paid.endToEndId, valor: '99.00' }] } });
    expect(replay.json()).toEqual({ received: 1, outcomes: ['replay'] });
    expect(await dueDateOf(company.id)).toBe(expectedDue);
    expect((await checkout(token, invoice!.id)).json().error).toBe('ERR_INVOICE_ALREADY_PAID');
  });

  it('refuses a notification without the secret, ignores unknown charges, unpaid charges and a wrong amount', async () => {
    const { company, view } = await openCheckout();
    const dueBefore = await dueDateOf(company.id);
    const secret = t.config.PAYMENT_WEBHOOK_SECRET;
    const notify = (path: string, txid: string, valor = '99.00') =>
      t.app.inject({ method: 'POST', url: path, payload: { pix: [{ txid, endToEndId: 'E12345678202611251200abcdefghijk', valor }] } });

    // Unsigned (no or a wrong secret): not found, nothing paid.
    expect((await notify('/payments/pix/webhook/wrong-secret/pix', view.txid)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/payments/pix/webhook', payload: { pix: [] } })).statusCode).toBe(404);
    // A forged notification with the secret, for a charge the PSP says is not paid.
    expect((await notify(`/payments/pix/webhook/${secret}/pix`, view.txid)).json().outcomes).toEqual(['not-paid']);
    // A charge we never made.
    expect((await notify(`/payments/pix/webhook/${secret}`, 'X'.repeat(30))).json().outcomes).toEqual(['unknown-charge']);
    // The payer pays less than the invoice: the PSP notifies, our check refuses.
    const paid = await pay(view.qrcode.qrcode, '1.00');
    expect(paid.webhookStatus).toBe(200);
    expect((await invoicesOf(company.id))[0]).toMatchObject({ status: 'open' });
    expect(await dueDateOf(company.id)).toBe(dueBefore);
    const [charge] = await t.database.db.select().from(pixCharges).where(and(eq(pixCharges.txid, view.txid)));
    expect(charge!.status).toBe('ATIVA');
  });

  it('settles a payment whose notification never arrived when the admin opens the checkout again', async () => {
    const { company, invoice, token, view } = await openCheckout({ dueInDays: 4 });
    // The PSP's notifications go nowhere for this payment.
    const psp = await pspAsReceiver();
    await psp.register('http://127.0.0.1:9/nowhere');
    try {
      expect((await pay(view.qrcode.qrcode)).webhookStatus).not.toBe(200);
      expect((await invoicesOf(company.id))[0]).toMatchObject({ status: 'open' });
      const again = await checkout(token, invoice!.id);
      expect(again.json().error).toBe('ERR_INVOICE_ALREADY_PAID');
      expect((await invoicesOf(company.id))[0]).toMatchObject({ status: 'paid' });
      expect(await dueDateOf(company.id)).toBe(addMonths(invoice!.dueDate, 1));
    } finally {
      await psp.restore();
    }
  });

  it('does not count a payment refunded before it was confirmed', async () => {
    const { company, view } = await openCheckout({ valueCents: 9900 });
    const psp = await pspAsReceiver();
    await psp.register('http://127.0.0.1:9/nowhere');
    try {
      const paid = await pay(view.qrcode.qrcode);
      await psp.refund(paid.endToEndId, '10.00');
      // The notification arrives late, naming the whole amount: the PSP's charge says 89.00 stayed.
      const late = await t.app.inject({
        method: 'POST',
        url: `/payments/pix/webhook/${t.config.PAYMENT_WEBHOOK_SECRET}/pix`,
        payload: { pix: [{ txid: view.txid, endToEndId: paid.endToEndId, valor: '99.00' }] },
      });
      expect(late.json().outcomes).toEqual(['wrong-amount']);
      expect((await invoicesOf(company.id))[0]).toMatchObject({ status: 'open' });
    } finally {
      await psp.restore();
    }
  });

  it.each(Object.entries(RECURRENCE_MONTHS))('renews %s by %i month(s) from the invoice’s due date', async (recurrence, months) => {
    const { company, invoice, view } = await openCheckout({ dueInDays: 3, recurrence: recurrence as Recurrence });
    await pay(view.qrcode.qrcode);
    await waitUntil(async () => ((await invoicesOf(company.id))[0]?.status === 'paid' ? true : null), 5000, 'paid');
    expect(await dueDateOf(company.id)).toBe(addMonths(invoice!.dueDate, months));
  });
});

describe('an overdue company', () => {
  it('is refused on the API, sockets and the external API; its admin signs in to pay and is back in after paying', async () => {
    const company = await buildBilledCompany({ dueInDays: -2 });
    await t.database.db.insert(invoices).values({ companyId: company.id, detail: 'Overdue', valueCents: 9900, dueDate: await dueDateOf(company.id) });
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const login = (email: string, password: string, billing?: boolean) =>
      t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password, ...(billing ? { billing: true } : {}) } });

    expect((await login(company.admin.email, company.admin.password)).json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect((await login(agent.email, agent.password, true)).json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    const billing = await login(company.admin.email, company.admin.password, true);
    expect(billing.statusCode).toBe(200);
    const token = billing.json<{ token: string }>().token;

    expect((await t.request(token, 'GET', '/tickets')).statusCode).toBe(402);
    expect((await t.request(token, 'GET', '/contacts')).statusCode).toBe(402);
    const apiToken = `overdue-${company.id}-token`;
    await t.database.db.insert(whatsapps).values({ companyId: company.id, name: 'Overdue line', token: apiToken, provider: 'sandbox' });
    const send = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${apiToken}` }, payload: { number: '5511999990000', body: 'hi' } });
    expect(send.json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    const listed = await t.request(token, 'GET', '/invoices/all');
    expect(listed.statusCode).toBe(200);
    const [overdue] = listed.json<InvoiceView[]>();
    expect(overdue).toMatchObject({ status: 'expired' });

    // The socket hears its payment, and nothing else of the company.
    const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => resolve());
      socket.once('connect_error', reject);
    });
    const joined = await socket.timeout(2000).emitWithAck('joinTickets', 'open');
    expect(joined).toMatchObject({ ok: false });
    const heard: { action: string; company: { dueDate: string } }[] = [];
    socket.on(`company-${company.id}-payment`, (payload: { action: string; company: { dueDate: string } }) => heard.push(payload));

    const today = inDays(0);
    const view = (await checkout(token, overdue!.id)).json<PixCheckoutView>();
    await pay(view.qrcode.qrcode);
    await waitUntil(() => heard.length > 0, 5000, 'payment event');
    // Paid after its due date: the new period starts from the payment.
    expect([addMonths(today, 1), addMonths(inDays(0), 1)]).toContain(heard[0]!.company.dueDate);
    expect((await t.request(token, 'GET', '/tickets')).statusCode).toBe(200);
    expect((await login(agent.email, agent.password)).statusCode).toBe(200);
  });

  it('keeps sockets of other users out while overdue', async () => {
    const company = await buildBilledCompany({ dueInDays: 30 });
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const { token } = await agent.login();
    await t.database.db.update(companies).set({ dueDate: inDays(-1) }).where(eq(companies.id, company.id));
    await t.app.services.access.changed({ companyId: company.id });
    const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
    sockets.push(socket);
    const error = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(error.message).toBe('ERR_SUBSCRIPTION_EXPIRED');
  });
});
