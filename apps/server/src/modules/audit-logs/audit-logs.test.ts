import type { AuditAction, AuditLogPage, PresentedAuditLog } from '@atende/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../platform/audit/audit-log.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { usePostgres } from '../../test/test-database.js';
import { ALLOW_LOOPBACK_PEERS, createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { pruneAuditLogs } from './audit-logs.service.js';

/** The address and browser every call of this file comes from: the entries must name them. */
const CLIENT_IP = '203.0.113.7';
const USER_AGENT = 'AuditTest/1.0';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let superToken: string;

function call(token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    remoteAddress: CLIENT_IP,
    headers: { 'user-agent': USER_AGENT, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  });
}

async function entries(token: string, query = ''): Promise<PresentedAuditLog[]> {
  const response = await call(token, 'GET', `/audit-logs${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditLogPage>().entries;
}

beforeAll(async () => {
  t = await createTestContext({ env: { ...ALLOW_LOOPBACK_PEERS, AUDIT_LOG_RETENTION_DAYS: '30' } });
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
});

afterAll(async () => {
  await t?.close();
});

describe.runIf(!usePostgres || process.env.TEST_DATABASE === 'postgres')('the audit log (issue 35)', () => {
  /** Each area the issue lists: a call that changes something, and the action it must record with its entity id. */
  const AREAS: { area: string; action: AuditAction; run: () => Promise<string | null> }[] = [
    {
      area: 'users: created',
      action: 'user.created',
      run: async () => String((await call(adminToken, 'POST', '/users', { name: 'Audited', email: `audited-${Date.now()}@example.com`, password: 'Secret123!', profile: 'user' })).json<{ id: number }>().id),
    },
    {
      area: 'users: rights changed',
      action: 'user.updated',
      run: async () => {
        const user = await t.factories.buildUser(company.id, { profile: 'user' });
        expect((await call(adminToken, 'PUT', `/users/${user.id}`, { profile: 'admin', password: 'Another123!' })).statusCode).toBe(200);
        return String(user.id);
      },
    },
    {
      area: 'users: deleted',
      action: 'user.deleted',
      run: async () => {
        const user = await t.factories.buildUser(company.id, { profile: 'user' });
        expect((await call(adminToken, 'DELETE', `/users/${user.id}`)).statusCode).toBe(200);
        return String(user.id);
      },
    },
    {
      area: 'queues',
      action: 'queue.updated',
      run: async () => {
        const queue = await t.factories.buildQueue(company.id);
        expect((await call(adminToken, 'PUT', `/queue/${queue.id}`, { name: 'Renamed queue' })).statusCode).toBe(200);
        return String(queue.id);
      },
    },
    {
      area: 'connections',
      action: 'connection.created',
      run: async () => String((await call(adminToken, 'POST', '/whatsapp', { name: 'Audited phone', provider: 'sandbox' })).json<{ id: number }>().id),
    },
    {
      area: 'settings',
      action: 'setting.updated',
      run: async () => {
        expect((await call(adminToken, 'PUT', '/settings/userCreation', { value: 'disabled' })).statusCode).toBe(200);
        return 'userCreation';
      },
    },
    {
      area: 'integrations',
      action: 'integration.created',
      run: async () => String((await call(adminToken, 'POST', '/queueIntegration', { type: 'webhook', name: 'Audited hook', urlN8N: 'http://127.0.0.1:9/hook' })).json<{ id: number }>().id),
    },
    {
      area: 'API keys: created',
      action: 'api_key.created',
      run: async () => String((await call(adminToken, 'POST', '/api-keys', { name: 'Audited key', scopes: ['tickets:read'] })).json<{ id: number }>().id),
    },
    {
      area: 'API keys: revoked',
      action: 'api_key.revoked',
      run: async () => {
        const key = (await call(adminToken, 'POST', '/api-keys', { name: 'Revoked key', scopes: ['tickets:read'] })).json<{ id: number }>();
        expect((await call(adminToken, 'DELETE', `/api-keys/${key.id}`)).statusCode).toBe(200);
        return String(key.id);
      },
    },
    {
      area: 'webhooks: created',
      action: 'webhook.created',
      run: async () => String((await call(adminToken, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/audited', events: ['ticket.created'] })).json<{ id: number }>().id),
    },
    {
      area: 'webhooks: updated and deleted',
      action: 'webhook.deleted',
      run: async () => {
        const hook = (await call(adminToken, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/gone', events: ['ticket.created'] })).json<{ id: number }>();
        expect((await call(adminToken, 'PUT', `/webhooks/${hook.id}`, { events: ['contact.created'] })).statusCode).toBe(200);
        const [updated] = await entries(adminToken, '?action=webhook.updated');
        expect(updated).toMatchObject({ entityId: String(hook.id), changes: { events: { from: ['ticket.created'], to: ['contact.created'] } } });
        expect((await call(adminToken, 'DELETE', `/webhooks/${hook.id}`)).statusCode).toBe(204);
        return String(hook.id);
      },
    },
    {
      area: 'ticket deletions',
      action: 'ticket.deleted',
      run: async () => {
        const ticket = await createServiceDeskFactories(t.database.db).buildTicket(company.id, { status: 'open', userId: company.admin.id });
        expect((await call(adminToken, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(200);
        return String(ticket.id);
      },
    },
    {
      area: 'exports',
      action: 'export.contacts',
      run: async () => {
        expect((await call(adminToken, 'GET', '/contacts/export')).statusCode).toBe(200);
        return null;
      },
    },
    {
      area: 'sign-in',
      action: 'auth.login',
      run: async () => {
        expect((await call(null, 'POST', '/auth/login', { email: company.admin.email, password: company.admin.password })).statusCode).toBe(200);
        return String(company.admin.id);
      },
    },
  ];

  it.each(AREAS)('$area: $action is recorded with the user, the address and the browser', async ({ action, run }) => {
    const entityId = await run();
    const [entry] = await entries(adminToken, `?action=${action}`);
    expect(entry).toMatchObject({ action, userId: company.admin.id, ip: CLIENT_IP, userAgent: USER_AGENT });
    if (entityId !== null) expect(entry?.entityId).toBe(entityId);
  });

  it('never records a password or a secret, only that it changed', async () => {
    const [update] = await entries(adminToken, '?action=user.updated');
    expect(update?.changes).toMatchObject({ profile: { from: 'user', to: 'admin' }, password: { changed: true } });
    expect(JSON.stringify(update)).not.toContain('Another123!');
    const [created] = await entries(adminToken, '?action=user.created');
    expect(JSON.stringify(created)).not.toContain('Secret123!');
    const keys = await entries(adminToken, '?action=api_key.created');
    const key = keys.find((entry) => entry.changes?.name === 'Audited key');
    expect(key?.changes).toMatchObject({ name: 'Audited key', scopes: ['tickets:read'] });
    expect(JSON.stringify(keys)).not.toMatch(/atk_[0-9a-f]{16}_/);
  });

  it('records a failed sign-in of a known account, under its company', async () => {
    expect((await call(null, 'POST', '/auth/login', { email: company.admin.email, password: 'Wrong123!' })).statusCode).toBe(401);
    const [failed] = await entries(adminToken, '?action=auth.login_failed');
    expect(failed).toMatchObject({ userId: company.admin.id, entity: 'auth', ip: CLIENT_IP });
  });

  it('filters by entity, user and days, newest first', async () => {
    const users = await entries(adminToken, '?entity=user');
    expect(users.length).toBeGreaterThanOrEqual(3);
    expect(users.every((entry) => entry.entity === 'user')).toBe(true);
    const times = users.map((entry) => entry.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await entries(adminToken, `?userId=${company.admin.id}`)).every((entry) => entry.userId === company.admin.id)).toBe(true);
    expect(await entries(adminToken, '?from=2001-01-01&to=2001-01-02')).toEqual([]);
    expect((await call(adminToken, 'GET', '/audit-logs?from=2026-02-30')).statusCode).toBe(400);
    expect((await call(adminToken, 'GET', '/audit-logs?action=user.hacked')).statusCode).toBe(400);
  });

  it('keeps companies apart: another admin reads only their own log, even naming this company', async () => {
    const other = await t.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    const seen = await entries(otherToken, `?companyId=${company.id}`);
    expect(seen.every((entry) => entry.userId === other.admin.id)).toBe(true);
    expect(seen.some((entry) => entry.action === 'user.created')).toBe(false);
  });

  it('is for admins: an agent gets 403', async () => {
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const { token } = await agent.login();
    expect((await call(token, 'GET', '/audit-logs')).statusCode).toBe(403);
  });

  it('lets a super user read a company, and the platform-level entries (plans) apart', async () => {
    const plan = await call(superToken, 'POST', '/plans', { name: `Audited plan ${Date.now()}`, users: 3, connections: 1, queues: 2, value: 10 });
    expect(plan.statusCode, plan.body).toBe(201);
    const [platform] = await entries(superToken, '?companyId=0&action=plan.created');
    expect(platform).toMatchObject({ action: 'plan.created', entityId: String(plan.json<{ id: number }>().id), ip: CLIENT_IP });
    expect(await entries(adminToken, '?action=plan.created')).toEqual([]);
    const theirs = await entries(superToken, `?companyId=${company.id}&action=user.created`);
    expect(theirs.length).toBeGreaterThan(0);
  });

  it('offers no route that edits or deletes an entry, and the database refuses an update', async () => {
    const [entry] = await entries(adminToken, '?action=user.created');
    for (const method of ['PUT', 'DELETE', 'POST'] as const) {
      expect([404, 405]).toContain((await call(adminToken, method, `/audit-logs/${entry?.id}`, method === 'DELETE' ? undefined : { action: 'x' })).statusCode);
    }
    await expect(t.database.db.execute(sql`UPDATE audit_logs SET ip = '0.0.0.0' WHERE id = ${entry?.id}`)).rejects.toThrow();
    expect((await entries(adminToken, '?action=user.created'))[0]?.ip).toBe(CLIENT_IP);
  });

  it('deletes entries older than AUDIT_LOG_RETENTION_DAYS and keeps the others', async () => {
    await recordAudit(t.database.db, { companyId: company.id, userId: company.admin.id, userName: 'Recent', client: null }, { action: 'setting.updated', entityId: 'recent' });
    await t.database.db.execute(
      sql`INSERT INTO audit_logs (company_id, user_id, action, entity, entity_id, created_at) VALUES (${company.id}, ${company.admin.id}, 'setting.updated', 'setting', 'ancient', now() - interval '31 days')`,
    );
    const before = (await entries(adminToken)).length;
    expect(await pruneAuditLogs(t.app.services)).toBe(1);
    const after = await entries(adminToken);
    expect(after.some((entry) => entry.entityId === 'ancient')).toBe(false);
    expect(after.length).toBe(before - 1);
    expect(after.some((entry) => entry.entityId === 'recent')).toBe(true);
  });
});
