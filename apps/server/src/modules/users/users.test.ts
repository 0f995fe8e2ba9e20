import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../platform/db/schema.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { loadSession } from '../auth/session.repo.js';
import { deleteUser, setUserPresence, updateUser } from './users.service.js';
import { inTenant } from '../../platform/db/tenant.js';

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
    expect(user.queues).toEqual([{ id: queue.id, name: 'Vendas', color: queue.color, UserQueue: { userId: user.id, queueId: queue.id } }]);
    expect(JSON.stringify(user)).not.toMatch(/password/i);
    await t.request(adminToken, 'DELETE', `/users/${user.id}`);
  });

  it('validates the user form with field messages', async () => {
    const response = await t.request(adminToken, 'POST', '/users', { name: 'M', email: 'bad', password: '123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ name: ['Too Short!'], email: ['Invalid email'], password: ['Too Short!'] });
    // Required on add, with its own message (the user modal shows the same one).
    const blank = await t.request(adminToken, 'POST', '/users', newUser({ password: '' }));
    expect(blank.json().fields.password[0]).toBe('Required');
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

  it('a plan limit of 0 means no limit (what the plan form says)', async () => {
    const open = await t.factories.buildCompany({ plan: { users: 0 } });
    const token = (await open.admin.login()).token;
    const answers = await Promise.all([1, 2, 3, 4].map(() => t.request(token, 'POST', '/users', newUser())));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
  });

  it('the plan user limit holds when admins add users at the same moment', async () => {
    // One seat left (the admin holds the other): three creations at once, one wins.
    const small = await t.factories.buildCompany({ plan: { users: 2 } });
    const token = (await small.admin.login()).token;
    const answers = await Promise.all([1, 2, 3].map(() => t.request(token, 'POST', '/users', newUser())));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403, 403]);
    expect(answers.filter((a) => a.statusCode === 403).map((a) => a.json().error)).toEqual(['ERR_USER_LIMIT_REACHED', 'ERR_USER_LIMIT_REACHED']);
    const stored = await t.database.db.select({ id: users.id }).from(users).where(inTenant(users, { companyId: small.id }));
    expect(stored).toHaveLength(2);
  });

  it('publishes a change of presence (the users page dot), not every heartbeat', async () => {
    const member = await t.factories.buildUser(company.id);
    const ctx = await loadSession(t.database.db, member.id);
    if (!ctx) throw new Error('session not loaded');
    const seen: { id: number; online: boolean }[] = [];
    t.app.services.events.on('user.saved', ({ user }) => {
      if (user.id === member.id) seen.push({ id: user.id, online: user.online });
    });
    await setUserPresence(t.app.services, ctx, true);
    await setUserPresence(t.app.services, ctx, true);
    await setUserPresence(t.app.services, ctx, false);
    await setUserPresence(t.app.services, ctx, false);
    expect(seen).toEqual([
      { id: member.id, online: true },
      { id: member.id, online: false },
    ]);
    await t.request(adminToken, 'DELETE', `/users/${member.id}`);
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

  it("takes whaticket v6's user form: super null (not given) and whatsappId '' (none), on create and edit", async () => {
    // A company of its own: the shared one's plan limit is counted by the other tests.
    const own = await t.factories.buildCompany();
    const ownToken = (await own.admin.login()).token;
    const created = await t.request(ownToken, 'POST', '/users', newUser({ super: null, SuperIs: '0', whatsappId: '', allTicket: 'desabled', profile: 'user', queueIds: [] }));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ super: false, whatsappId: null });
    const edited = await t.request(ownToken, 'PUT', `/users/${created.json().id}`, { ...created.json<Record<string, unknown>>(), password: '', super: null, whatsappId: '' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ super: false, whatsappId: null });
    expect((await t.request(ownToken, 'PUT', `/users/${created.json().id}`, { super: 'maybe' })).statusCode).toBe(400);
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

  it('an admin cannot take over a super user of its company: no change of any field, no deletion', async () => {
    const holder = await t.factories.buildCompany();
    const holderAdmin = (await holder.admin.login()).token;
    const root = await t.factories.buildUser(holder.id, { profile: 'admin', super: true, password: 'RootPass1!' });
    const attempts: [string, Record<string, unknown>][] = [
      ['password', { password: 'owned12345' }],
      ['email', { email: 'attacker@example.com' }],
      ['name', { name: 'Owned' }],
      ['profile', { profile: 'user' }],
      ['language', { language: 'en' }],
    ];
    for (const [field, body] of attempts) {
      const response = await t.request(holderAdmin, 'PUT', `/users/${root.id}`, body);
      expect({ field, status: response.statusCode, error: response.json().error }).toEqual({ field, status: 403, error: 'ERR_NO_PERMISSION' });
    }
    const removal = await t.request(holderAdmin, 'DELETE', `/users/${root.id}`);
    expect([removal.statusCode, removal.json().error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, root.id));
    expect(stored).toMatchObject({ email: root.email, profile: 'admin', super: true, tokenVersion: 0, language: null });
    // The super user still signs in with its own password.
    expect((await root.login()).token).toBeTruthy();

    // A super user may change and delete another super user.
    const rootToken = (await root.login()).token;
    const peer = await t.factories.buildUser(holder.id, { profile: 'user', super: true });
    expect((await t.request(rootToken, 'PUT', `/users/${peer.id}`, { name: 'Renamed by super' })).statusCode).toBe(200);
    expect((await t.request(rootToken, 'DELETE', `/users/${peer.id}`)).statusCode).toBe(200);
  });

  it('nobody lowers their own profile', async () => {
    const response = await t.request(adminToken, 'PUT', `/users/${company.admin.id}`, { profile: 'user' });
    expect([response.statusCode, response.json().error]).toEqual([400, 'ERR_CANNOT_DEMOTE_SELF']);
    const [stored] = await t.database.db.select({ profile: users.profile }).from(users).where(eq(users.id, company.admin.id));
    expect(stored?.profile).toBe('admin');
    // Resending one's own profile unchanged is fine.
    expect((await t.request(adminToken, 'PUT', `/users/${company.admin.id}`, { profile: 'admin' })).statusCode).toBe(200);
  });

  it('the last admin is neither demoted nor deleted by an admin whose rights were read a moment before', async () => {
    // Two admins; each one's session was loaded (as the auth hook or another node's cache holds it)
    // before the other acted: without a check under the company lock both would succeed and leave none.
    const pair = await t.factories.buildCompany();
    const second = await t.factories.buildUser(pair.id, { profile: 'admin' });
    const firstCtx = await loadSession(t.database.db, pair.admin.id);
    const secondCtx = await loadSession(t.database.db, second.id);
    if (!firstCtx || !secondCtx) throw new Error('sessions not loaded');
    await updateUser(t.app.services, firstCtx, second.id, { profile: 'user' }, undefined);
    await expect(updateUser(t.app.services, secondCtx, pair.admin.id, { profile: 'user' }, undefined)).rejects.toMatchObject({ code: 'ERR_LAST_ADMIN', statusCode: 409 });
    await expect(deleteUser(t.app.services, secondCtx, pair.admin.id)).rejects.toMatchObject({ code: 'ERR_LAST_ADMIN', statusCode: 409 });
    const stored = await t.database.db.select({ id: users.id, profile: users.profile }).from(users).where(inTenant(users, { companyId: pair.id }));
    expect(stored).toHaveLength(2);
    expect(stored.filter((u) => u.profile === 'admin').map((u) => u.id)).toEqual([pair.admin.id]);
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const pair = await t.factories.buildCompany();
    const second = await t.factories.buildUser(pair.id, { profile: 'admin' });
    const [firstToken, secondToken] = [(await pair.admin.login()).token, (await second.login()).token];
    const answers = await Promise.all([
      t.request(firstToken, 'PUT', `/users/${second.id}`, { profile: 'user' }),
      t.request(secondToken, 'PUT', `/users/${pair.admin.id}`, { profile: 'user' }),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const refused = answers.find((a) => a.statusCode !== 200);
    expect(['ERR_LAST_ADMIN', 'ERR_NO_PERMISSION']).toContain(refused?.json().error);
    const admins = await t.database.db.select({ profile: users.profile }).from(users).where(inTenant(users, { companyId: pair.id }));
    expect(admins.filter((u) => u.profile === 'admin')).toHaveLength(1);
  });

  it("an email of another company is answered exactly like a malformed one, on create and on update", async () => {
    const other = await t.factories.buildCompany();
    const malformedCreate = await t.request(adminToken, 'POST', '/users', newUser({ email: 'not-an-email' }));
    const foreignCreate = await t.request(adminToken, 'POST', '/users', newUser({ email: other.admin.email }));
    expect(malformedCreate.statusCode).toBe(400);
    expect({ status: foreignCreate.statusCode, body: foreignCreate.json() }).toEqual({ status: malformedCreate.statusCode, body: malformedCreate.json() });

    const agent = await t.factories.buildUser(company.id);
    const malformedUpdate = await t.request(adminToken, 'PUT', `/users/${agent.id}`, { email: 'not-an-email' });
    const foreignUpdate = await t.request(adminToken, 'PUT', `/users/${agent.id}`, { email: other.admin.email.toUpperCase() });
    expect(malformedUpdate.statusCode).toBe(400);
    expect({ status: foreignUpdate.statusCode, body: foreignUpdate.json() }).toEqual({ status: malformedUpdate.statusCode, body: malformedUpdate.json() });

    // Inside one's own company the duplicate keeps its 409.
    const own = await t.request(adminToken, 'PUT', `/users/${agent.id}`, { email: company.admin.email });
    expect([own.statusCode, own.json().error]).toEqual([409, 'ERR_EMAIL_ALREADY_EXISTS']);
    const [stored] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, agent.id));
    expect(stored?.email).toBe(agent.email);
  });

  it('two creations of one new email at once: one is created, the other gets the duplicate answer, never a 500', async () => {
    const pair = await t.factories.buildCompany();
    const token = (await pair.admin.login()).token;
    const email = `race-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const answers = await Promise.all([t.request(token, 'POST', '/users', newUser({ email })), t.request(token, 'POST', '/users', newUser({ email }))]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });
});
