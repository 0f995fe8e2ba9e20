import { dayIn, DEFAULT_TIMEZONE, type PixCheckoutView, type SubscriptionView } from '@atende/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';
import { invoices } from '../../platform/db/schema.js';
import { waitUntil } from '../../test/channel-test-app.js';
import { createTestContext, testConfig, type TestContext } from '../../test/test-app.js';
import { makeDueInvoices } from './invoices.service.js';
import { paymentsBannerLine } from './payments.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * Issue 28 defect 2: the test PSP (whose "test bank" pays any invoice for free) runs
 * only when named (`PIX_PROVIDER=fake`); by default there is no PSP at all.
 */
const DAY = 86_400_000;
const CHECKOUT = { firstName: 'Ana', lastName: 'Lima', address2: 'Rua A, 1', city: 'São Paulo', state: 'SP', zipcode: '01000-000', country: 'BR' };

let plain: TestContext;
let withFake: TestContext;

beforeAll(async () => {
  plain = await createTestContext({ listen: true });
  withFake = await createTestContext({ listen: true, env: { PIX_PROVIDER: 'fake' } });
});
afterAll(async () => {
  await plain?.close();
  await withFake?.close();
});

/** A company on a priced plan with its first invoice, and its admin's token. */
async function billedAdmin(t: TestContext) {
  const company = await t.factories.buildCompany({ plan: { valueCents: 9900 }, dueDate: dayIn(new Date(Date.now() + 5 * DAY), DEFAULT_TIMEZONE) });
  await makeDueInvoices(t.app.services, company.id);
  const [invoice] = await t.database.db.select().from(invoices).where(inTenant(invoices, { companyId: company.id }));
  const { token } = await company.admin.login();
  return { token, invoiceId: invoice!.id };
}

describe('the test PSP switch', () => {
  it('is off in every NODE_ENV unless PIX_PROVIDER names it', () => {
    for (const NODE_ENV of ['development', 'test', 'production'] as const) {
      const secrets = { JWT_SECRET: 'a'.repeat(40), JWT_REFRESH_SECRET: 'b'.repeat(40), ENCRYPTION_KEY: 'c'.repeat(40) };
      expect(loadConfig({ NODE_ENV, DATA_DIR: plain.config.DATA_DIR, ...secrets }).PIX_PROVIDER, NODE_ENV).toBe('none');
      expect(loadConfig({ NODE_ENV, DATA_DIR: plain.config.DATA_DIR, ...secrets, PIX_PROVIDER: 'fake' }).PIX_PROVIDER, NODE_ENV).toBe('fake');
    }
    expect(testConfig().PIX_PROVIDER).toBe('none');
  });

  it('by default: no /fake-psp routes, the checkout answers ERR_PAYMENTS_UNAVAILABLE and the subscription says payments are off', async () => {
    const { token, invoiceId } = await billedAdmin(plain);
    const subscription = (await plain.request(token, 'GET', '/subscription')).json<SubscriptionView>();
    expect(subscription.paymentsEnabled).toBe(false);

    const checkout = await plain.request(token, 'POST', '/subscription', { invoiceId, ...CHECKOUT });
    expect([checkout.statusCode, checkout.json()]).toEqual([503, { error: 'ERR_PAYMENTS_UNAVAILABLE' }]);

    // Whatever code is sent, nobody pays here: the payer's bank is not mounted.
    const pay = await plain.app.inject({ method: 'POST', url: '/fake-psp/pay', payload: { pixCopiaECola: '000201' } });
    expect(pay.statusCode).toBe(404);
    for (const url of ['/fake-psp/oauth/token', '/fake-psp/v2/loc/1']) {
      expect((await plain.app.inject({ method: url.includes('oauth') ? 'POST' : 'GET', url })).statusCode, url).toBe(404);
    }
    const [row] = await plain.database.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(row?.status).not.toBe('paid');
  });

  it('chosen by name: the checkout is a sandbox Pix and the test bank pays it', async () => {
    const { token, invoiceId } = await billedAdmin(withFake);
    expect((await withFake.request(token, 'GET', '/subscription')).json<SubscriptionView>().paymentsEnabled).toBe(true);
    const checkout = await withFake.request(token, 'POST', '/subscription', { invoiceId, ...CHECKOUT });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const view = checkout.json<PixCheckoutView>();
    expect(view.sandbox).toBe(true);

    const pay = await withFake.app.inject({ method: 'POST', url: '/fake-psp/pay', payload: { pixCopiaECola: view.qrcode.qrcode } });
    expect(pay.statusCode, pay.body).toBe(200);
    await waitUntil(
      async () => (await withFake.database.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoiceId)))[0]?.status === 'paid',
      5000,
      'invoice paid',
    );
  });

  it('the start banner says "test payments on" only when the test PSP runs', () => {
    const fake = paymentsBannerLine({ PIX_PROVIDER: 'fake', EFI_BASE_URL: 'https://pix.example' });
    expect(fake).toContain('test payments on');
    expect(fake).toMatch(/for free/);
    const none = paymentsBannerLine({ PIX_PROVIDER: 'none', EFI_BASE_URL: 'https://pix.example' });
    expect(none).toContain('not configured');
    const efi = paymentsBannerLine({ PIX_PROVIDER: 'efi', EFI_BASE_URL: 'https://pix.example' });
    expect(efi).toContain('https://pix.example');
    for (const line of [none, efi]) expect(line).not.toContain('test payments');
  });
});
