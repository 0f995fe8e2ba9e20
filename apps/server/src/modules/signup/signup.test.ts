import { addToCalendarDate, dayIn, DEFAULT_SCHEDULES, DEFAULT_TIMEZONE } from '@atende/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { companies, invoices, settings, users } from '../../platform/db/schema.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { inTenant } from '../../platform/db/tenant.js';

let t: TestContext;
let smtp: TestSmtpServer;
let superToken: string;
let pricedPlanId: number;
let n = 0;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestContext({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atende <billing@atende.test>', SIGNUP_LIMIT_PER_IP: '3', INVOICE_DAYS_BEFORE_DUE: '10' } });
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
  pricedPlanId = (await t.factories.buildPlan({ name: 'Plano Pro', valueCents: 9990 })).id;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => t.app.services.signupLimiter.reset());

function buildSignup(overrides: Record<string, unknown> = {}) {
  n += 1;
  return { name: `Loja ${n}`, email: `owner${n}@shop.example`, phone: '(11) 98765-4321', password: 'Strong123', planId: pricedPlanId, ...overrides };
}

const signup = (body: unknown, ip = '10.0.0.1') => t.app.inject({ method: 'POST', url: '/companies/cadastro', payload: body as object, remoteAddress: ip });

describe('POST /companies/cadastro', () => {
  it('creates the company on trial with its admin, default settings and hours, its first invoice, and mails the login', async () => {
    const body = buildSignup({ recurrence: 'ANUAL', dueDate: '2999-01-01', status: 'f', campaignsEnabled: false, language: 'en' });
    const mail = smtp.nextMailTo(body.email);
    const today = dayIn(new Date(), DEFAULT_TIMEZONE);
    const response = await signup(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: 'received' });

    const [company] = await t.database.db.select().from(companies).where(eq(companies.email, body.email));
    expect(company).toMatchObject({ name: body.name, phone: '11987654321', planId: pricedPlanId, status: true, recurrence: 'MENSAL', schedules: DEFAULT_SCHEDULES });
    // Calendar dates (DECISIONS 15): the trial runs through the third day from the company's today.
    const due = company!.dueDate;
    expect([addToCalendarDate(today, { days: 3 }), addToCalendarDate(dayIn(new Date(), DEFAULT_TIMEZONE), { days: 3 })]).toContain(due);
    expect(company!.trialExpiration).toBe(due);

    const rows = await t.database.db.select({ key: settings.key, value: settings.value }).from(settings).where(inTenant(settings, { companyId: company!.id }));
    expect(rows.find((row) => row.key === 'campaignsEnabled')?.value).toBe('true');
    expect(rows.length).toBeGreaterThan(10);
    // Signed up from an English page: the company's language, its admin's and its chatbot's words (DECISIONS §1).
    const setting = (key: string) => rows.find((row) => row.key === key)?.value;
    expect([setting('language'), setting('chatbotChooseOption'), setting('chatbotBack')]).toEqual(['en', 'Choose one of the options below:', 'Back']);
    const [admin] = await t.database.db.select().from(users).where(eq(users.email, body.email));
    expect(admin).toMatchObject({ companyId: company!.id, profile: 'admin', super: false, language: 'en' });
    // Its next user has no language of its own (null: the web shows the company's), unless one is chosen.
    const adminToken = (await t.login(body.email, body.password)).token;
    const inherited = await t.request(adminToken, 'POST', '/users', { name: 'Bia Souza', email: `bia${n}@shop.example`, password: 'Strong123', profile: 'user' });
    expect(inherited.json()).toMatchObject({ language: null });
    const chosen = await t.request(adminToken, 'POST', '/users', { name: 'Caio Dias', email: `caio${n}@shop.example`, password: 'Strong123', profile: 'user', language: 'es' });
    expect(chosen.json()).toMatchObject({ language: 'es' });
    const [invoice] = await t.database.db.select().from(invoices).where(inTenant(invoices, { companyId: company!.id }));
    expect(invoice).toMatchObject({ valueCents: 9990, status: 'open', detail: 'Plano Pro' });
    expect(invoice!.dueDate).toBe(due);

    const received = await mail;
    expect(received.subject).toBe('Welcome to Atende');
    expect(received.raw).toContain(body.email);
    expect(received.raw).not.toContain(body.password);

    const session = await t.login(body.email, body.password);
    const subscription = (await t.request(session.token, 'GET', '/subscription')).json();
    expect(subscription).toMatchObject({ email: body.email, plan: { id: pricedPlanId, name: 'Plano Pro', value: 99.9 }, trialDaysLeft: 3, recurrence: 'MENSAL' });
  });

  it('answers the same for an e-mail that has an account, creates nothing, and tells the owner by e-mail', async () => {
    const existing = await t.factories.buildCompany();
    const count = async () => (await t.database.db.select({ id: companies.id }).from(companies)).length;
    const before = await count();
    const mail = smtp.nextMailTo(existing.admin.email);
    const response = await signup(buildSignup({ email: existing.admin.email.toUpperCase() }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: 'received' });
    expect(await count()).toBe(before);
    expect((await mail).subject).toBe('Tentativa de cadastro com seu e-mail');
    // The old password still signs in.
    await expect(existing.admin.login()).resolves.toBeTruthy();
  });

  it('refuses bad input with field messages and creates nothing', async () => {
    const response = await signup({ name: 'A', email: 'not-an-email', phone: '123', password: 'weakpass', planId: 'x' });
    expect(response.statusCode).toBe(400);
    const { fields } = response.json();
    expect(fields).toMatchObject({
      name: ['Too Short!'],
      email: ['Invalid email'],
      phone: ['Invalid phone number'],
      password: ['At least 8 characters, with a digit, a lower-case and an upper-case letter'],
    });
    expect(fields.planId).toBeDefined();
    for (const password of ['Short1a', 'alllower123', 'ALLUPPER123', 'NoDigitsHere', `Aa1${'x'.repeat(48)}`]) {
      const weak = await signup(buildSignup({ password }));
      expect(weak.statusCode, password).toBe(400);
    }
    expect((await signup(buildSignup({ planId: 999_999 }))).statusCode).toBe(404);
  });

  it('is rate-limited per IP address', async () => {
    for (let i = 0; i < 3; i += 1) expect((await signup(buildSignup(), '10.9.9.9')).statusCode).toBe(201);
    const limited = await signup(buildSignup(), '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    expect((await signup(buildSignup(), '10.9.9.10')).statusCode).toBe(201);
  });

  it('can be turned off by a super user only, and says so to the public pages', async () => {
    const admin = await (await t.factories.buildCompany()).admin.login();
    expect((await t.request(admin.token, 'PUT', '/settings/publicSignup', { value: 'disabled' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/auth/options' })).json()).toEqual({ signupEnabled: true, mailEnabled: true });

    // The whaticket v6 client's own keys for the same switch, read before login.
    const v6 = async (key: string) => (await t.app.inject({ method: 'GET', url: `/settings/${key}` })).json();
    expect(await v6('viewregister')).toEqual({ key: 'viewregister', value: 'enabled' });
    expect(await v6('trial')).toEqual({ key: 'trial', value: '3' });

    expect((await t.request(superToken, 'PUT', '/settings/publicSignup', { value: 'disabled' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/options' })).json()).toEqual({ signupEnabled: false, mailEnabled: true });
    expect(await v6('viewregister')).toEqual({ key: 'viewregister', value: 'disabled' });
    expect(await v6('allowregister')).toEqual({ key: 'allowregister', value: 'disabled' });
    const refused = await signup(buildSignup());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_SIGNUP_DISABLED');
    await t.request(superToken, 'PUT', '/settings/publicSignup', { value: 'enabled' });
    expect((await signup(buildSignup())).statusCode).toBe(201);
  });
});
