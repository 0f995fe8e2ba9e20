import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let superToken: string;
let company: BuiltCompany;
let agent: BuiltUser;
let platformUser: BuiltUser;

beforeAll(async () => {
  t = await createTestContext();
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
  company = await t.factories.buildCompany();
  agent = await t.factories.buildUser(company.id);
  platformUser = await t.factories.buildUser(company.id, { profile: 'admin', super: true });
});
afterAll(() => t.close());

const setStatus = async (status: boolean) => {
  const response = await t.request(superToken, 'PUT', `/companies/${company.id}`, { status });
  expect(response.statusCode).toBe(200);
};

describe('a suspended company (status = false)', () => {
  it('is refused on every private route, even those an expired company keeps, and at sign-in and refresh; super users are exempt', async () => {
    const admin = await company.admin.login();
    const agentSession = await agent.login();
    const platform = await platformUser.login();
    const connection = (await t.request(admin.token, 'POST', '/whatsapp', { name: 'API', provider: 'sandbox', token: 'please-make-a-token' })).json();
    expect(connection.token).toEqual(expect.any(String));

    await setStatus(false);
    for (const [who, token] of [['admin', admin.token], ['agent', agentSession.token]] as const) {
      for (const url of ['/users', '/tickets', '/auth/me', `/companies/${company.id}`]) {
        const response = await t.request(token, 'GET', url);
        expect({ who, url, status: response.statusCode, body: response.json() }).toEqual({ who, url, status: 403, body: { error: 'ERR_COMPANY_SUSPENDED' } });
      }
    }
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: company.admin.email, password: company.admin.password } });
    expect([login.statusCode, login.json()]).toEqual([403, { error: 'ERR_COMPANY_SUSPENDED' }]);
    expect(login.cookies.find((c) => c.name === 'jrt')).toBeUndefined();
    // Without the password nobody learns the company is suspended.
    const wrong = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: company.admin.email, password: 'not-the-password' } });
    expect([wrong.statusCode, wrong.json()]).toEqual([401, { error: 'ERR_INVALID_CREDENTIALS' }]);
    const refresh = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: admin.cookie } });
    expect([refresh.statusCode, refresh.json().error]).toEqual([403, 'ERR_COMPANY_SUSPENDED']);
    const external = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${connection.token}` }, payload: { number: '5511977770001', body: 'x' } });
    expect([external.statusCode, external.json().error]).toEqual([403, 'ERR_COMPANY_SUSPENDED']);

    // A super user of that company keeps working and signs in.
    expect((await t.request(platform.token, 'GET', '/users')).statusCode).toBe(200);
    expect((await t.login(platformUser.email, platformUser.password)).token).toBeTruthy();

    // Lifted: the same sessions work again.
    await setStatus(true);
    expect((await t.request(agentSession.token, 'GET', '/auth/me')).statusCode).toBe(200);
    expect((await t.request(admin.token, 'GET', '/users')).statusCode).toBe(200);
  });
});
