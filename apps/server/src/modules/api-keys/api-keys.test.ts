import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { API_KEY_SCOPES, ROUTE_SCOPES, type ApiKeyScope, type CreatedApiKey, type PresentedApiKey } from '@atende/shared';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createManualJobs } from '../../test/manual-jobs.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { usePostgres } from '../../test/test-database.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

/** Small, so the rate limit is reached in a few requests; every test uses keys of its own. */
const LIMIT = 6;

/** One route each scope covers, and a body that passes the key (the route may still refuse it: 400, 404). */
const ALLOWED: Record<Exclude<ApiKeyScope, 'webhooks:manage'>, (ticketId: number, contactId: number) => { method: 'GET' | 'POST' | 'PUT'; url: string; body?: object }> = {
  'tickets:read': (ticketId) => ({ method: 'GET', url: `/tickets/${ticketId}` }),
  'tickets:write': (ticketId) => ({ method: 'PUT', url: `/tickets/${ticketId}`, body: { status: 'open' } }),
  'messages:send': (ticketId) => ({ method: 'POST', url: `/messages/${ticketId}`, body: { body: 'from the API' } }),
  'contacts:read': (_ticketId, contactId) => ({ method: 'GET', url: `/contacts/${contactId}` }),
  'contacts:write': (_ticketId, contactId) => ({ method: 'PUT', url: `/contacts/${contactId}`, body: { name: 'Renamed by a key' } }),
};

const logLines: string[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  }),
);

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let ticketId: number;
let contactId: number;

async function createKey(scopes: readonly ApiKeyScope[], extra: { expiresAt?: string; token?: string } = {}): Promise<CreatedApiKey> {
  const response = await t.request(extra.token ?? adminToken, 'POST', '/api-keys', { name: `Key ${randomBytes(3).toString('hex')}`, scopes, ...(extra.expiresAt ? { expiresAt: extra.expiresAt } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiKey>();
}

function withKey(app: App, key: string, method: string, url: string, body?: object) {
  return app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body } : {}) });
}

beforeAll(async () => {
  t = await createTestContext({ env: { API_KEY_RATE_LIMIT_PER_MINUTE: String(LIMIT) }, logger });
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  const ticket = await createServiceDeskFactories(t.database.db).buildTicket(company.id, { status: 'open', userId: company.admin.id });
  ticketId = ticket.id;
  contactId = ticket.contactId;
});
afterAll(async () => {
  await t?.close();
});

describe('company API keys', () => {
  it('shows the secret once, in key, and stores only its hash; the list never has it', async () => {
    const created = await createKey(['tickets:read']);
    expect(created.key).toMatch(/^atk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(`${created.prefix}_`)).toBe(true);
    expect(created).toMatchObject({ scopes: ['tickets:read'], expiresAt: null, lastUsedAt: null, revokedAt: null, createdBy: { id: company.admin.id } });

    const listed = await t.request(adminToken, 'GET', '/api-keys');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.key);
    expect(listed.body).not.toContain(created.key.slice(created.prefix.length + 1));
    const row = listed.json<PresentedApiKey[]>().find((key) => key.id === created.id);
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty('key');
    expect(row).not.toHaveProperty('keyHash');

    const stored = (await t.database.db.execute(sql`select key_hash from api_keys where id = ${created.id}`)) as unknown as { rows: { key_hash: string }[] };
    expect(stored.rows[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]?.key_hash).not.toContain(created.key);

    // Used once: the secret (and the header carrying it) is in no log line.
    expect((await withKey(t.app, created.key, 'GET', '/tickets')).statusCode).toBe(200);
    expect(logLines.join('\n')).not.toContain(created.key.slice(created.prefix.length + 1));
  });

  it('only admins manage keys', async () => {
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const agentToken = (await agent.login()).token;
    expect((await t.request(agentToken, 'GET', '/api-keys')).statusCode).toBe(403);
    expect((await t.request(agentToken, 'POST', '/api-keys', { name: 'Mine', scopes: ['tickets:read'] })).statusCode).toBe(403);
    const key = await createKey(['tickets:read']);
    expect((await t.request(agentToken, 'DELETE', `/api-keys/${key.id}`)).statusCode).toBe(403);
  });

  it('validates the body: a known scope at least, a future expiry', async () => {
    expect((await t.request(adminToken, 'POST', '/api-keys', { name: 'x', scopes: [] })).statusCode).toBe(400);
    expect((await t.request(adminToken, 'POST', '/api-keys', { name: 'x', scopes: ['tickets:delete'] })).statusCode).toBe(400);
    expect((await t.request(adminToken, 'POST', '/api-keys', { name: 'x', scopes: ['tickets:read'], expiresAt: '2001-01-01T00:00:00Z' })).statusCode).toBe(400);
  });

  for (const scope of Object.keys(ALLOWED) as (keyof typeof ALLOWED)[]) {
    it(`${scope}: allows its routes and refuses the others with 403 naming the scope`, async () => {
      const { key } = await createKey([scope]);
      const allowed = ALLOWED[scope](ticketId, contactId);
      const response = await withKey(t.app, key, allowed.method, allowed.url, allowed.body);
      expect([401, 403, 429], `${allowed.method} ${allowed.url} -> ${response.statusCode} ${response.body}`).not.toContain(response.statusCode);
      expect(response.statusCode).toBeLessThan(300);

      const [other, otherScope] = (Object.entries(ALLOWED) as [keyof typeof ALLOWED, (typeof ALLOWED)[keyof typeof ALLOWED]][]).find(([name]) => name !== scope)!.reverse() as [
        (typeof ALLOWED)[keyof typeof ALLOWED],
        keyof typeof ALLOWED,
      ];
      const refused = other(ticketId, contactId);
      const answer = await withKey(t.app, key, refused.method, refused.url, refused.body);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ error: 'ERR_API_KEY_SCOPE', scope: otherScope });
      expect(answer.json<{ message: string }>().message).toContain(otherScope);
    });
  }

  it('webhooks:manage exists as a scope; alone it reaches no ticket or contact route', async () => {
    expect(API_KEY_SCOPES).toContain('webhooks:manage');
    const { key } = await createKey(['webhooks:manage']);
    const answer = await withKey(t.app, key, 'GET', '/contacts');
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ error: 'ERR_API_KEY_SCOPE', scope: 'contacts:read' });
  });

  it('every scope covers routes of the scope table; a route outside it refuses every key', async () => {
    const { key } = await createKey(API_KEY_SCOPES);
    for (const url of ['/users', '/api-keys', '/settings', '/auth/me', '/whatsapp']) {
      const answer = await withKey(t.app, key, 'GET', url);
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json(), url).toMatchObject({ error: 'ERR_API_KEY_ROUTE' });
    }
    expect((await withKey(t.app, key, 'POST', '/api-keys', { name: 'child', scopes: ['tickets:read'] })).statusCode).toBe(403);
    expect(Object.values(ROUTE_SCOPES).every((scope) => (API_KEY_SCOPES as readonly string[]).includes(scope))).toBe(true);
  });

  it('acts as its company: lists that company tickets, and another company ids are not found', async () => {
    const other = await t.factories.buildCompany();
    const foreign = await createServiceDeskFactories(t.database.db).buildTicket(other.id, { status: 'open' });
    const { key } = await createKey(['tickets:read', 'contacts:read']);
    const list = await withKey(t.app, key, 'GET', '/tickets?showAll=true');
    expect(list.statusCode).toBe(200);
    expect((await withKey(t.app, key, 'GET', `/tickets/${foreign.id}`)).statusCode).toBe(404);
    expect([403, 404]).toContain((await withKey(t.app, key, 'GET', `/contacts/${foreign.contactId}`)).statusCode);
  });

  it('refuses unknown, malformed, expired and revoked keys with 401', async () => {
    const { key, prefix } = await createKey(['tickets:read']);
    expect((await withKey(t.app, key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'), 'GET', '/tickets')).json()).toMatchObject({ error: 'ERR_INVALID_API_KEY' });
    expect((await withKey(t.app, `${prefix}_short`, 'GET', '/tickets')).statusCode).toBe(401);

    const expiring = await createKey(['tickets:read'], { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await t.database.db.execute(sql`update api_keys set expires_at = now() - interval '1 second' where id = ${expiring.id}`);
    const expired = await withKey(t.app, expiring.key, 'GET', '/tickets');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ error: 'ERR_INVALID_API_KEY' });

    const revoking = await createKey(['tickets:read']);
    expect((await withKey(t.app, revoking.key, 'GET', '/tickets')).statusCode).toBe(200);
    const revoked = await t.request(adminToken, 'DELETE', `/api-keys/${revoking.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<PresentedApiKey>().revokedAt).not.toBeNull();
    expect((await withKey(t.app, revoking.key, 'GET', '/tickets')).statusCode).toBe(401);
  });

  it('ends with its admin: a key whose admin is no longer an admin is refused', async () => {
    const second = await t.factories.buildUser(company.id, { profile: 'admin' });
    const { key } = await createKey(['tickets:read'], { token: (await second.login()).token });
    expect((await withKey(t.app, key, 'GET', '/tickets')).statusCode).toBe(200);
    expect((await t.request(adminToken, 'PUT', `/users/${second.id}`, { profile: 'user' })).statusCode).toBe(200);
    expect((await withKey(t.app, key, 'GET', '/tickets')).statusCode).toBe(401);
  });

  it('records its last use (time and address), at most once a minute', async () => {
    const created = await createKey(['tickets:read']);
    expect((await withKey(t.app, created.key, 'GET', '/tickets')).statusCode).toBe(200);
    let row: PresentedApiKey | undefined;
    for (let i = 0; i < 50 && !row?.lastUsedAt; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      row = (await t.request(adminToken, 'GET', '/api-keys')).json<PresentedApiKey[]>().find((key) => key.id === created.id);
    }
    expect(row?.lastUsedAt).not.toBeNull();
    expect(row?.lastUsedIp).toBe('127.0.0.1');
    const first = row?.lastUsedAt;
    expect((await withKey(t.app, created.key, 'GET', '/tickets')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    row = (await t.request(adminToken, 'GET', '/api-keys')).json<PresentedApiKey[]>().find((key) => key.id === created.id);
    expect(row?.lastUsedAt).toBe(first);
  });

  it('limits each key per minute in the database: 429 with Retry-After, other keys unaffected', async () => {
    const { key } = await createKey(['tickets:read']);
    for (let i = 0; i < LIMIT; i++) expect((await withKey(t.app, key, 'GET', '/tickets')).statusCode).toBe(200);
    const limited = await withKey(t.app, key, 'GET', '/tickets');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    const counted = (await t.database.db.execute(sql`select count(*)::int as n from rate_limits where key like 'api-key:%'`)) as unknown as { rows: { n: number }[] };
    expect(counted.rows[0]?.n).toBeGreaterThan(0);
    const { key: another } = await createKey(['tickets:read']);
    expect((await withKey(t.app, another, 'GET', '/tickets')).statusCode).toBe(200);
  });
});

/** Two app instances on one PostgreSQL database and one Redis: a key revoked on node A is refused by node B at once. */
describe.runIf(usePostgres)('API key revocation across two nodes', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `atende-test-${randomBytes(6).toString('hex')}`;
  let nodeA: TestContext;
  let nodeB: App;
  let admin: string;

  beforeAll(async () => {
    nodeA = await createTestContext({ env: { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } });
    nodeB = await buildApp({ config: nodeA.config, database: nodeA.database, realtime: false, serveWeb: false, jobs: createManualJobs() });
    await nodeB.ready();
    const built = await nodeA.factories.buildCompany();
    admin = (await built.admin.login()).token;
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  it('node B stops accepting the key as soon as node A answered the revocation', async () => {
    const created = (await nodeA.request(admin, 'POST', '/api-keys', { name: 'Two nodes', scopes: ['tickets:read'] })).json<CreatedApiKey>();
    // Node B reads the key and keeps it in its cache.
    expect((await withKey(nodeB, created.key, 'GET', '/tickets')).statusCode).toBe(200);
    expect((await withKey(nodeB, created.key, 'GET', '/tickets')).statusCode).toBe(200);
    expect((await nodeA.request(admin, 'DELETE', `/api-keys/${created.id}`)).statusCode).toBe(200);
    // Pub/sub is asynchronous: node B hears it within milliseconds, long before its cache's 30 s.
    let status = 0;
    for (let i = 0; i < 50; i++) {
      status = (await withKey(nodeB, created.key, 'GET', '/tickets')).statusCode;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
  });
});
