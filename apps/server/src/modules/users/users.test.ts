import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany({ plan: { users: 3 } });
  adminToken = (await company.admin.login()).token;
});
afterAll(() => t.close());

const newUser = (overrides: Record<string, unknown> = {}) => ({
  name: 'Maria Silva',
  email: `maria-${Math.random().toString(36).slice(2, 8)}@example.com`,
  password: 'secret1',
  ...overrides,
});

describe('users', () => {
  it('an admin creates a user with queues; the answer has no password', async () => {
    const queue = await t.factories.buildQueue(company.id, { name: 'Vendas' });
    const response = await t.request(adminToken, 'POST', '/users', newUser({ queueIds: [queue.id], profile: 'user' }));
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({ name: 'Maria Silva', profile: 'user', allTicket: 'desabled', companyId: company.id });
    expect(user.queues).toEqual([{ id: queue.id, name: 'Vendas', color: queue.color }]);
    expect(JSON.stringify(user)).not.toMatch(/password/i);
    await t.request(adminToken, 'DELETE', `/users/${user.id}`);
  });

  it('validates the user form with field messages', async () => {
    const response = await t.request(adminToken, 'POST', '/users', { name: 'M', email: 'bad', password: '123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ name: ['Too Short!'], email: ['Invalid email'], password: ['Too Short!'] });
    const long = await t.request(adminToken, 'POST', '/users', newUser({ name: 'x'.repeat(51) }));
    expect(long.json().fields).toEqual({ name: ['Too Long!'] });
  });

  it('refuses a duplicated email', async () => {
    const response = await t.request(adminToken, 'POST', '/users', newUser({ email: company.admin.email }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('enforces the plan user limit', async () => {
    // Plan allows 3: the admin plus two more.
    const a = await t.request(adminToken, 'POST', '/users', newUser());
    const b = await t.request(adminToken, 'POST', '/users', newUser());
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const over = await t.request(adminToken, 'POST', '/users', newUser());
    expect(over.statusCode).toBe(403);
    expect(over.json().error).toBe('ERR_USER_LIMIT_REACHED');
    await t.request(adminToken, 'DELETE', `/users/${a.json().id}`);
    await t.request(adminToken, 'DELETE', `/users/${b.json().id}`);
  });

  it('honours the userCreation setting', async () => {
    await t.request(adminToken, 'PUT', '/settings/userCreation', { value: 'disabled' });
    const refused = await t.request(adminToken, 'POST', '/users', newUser());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_USER_CREATION_DISABLED');
    await t.request(adminToken, 'PUT', '/settings/userCreation', { value: 'enabled' });
  });

  it('a plain user cannot create, delete or promote', async () => {
    const agent = await t.factories.buildUser(company.id);
    const { token } = await agent.login();
    expect((await t.request(token, 'POST', '/users', newUser())).json().error).toBe('ERR_NO_PERMISSION');
    expect((await t.request(token, 'DELETE', `/users/${company.admin.id}`)).statusCode).toBe(403);
    expect((await t.request(token, 'PUT', `/users/${agent.id}`, { profile: 'admin' })).statusCode).toBe(403);
    expect((await t.request(token, 'PUT', `/users/${agent.id}`, { allTicket: 'enabled' })).statusCode).toBe(403);
    expect((await t.request(token, 'PUT', `/users/${company.admin.id}`, { name: 'Hacked' })).statusCode).toBe(403);
    // Own name and an unchanged profile are fine.
    const own = await t.request(token, 'PUT', `/users/${agent.id}`, { name: 'Agent Smith', profile: 'user' });
    expect(own.statusCode).toBe(200);
    expect(own.json().name).toBe('Agent Smith');
  });

  it('only a super user grants the super flag', async () => {
    const response = await t.request(adminToken, 'POST', '/users', newUser({ super: true }));
    expect(response.statusCode).toBe(403);
  });

  it('an admin cannot delete itself', async () => {
    expect((await t.request(adminToken, 'DELETE', `/users/${company.admin.id}`)).json().error).toBe('ERR_CANNOT_DELETE_SELF');
  });

  it('lists with search and pagination', async () => {
    const response = await t.request(adminToken, 'GET', '/users?searchParam=AGENT%20SMITH&pageNumber=1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.users.map((u: { name: string }) => u.name)).toEqual(['Agent Smith']);
    expect(body).toMatchObject({ count: 1, hasMore: false });
    const meta = await t.request(adminToken, 'GET', `/users?searchParam=${encodeURIComponent("%' or 1=1 --")}`);
    expect(meta.statusCode).toBe(200);
    expect(meta.json().users).toEqual([]);
    expect((await t.request(adminToken, 'GET', '/users?pageNumber=-1')).statusCode).toBe(400);
  });

  it("refuses another company's queue or connection ids", async () => {
    const other = await t.factories.buildCompany();
    const foreignQueue = await t.factories.buildQueue(other.id);
    const response = await t.request(adminToken, 'POST', '/users', newUser({ queueIds: [foreignQueue.id] }));
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('ERR_NO_QUEUE_FOUND');
  });
});
