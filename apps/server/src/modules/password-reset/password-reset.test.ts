import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordResets, settings, users } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import { redactUrl } from '../../platform/http/redact.js';
import { codeOf, startTestSmtpServer, type TestSmtpServer } from '../../test/smtp.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestContext({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => t.app.services.resetLimiter.reset());

const forget = (email: string, ip = '10.1.1.1') => t.app.inject({ method: 'POST', url: `/forgetpassword/${encodeURIComponent(email)}`, remoteAddress: ip });
const reset = (body: { email: string; token: string; newPassword: string }) => t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: body });

/** Asks for a code and reads it from the mail the real SMTP server received. */
async function requestCode(email: string): Promise<string> {
  const mail = smtp.nextMailTo(email);
  const response = await forget(email);
  expect(response.statusCode).toBe(200);
  return codeOf(await mail);
}

describe('password reset', () => {
  it('mails a 6-digit code; the code sets the password once and ends every session of the user', async () => {
    const { admin } = await t.factories.buildCompany();
    const before = await admin.login();
    const code = await requestCode(admin.email);
    expect(code).toMatch(/^\d{6}$/);

    expect((await reset({ email: admin.email, token: code, newPassword: 'NewPass123' })).statusCode).toBe(200);
    // The old access token and refresh cookie no longer work.
    expect((await t.request(before.token, 'GET', '/auth/me')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: before.cookie } })).statusCode).toBe(401);
    await expect(t.login(admin.email, admin.password)).rejects.toThrow();
    await expect(t.login(admin.email, 'NewPass123')).resolves.toBeTruthy();

    // Single use.
    const again = await reset({ email: admin.email, token: code, newPassword: 'Other123x' });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('ERR_INVALID_RESET_CODE');
  });

  it("is mailed in the user's language, else the company's (DECISIONS §1)", async () => {
    const { id, admin } = await t.factories.buildCompany();
    await t.database.db.update(users).set({ language: null }).where(eq(users.email, admin.email));
    await t.database.db.update(settings).set({ value: 'es' }).where(inTenant(settings, { companyId: id }, eq(settings.key, 'language')));
    const mail = smtp.nextMailTo(admin.email);
    expect((await forget(admin.email)).statusCode).toBe(200);
    // The subject is MIME-encoded (it has accents): its Spanish words show through.
    expect((await mail).subject).toMatch(/^=\?UTF-8\?Q\?Su_c.*_para_restablecer_la_contr/);
  });

  it('answers the same whether or not the e-mail has an account, unless the spec-client setting is on', async () => {
    const unknown = await forget('nobody@nowhere.example');
    const { admin } = await t.factories.buildCompany();
    const mail = smtp.nextMailTo(admin.email);
    const known = await forget(admin.email);
    await mail;
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());

    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    expect((await t.request(superToken, 'PUT', '/settings/passwordResetNotFound', { value: 'enabled' })).statusCode).toBe(200);
    expect((await forget('nobody@nowhere.example')).json()).toMatchObject({ status: 404 });
    await t.request(superToken, 'PUT', '/settings/passwordResetNotFound', { value: 'disabled' });
    // A wrong code for an unknown e-mail is the same error as for a known one.
    expect((await reset({ email: 'nobody@nowhere.example', token: '123456', newPassword: 'NewPass123' })).json().error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('refuses an expired code', async () => {
    const { admin } = await t.factories.buildCompany();
    const code = await requestCode(admin.email);
    await t.database.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.userId, admin.id));
    expect((await reset({ email: admin.email, token: code, newPassword: 'NewPass123' })).json().error).toBe('ERR_INVALID_RESET_CODE');
    await expect(admin.login()).resolves.toBeTruthy();
  });

  it('allows 5 tries of a code: the right code after 5 wrong ones is refused', async () => {
    const { admin } = await t.factories.buildCompany();
    const code = await requestCode(admin.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect((await reset({ email: admin.email, token: wrong, newPassword: 'NewPass123' })).statusCode).toBe(401);
    expect((await reset({ email: admin.email, token: code, newPassword: 'NewPass123' })).json().error).toBe('ERR_INVALID_RESET_CODE');
    await expect(admin.login()).resolves.toBeTruthy();
  });

  it('keeps only the latest code', async () => {
    const { admin } = await t.factories.buildCompany();
    const first = await requestCode(admin.email);
    const second = await requestCode(admin.email);
    if (first !== second) expect((await reset({ email: admin.email, token: first, newPassword: 'NewPass123' })).statusCode).toBe(401);
    expect((await reset({ email: admin.email, token: second, newPassword: 'NewPass123' })).statusCode).toBe(200);
  });

  it("works through the spec's path route, which never reaches a log", async () => {
    const { admin } = await t.factories.buildCompany();
    const code = await requestCode(admin.email);
    const url = `/resetpasswords/${encodeURIComponent(admin.email)}/${code}/NewPass123`;
    expect(redactUrl(url)).toBe('/resetpasswords/[redacted]');
    expect(redactUrl(`/forgetpassword/${encodeURIComponent(admin.email)}`)).toBe('/forgetpassword/[redacted]');
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(200);
    await expect(t.login(admin.email, 'NewPass123')).resolves.toBeTruthy();
  });

  it('validates the new password and the code', async () => {
    const { admin } = await t.factories.buildCompany();
    const weak = await reset({ email: admin.email, token: '12345', newPassword: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().fields).sort()).toEqual(['newPassword', 'token']);
  });

  it('limits requests per IP address', async () => {
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await forget(`someone${i}@nowhere.example`, '10.7.7.7')).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('issues at most 5 codes an hour per account, whatever the address, and answers an unknown e-mail alike', async () => {
    const { admin } = await t.factories.buildCompany();
    const asked = async (email: string) => {
      const answers = [];
      // A new address each time, as rotating addresses (or forwarded headers) would give.
      for (let i = 0; i < 6; i += 1) {
        const mail = email === admin.email && i < 5 ? smtp.nextMailTo(email) : null;
        const response = await forget(email, `10.8.${email.length}.${i}`);
        if (mail) await mail;
        answers.push({ status: response.statusCode, body: response.json() as unknown });
      }
      return answers;
    };
    const known = await asked(admin.email);
    expect(known.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await asked('nobody-at-all@nowhere.example')).toEqual(known);
  });

  it('allows 10 tries an hour per account across all its codes, whatever the address, then refuses even the right code', async () => {
    const { admin } = await t.factories.buildCompany();
    for (let round = 0; round < 2; round += 1) {
      const code = await requestCode(admin.email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i += 1) expect((await reset({ email: admin.email, token: wrong, newPassword: 'NewPass123' })).statusCode).toBe(401);
    }
    const code = await requestCode(admin.email);
    const refused = await reset({ email: admin.email, token: code, newPassword: 'NewPass123' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    await expect(admin.login()).resolves.toBeTruthy();
    // An unknown e-mail gets the same answers: 10 × 401, then 429.
    const unknown = [];
    for (let i = 0; i < 11; i += 1) unknown.push((await reset({ email: 'nobody-at-all@nowhere.example', token: '123456', newPassword: 'NewPass123' })).statusCode);
    expect(unknown).toEqual([...Array<number>(10).fill(401), 429]);
  });

  it('ends the outstanding code when the owner signs in with the password', async () => {
    const { admin } = await t.factories.buildCompany();
    const code = await requestCode(admin.email);
    await admin.login();
    const response = await reset({ email: admin.email, token: code, newPassword: 'NewPass123' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('ERR_INVALID_RESET_CODE');
  });
});

describe('password reset without SMTP', () => {
  it('in production: says e-mail is not configured, and the public pages know it', async () => {
    const bare = await createTestContext({ env: { NODE_ENV: 'production' } });
    try {
      const response = await bare.app.inject({ method: 'POST', url: '/forgetpassword/someone%40example.com' });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('ERR_MAIL_UNAVAILABLE');
      expect((await bare.app.inject({ method: 'GET', url: '/auth/options' })).json()).toMatchObject({ mailEnabled: false });
    } finally {
      await bare.close();
    }
  });

  it('outside production: keeps the mail as an .eml file in DATA_DIR/mail, whose code finishes the reset', async () => {
    const bare = await createTestContext();
    try {
      expect((await bare.app.inject({ method: 'GET', url: '/auth/options' })).json()).toMatchObject({ mailEnabled: true });
      const { admin } = await bare.factories.buildCompany();
      const response = await bare.app.inject({ method: 'POST', url: `/forgetpassword/${encodeURIComponent(admin.email)}` });
      expect(response.statusCode).toBe(200);
      const folder = path.join(bare.config.DATA_DIR, 'mail');
      // Written after the answer, as an SMTP send would be.
      const files = await vi.waitFor(() => {
        const found = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.eml')) : [];
        expect(found).toHaveLength(1);
        return found;
      });
      const raw = readFileSync(path.join(folder, files[0] ?? ''), 'utf8');
      expect(raw).toContain(`To: ${admin.email}`);
      const code = codeOf({ to: [admin.email], subject: '', raw });
      const done = await bare.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { email: admin.email, token: code, newPassword: 'NewPass123' } });
      expect(done.statusCode).toBe(200);
      await expect(bare.login(admin.email, 'NewPass123')).resolves.toBeTruthy();
    } finally {
      await bare.close();
    }
  });
});
