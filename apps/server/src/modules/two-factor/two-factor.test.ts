import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLogs } from '../../platform/db/schema.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { totpCode, totpStep } from './totp.js';

// The real clock, moved forward by the tests (a code is accepted once per 30-second step).
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const nextStep = () => {
  offsetMs += 30_000;
};
const codeNow = (secret: string) => totpCode(secret, totpStep(clock.now()));

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ clock, env: { LOGIN_LIMIT_PER_EMAIL: '5', LOGIN_LIMIT_PER_IP: '1000' } });
});
afterAll(() => t.close());
beforeEach(() => t.app.services.loginLimiter.reset());

const loginRequest = (payload: { email: string; password: string; code?: string }, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload, remoteAddress: ip });

/** A user of a new company with its second factor on: its secret and recovery codes. */
async function userWithSecondFactor(companyId?: number) {
  const company = companyId ?? (await t.factories.buildCompany()).id;
  const user = await t.factories.buildUser(company);
  const { token } = await user.login();
  const setup = await t.request(token, 'POST', '/auth/2fa/setup');
  const { secret } = setup.json<{ secret: string }>();
  const enabled = await t.request(token, 'POST', '/auth/2fa/enable', { code: codeNow(secret) });
  expect(enabled.statusCode).toBe(200);
  return { user, companyId: company, token, secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

describe('setting up a second factor', () => {
  it('answers a secret and its otpauth address, keeps the secret sealed, and enables with a current code only', async () => {
    const company = await t.factories.buildCompany();
    const { token, userId } = await t.login(company.admin.email, company.admin.password);
    const setup = await t.request(token, 'POST', '/auth/2fa/setup');
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Atende:${encodeURIComponent(company.admin.email)}?secret=${secret}&issuer=Atende&algorithm=SHA1&digits=6&period=30`);
    const stored = (await t.database.db.execute(sql`select secret_sealed from user_two_factor where user_id = ${userId}`)) as unknown as { rows: { secret_sealed: string }[] };
    expect(stored.rows[0]?.secret_sealed).toMatch(/^v1\./);
    expect(stored.rows[0]?.secret_sealed).not.toContain(secret);
    // Not on yet: the login still takes the password alone.
    expect((await loginRequest({ email: company.admin.email, password: company.admin.password })).json()).toHaveProperty('token');

    const stale = totpCode(secret, totpStep(clock.now()) - 2);
    const wrong = await t.request(token, 'POST', '/auth/2fa/enable', { code: stale });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('ERR_INVALID_TWO_FACTOR_CODE');
    expect((await t.request(token, 'POST', '/auth/2fa/enable', { code: 'x'.repeat(65) })).statusCode).toBe(400);

    const enabled = await t.request(token, 'POST', '/auth/2fa/enable', { code: codeNow(secret) });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    // Only keyed hashes are stored.
    const hashes = (await t.database.db.execute(sql`select code_hash from two_factor_recovery_codes where user_id = ${userId}`)) as unknown as { rows: { code_hash: string }[] };
    expect(hashes.rows).toHaveLength(10);
    for (const row of hashes.rows) expect(recoveryCodes.map((code) => code.replace('-', ''))).not.toContain(row.code_hash);

    expect((await t.request(token, 'GET', '/auth/2fa')).json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    // A new set-up would replace a secret in use: turn it off first.
    const again = await t.request(token, 'POST', '/auth/2fa/setup');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_TWO_FACTOR_ALREADY_ENABLED');
  });

  it('refuses enable without a set-up', async () => {
    const user = await t.factories.buildUser((await t.factories.buildCompany()).id);
    const { token } = await user.login();
    const response = await t.request(token, 'POST', '/auth/2fa/enable', { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('ERR_TWO_FACTOR_NOT_SET_UP');
  });
});

describe('signing in with a second factor', () => {
  it('asks for the code after a right password, signs in with it, and accepts each code once', async () => {
    const { user, secret } = await userWithSecondFactor();
    const first = await loginRequest({ email: user.email, password: user.password });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true });
    expect(first.cookies).toEqual([]);
    // A wrong password is still the plain refusal.
    expect((await loginRequest({ email: user.email, password: 'wrong-pass', code: '123456' })).json().error).toBe('ERR_INVALID_CREDENTIALS');

    // The code that enabled the factor was spent then.
    const reused = await loginRequest({ email: user.email, password: user.password, code: codeNow(secret) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('ERR_INVALID_TWO_FACTOR_CODE');
    expect(reused.cookies).toEqual([]);

    nextStep();
    const code = codeNow(secret);
    const signedIn = await loginRequest({ email: user.email, password: user.password, code });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ token: expect.any(String), user: { id: user.id } });
    expect(signedIn.cookies.map((cookie) => cookie.name).sort()).toEqual(['jdv', 'jrt']);
    // Replayed within its window: refused.
    const replay = await loginRequest({ email: user.email, password: user.password, code });
    expect(replay.json().error).toBe('ERR_INVALID_TWO_FACTOR_CODE');
    // A code two steps old is outside the window.
    nextStep();
    nextStep();
    nextStep();
    expect((await loginRequest({ email: user.email, password: user.password, code: totpCode(secret, totpStep(clock.now()) - 2) })).statusCode).toBe(400);
    // The previous step's code is still accepted (a code typed as it changed).
    expect((await loginRequest({ email: user.email, password: user.password, code: totpCode(secret, totpStep(clock.now()) - 1) })).statusCode).toBe(200);
  });

  it('takes each recovery code once, in any case and with or without its dash', async () => {
    const { user, token, recoveryCodes } = await userWithSecondFactor();
    const [first = '', second = ''] = recoveryCodes;
    expect((await loginRequest({ email: user.email, password: user.password, code: first })).statusCode).toBe(200);
    expect((await loginRequest({ email: user.email, password: user.password, code: first })).json().error).toBe('ERR_INVALID_TWO_FACTOR_CODE');
    expect((await loginRequest({ email: user.email, password: user.password, code: second.replace('-', '').toUpperCase() })).statusCode).toBe(200);
    expect((await t.request(token, 'GET', '/auth/2fa')).json()).toMatchObject({ recoveryCodesLeft: 8 });
    // Another user's recovery code is not this user's.
    const other = await userWithSecondFactor();
    expect((await loginRequest({ email: user.email, password: user.password, code: other.recoveryCodes[0] ?? '' })).statusCode).toBe(400);
  });

  it('counts wrong codes in the login limits like wrong passwords; the password step alone counts nothing', async () => {
    const { user, secret } = await userWithSecondFactor();
    for (let i = 0; i < 8; i++) expect((await loginRequest({ email: user.email, password: user.password }, '10.2.0.1')).json()).toEqual({ twoFactorRequired: true });
    for (let i = 0; i < 5; i++) expect((await loginRequest({ email: user.email, password: user.password, code: '000000' }, '10.2.0.1')).statusCode).toBe(400);
    nextStep();
    const limited = await loginRequest({ email: user.email, password: user.password, code: codeNow(secret) }, '10.2.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('ERR_TOO_MANY_REQUESTS');
  });

  it('answers 400 for a code that is not a string or is too long, never 5xx', async () => {
    const { user } = await userWithSecondFactor();
    for (const code of [123456, '', 'a\u0000b', 'x'.repeat(100)]) {
      const response = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: user.password, code } });
      expect(response.statusCode).toBe(400);
    }
  });
});

describe('turning the second factor off', () => {
  it('takes a current code or the password; then the password alone signs in', async () => {
    const { user, token, secret } = await userWithSecondFactor();
    const wrong = await t.request(token, 'POST', '/auth/2fa/disable', { password: 'not-mine' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('ERR_WRONG_PASSWORD');
    expect((await t.request(token, 'POST', '/auth/2fa/disable', {})).statusCode).toBe(400);
    nextStep();
    expect((await t.request(token, 'POST', '/auth/2fa/disable', { code: codeNow(secret) })).statusCode).toBe(204);
    expect((await t.request(token, 'GET', '/auth/2fa')).json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    expect((await loginRequest({ email: user.email, password: user.password })).json()).toHaveProperty('token');

    const again = await userWithSecondFactor();
    expect((await t.request(again.token, 'POST', '/auth/2fa/disable', { password: again.user.password })).statusCode).toBe(204);
    expect((await t.request(again.token, 'POST', '/auth/2fa/disable', { password: again.user.password })).json().error).toBe('ERR_TWO_FACTOR_NOT_SET_UP');
  });
});

describe('a company that requires a second factor', () => {
  it("limits a user without one to setting it up, from the admin's switch on, and opens the session once it is on", async () => {
    const company = await t.factories.buildCompany();
    const admin = await company.admin.login();
    const agent = await t.factories.buildUser(company.id);
    const { token } = await agent.login();
    expect((await t.request(token, 'GET', '/tickets')).statusCode).toBe(200);
    // Only admins turn it on.
    expect((await t.request(token, 'PUT', '/settings/requireTwoFactor', { value: 'enabled' })).statusCode).toBe(403);
    expect((await t.request(admin.token, 'PUT', '/settings/requireTwoFactor', { value: 'enabled' })).statusCode).toBe(200);

    // The same token, at once (the company's cached sessions were dropped).
    const limited = await t.request(token, 'GET', '/tickets');
    expect(limited.statusCode).toBe(403);
    expect(limited.json().error).toBe('ERR_TWO_FACTOR_SETUP_REQUIRED');
    expect((await t.request(token, 'GET', '/auth/me')).statusCode).toBe(200);
    expect((await t.request(token, 'GET', '/auth/2fa')).json()).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });
    // A new sign-in gets such a session too.
    const fresh = await loginRequest({ email: agent.email, password: agent.password });
    expect(fresh.statusCode).toBe(200);
    expect((await t.request(fresh.json().token, 'GET', '/contacts')).json().error).toBe('ERR_TWO_FACTOR_SETUP_REQUIRED');

    const { secret } = (await t.request(token, 'POST', '/auth/2fa/setup')).json<{ secret: string }>();
    expect((await t.request(token, 'POST', '/auth/2fa/enable', { code: codeNow(secret) })).statusCode).toBe(200);
    expect((await t.request(token, 'GET', '/tickets')).statusCode).toBe(200);
    // Its users cannot turn theirs off.
    nextStep();
    const off = await t.request(token, 'POST', '/auth/2fa/disable', { code: codeNow(secret) });
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toBe('ERR_TWO_FACTOR_REQUIRED_BY_COMPANY');
    // The admin who turned it on without a second factor is limited like anyone (the web sets one up first).
    expect((await t.request(admin.token, 'GET', '/settings/requireTwoFactor')).json().error).toBe('ERR_TWO_FACTOR_SETUP_REQUIRED');
  });
});

describe('a super user resets a second factor', () => {
  it("removes it for a user of any company (the platform's support), recorded in that company's log; admins may not", async () => {
    const superUser = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
    const { user } = await userWithSecondFactor(superUser.companyId);
    const otherCompany = await userWithSecondFactor();
    const admin = await t.factories.buildUser(superUser.companyId, { profile: 'admin' });
    const adminSession = await admin.login();

    expect((await t.request(adminSession.token, 'POST', `/users/${user.id}/2fa/reset`)).statusCode).toBe(403);
    expect((await t.request(adminSession.token, 'POST', `/users/${otherCompany.user.id}/2fa/reset`)).statusCode).toBe(403);
    expect((await loginRequest({ email: otherCompany.user.email, password: otherCompany.user.password })).json()).toEqual({ twoFactorRequired: true });
    // An agent of another company lost their phone: the platform's super user resets it, and that company's log says so.
    expect((await t.request(superUser.token, 'POST', `/users/${otherCompany.user.id}/2fa/reset`)).statusCode).toBe(204);
    expect((await loginRequest({ email: otherCompany.user.email, password: otherCompany.user.password })).json()).toHaveProperty('token');
    const [entry] = await t.database.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, String(otherCompany.user.id)), eq(auditLogs.action, 'two_factor.disabled')));
    expect(entry).toMatchObject({ companyId: otherCompany.companyId, action: 'two_factor.disabled', userId: superUser.userId });

    expect((await t.request(superUser.token, 'POST', `/users/${user.id}/2fa/reset`)).statusCode).toBe(204);
    expect((await loginRequest({ email: user.email, password: user.password })).json()).toHaveProperty('token');
    expect((await t.request(superUser.token, 'POST', '/users/999999/2fa/reset')).statusCode).toBe(404);
  });
});
