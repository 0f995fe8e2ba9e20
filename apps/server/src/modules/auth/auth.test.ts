import { NO_EXPIRY_DUE_DATE } from '@atende/shared';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ env: { LOGIN_LIMIT_PER_EMAIL: '5', LOGIN_LIMIT_PER_IP: '1000' } });
});
afterAll(() => t.close());
beforeEach(() => t.app.services.loginLimiter.reset());

const loginRequest = (email: string, password: string, ip = '127.0.0.1', cookies?: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress: ip, ...(cookies ? { cookies } : {}) });

describe('POST /auth/login', () => {
  it('answers a token and the user with company, due date, plan and settings', async () => {
    const response = await loginRequest(SUPER_ADMIN.email, SUPER_ADMIN.password);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({ email: SUPER_ADMIN.email, profile: 'admin', super: true, companyId: 1 });
    // Never null: the spec's client reads a null due date as expired.
    expect(body.user.company).toMatchObject({ id: 1, dueDate: NO_EXPIRY_DUE_DATE });
    expect(body.user.company.plan).toMatchObject({ useCampaigns: true, useExternalApi: true });
    expect(body.user.company.settings).toEqual(expect.arrayContaining([{ key: 'campaignsEnabled', value: 'true' }]));
    expect(body.user).not.toHaveProperty('passwordHash');
    const cookie = response.cookies.find((c) => c.name === 'jrt');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/auth' });
  });

  it('accepts the email in any case', async () => {
    expect((await loginRequest('ADMIN@Admin.com', SUPER_ADMIN.password)).statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const wrong = await loginRequest(SUPER_ADMIN.email, 'nope-nope');
    const unknown = await loginRequest('nobody@example.com', 'nope-nope');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers 400 with field messages for bad input (an undeclared field is ignored, not reported)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'not-an-email', extra: 1 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe('ERR_VALIDATION');
    expect(body.fields.email).toEqual(['Invalid email']);
    expect(body.fields.password).toEqual(['Required']);
    expect(Object.keys(body.fields).sort()).toEqual(['email', 'password']);
  });

  it('refuses a company whose due date passed with the expired-subscription message', async () => {
    const company = await t.factories.buildCompany({ dueDate: '2024-03-10' });
    const response = await loginRequest(company.admin.email, company.admin.password);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({
      error: 'ERR_SUBSCRIPTION_EXPIRED',
      message: 'Opss! Sua assinatura venceu 10/03/2024. Entre em contato com o Suporte para mais informações!',
      dueDate: '2024-03-10',
    });
  });

  it('lets a super user of an expired company in', async () => {
    const company = await t.factories.buildCompany({ dueDate: '2024-03-10' });
    const superUser = await t.factories.buildUser(company.id, { profile: 'admin', super: true });
    expect((await loginRequest(superUser.email, superUser.password)).statusCode).toBe(200);
  });

  it("rate-limits failures per (email, IP) pair with 429, for existing and unknown emails alike; the owner's device still gets in from elsewhere", async () => {
    for (let i = 0; i < 5; i++) await loginRequest('ghost@example.com', 'wrong-pass', '10.0.0.1');
    const limited = await loginRequest('ghost@example.com', 'wrong-pass', '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    // The owner signed in before from its own browser: that browser is a device of the account.
    const device = (await loginRequest(SUPER_ADMIN.email, SUPER_ADMIN.password, '10.0.1.2')).cookies.find((c) => c.name === 'jdv');
    expect(device).toMatchObject({ httpOnly: true, path: '/auth' });
    for (let i = 0; i < 5; i++) await loginRequest(SUPER_ADMIN.email, 'wrong-pass', '10.0.1.1');
    // Even the right password is refused from that address while the pair is over its limit...
    expect((await loginRequest(SUPER_ADMIN.email, SUPER_ADMIN.password, '10.0.1.1')).statusCode).toBe(429);
    // ...the account's 5 failures make attempts from elsewhere wait (login-limits.test.ts)...
    const elsewhere = await loginRequest(SUPER_ADMIN.email, SUPER_ADMIN.password, '10.0.1.3');
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.headers['retry-after']).toBe('1');
    // ...but never its owner's device, from any address.
    expect((await loginRequest(SUPER_ADMIN.email, SUPER_ADMIN.password, '10.0.1.3', { jdv: device?.value ?? '' })).statusCode).toBe(200);
    // The same address may still try other emails (up to its own per-IP limit).
    expect((await loginRequest('someone-else@example.com', 'wrong-pass', '10.0.1.1')).statusCode).toBe(401);
  });

  it('rate-limits failures per IP', async () => {
    const strict = await createTestContext({ env: { LOGIN_LIMIT_PER_IP: '3' } });
    try {
      for (let i = 0; i < 3; i++) {
        await strict.app.inject({ method: 'POST', url: '/auth/login', payload: { email: `a${i}@example.com`, password: 'x' } });
      }
      const limited = await strict.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'z@example.com', password: 'x' } });
      expect(limited.statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe('access tokens', () => {
  it('answers 401 without a token and with a forged one, 403 with an expired one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/auth/me' })).statusCode).toBe(401);
    expect((await t.request('not-a-jwt', 'GET', '/auth/me')).statusCode).toBe(401);
    const forged = await new SignJWT({ cid: 1, tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-0123456789abcdefghijkl'));
    expect((await t.request(forged, 'GET', '/auth/me')).statusCode).toBe(401);
    const expired = await new SignJWT({ cid: 1, tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(t.config.JWT_SECRET));
    const response = await t.request(expired, 'GET', '/auth/me');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('GET /auth/me answers the current user', async () => {
    const { token } = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
    const response = await t.request(token, 'GET', '/auth/me');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: SUPER_ADMIN.email, company: { id: 1 } });
  });

  it('answers 402 on data routes once the company expired', async () => {
    const company = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    // Days ago in any time zone (one day ago is still today in São Paulo between 00:00 and 03:00 UTC).
    await t.database.db.execute(`update companies set due_date = now() - interval '3 days' where id = ${company.id}` as never);
    const response = await t.request(token, 'GET', '/users');
    expect(response.statusCode).toBe(402);
    expect(response.json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
  });
});

describe('refresh tokens', () => {
  it('rotates: the new cookie works, the old one answers the same successor within the grace window and revokes the family after it', async () => {
    const { cookie } = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
    const first = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ token: expect.any(String), user: { email: SUPER_ADMIN.email } });
    const rotated = first.cookies.find((c) => c.name === 'jrt');
    expect(rotated?.value).toBeTruthy();
    expect(`jrt=${rotated?.value}`).not.toBe(cookie);

    const second = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: `jrt=${rotated?.value}` } });
    expect(second.statusCode).toBe(200);
    const latest = `jrt=${second.cookies.find((c) => c.name === 'jrt')?.value}`;

    // Within the grace window (a concurrent refresh) the first cookie answers its successor again.
    const again = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } });
    expect(again.statusCode).toBe(200);
    expect(again.cookies.find((c) => c.name === 'jrt')?.value).toBe(rotated?.value);

    // A replay after the grace period is taken as theft: the whole family ends.
    await t.database.db.execute(`update refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null` as never);
    const replay = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('ERR_SESSION_EXPIRED');
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: latest } })).statusCode).toBe(401);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: 'jrt=made-up' } })).statusCode).toBe(401);
  });

  it('logout revokes the refresh token and clears the cookie', async () => {
    const { token, cookie } = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
    const response = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { cookie, authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === 'jrt')?.value).toBe('');
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } })).statusCode).toBe(401);
  });

  it('logout ends the access token of that sign-in at once; other sign-ins of the user go on', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    const other = await company.admin.login();
    // The first answer is cached (user and sign-in): logout must still end it at once.
    expect((await t.request(session.token, 'GET', '/auth/me')).statusCode).toBe(200);
    const logout = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { cookie: session.cookie, authorization: `Bearer ${session.token}` } });
    expect(logout.statusCode).toBe(204);
    const after = await t.request(session.token, 'GET', '/auth/me');
    expect([after.statusCode, after.json()]).toEqual([401, { error: 'ERR_SESSION_EXPIRED' }]);
    expect((await t.request(session.token, 'GET', '/users')).statusCode).toBe(401);
    expect((await t.request(other.token, 'GET', '/auth/me')).statusCode).toBe(200);
  });

  it('logout with the access token alone (no cookie) ends that sign-in, refresh cookie included', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    expect((await t.request(session.token, 'GET', '/users')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: `Bearer ${session.token}` } })).statusCode).toBe(204);
    expect((await t.request(session.token, 'GET', '/users')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: session.cookie } })).statusCode).toBe(401);
  });

  it('a sign-in revoked elsewhere (another node, a replayed refresh token) ends its access tokens once the cache entry is gone', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    expect((await t.request(session.token, 'GET', '/users')).statusCode).toBe(200);
    await t.database.db.execute(`update refresh_tokens set revoked_at = now() where user_id = ${company.admin.id}` as never);
    // What another node's cache holds for at most its TTL (5 s); here the entry is dropped as if it expired.
    t.app.services.sessions.forget();
    expect((await t.request(session.token, 'GET', '/users')).statusCode).toBe(401);
  });

  it('changing one\'s own password keeps the sign-in that made the change and ends the others, access tokens included', async () => {
    const company = await t.factories.buildCompany();
    const current = await company.admin.login();
    const elsewhere = await company.admin.login();
    expect((await t.request(elsewhere.token, 'GET', '/auth/me')).statusCode).toBe(200);
    // From the browser: the refresh cookie (path /auth) is not sent to /users.
    const change = await t.request(current.token, 'PUT', `/users/${company.admin.id}`, { password: 'NewPass12' });
    expect(change.statusCode).toBe(200);
    expect((await t.request(current.token, 'GET', '/auth/me')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: current.cookie } })).statusCode).toBe(200);
    expect((await t.request(elsewhere.token, 'GET', '/auth/me')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: elsewhere.cookie } })).statusCode).toBe(401);
  });

  it("a password changed by an admin ends the user's sessions", async () => {
    const company = await t.factories.buildCompany();
    const agent = await t.factories.buildUser(company.id);
    const agentSession = await agent.login();
    const { token: adminToken } = await company.admin.login();
    const change = await t.request(adminToken, 'PUT', `/users/${agent.id}`, { password: 'NewPass1' });
    expect(change.statusCode).toBe(200);
    expect((await t.request(agentSession.token, 'GET', '/auth/me')).statusCode).toBe(401);
    const refresh = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: agentSession.cookie } });
    expect(refresh.statusCode).toBe(401);
    expect((await t.login(agent.email, 'NewPass1')).token).toBeTruthy();
  });
});

describe('POST /users/set-language/:lang', () => {
  it('stores the language and refuses unknown ones', async () => {
    const { token } = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
    const response = await t.request(token, 'POST', '/users/set-language/es');
    expect(response.statusCode).toBe(200);
    expect((await t.request(token, 'GET', '/auth/me')).json().language).toBe('es');
    expect((await t.request(token, 'POST', '/users/set-language/fr')).statusCode).toBe(400);
  });
});
