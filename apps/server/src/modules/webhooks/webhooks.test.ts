import { randomBytes } from 'node:crypto';
import type { CreatedApiKey, CreatedWebhook, Webhook, WebhookDeliveryPage, WebhookList } from '@atende/shared';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { ALLOW_LOOPBACK_PEERS, createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let other: BuiltCompany;
let adminToken: string;
let otherToken: string;

async function createWebhook(token: string, body: object): Promise<CreatedWebhook> {
  const response = await t.request(token, 'POST', '/webhooks', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedWebhook>();
}

async function createKey(token: string, scopes: string[]): Promise<string> {
  const response = await t.request(token, 'POST', '/api-keys', { name: `Key ${randomBytes(3).toString('hex')}`, scopes });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiKey>().key;
}

async function rowsOf<Row>(query: SQL): Promise<Row[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

function withKey(key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body } : {}) });
}

beforeAll(async () => {
  t = await createTestContext({ env: { ...ALLOW_LOOPBACK_PEERS } });
  company = await t.factories.buildCompany();
  other = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  otherToken = (await other.admin.login()).token;
});
afterAll(async () => {
  await t?.close();
});

describe('event webhooks: the subscriptions', () => {
  it('shows the secret once (whsec_ + 32 bytes base64url), stores it sealed, and never lists it', async () => {
    const created = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/hook', events: ['ticket.created', 'message.created'], description: 'CRM' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['ticket.created', 'message.created'], description: 'CRM', enabled: true, disabledReason: null });

    const stored = (await t.database.db.execute(sql`select secret_sealed from webhooks where id = ${created.id}`)) as unknown as { rows: { secret_sealed: string }[] };
    expect(stored.rows[0]?.secret_sealed).not.toContain(created.secret.slice(6));

    const listed = await t.request(adminToken, 'GET', '/webhooks');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.secret.slice(6));
    const row = listed.json<WebhookList>().webhooks.find((webhook) => webhook.id === created.id);
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty('secret');
  });

  it('validates the body: a URL, at least one known event, no duplicates, a short description', async () => {
    const bad = [
      { url: 'not a url', events: ['ticket.created'] },
      { url: 'ftp://example.com/x', events: ['ticket.created'] },
      { url: 'https://example.com/x', events: [] },
      { url: 'https://example.com/x', events: ['ticket.deleted'] },
      { url: 'https://example.com/x', events: ['ticket.created', 'ticket.created'] },
      { url: 'https://example.com/x', events: ['ticket.created'], description: 'x'.repeat(201) },
    ];
    for (const body of bad) {
      const response = await t.request(adminToken, 'POST', '/webhooks', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: string }>().error).toBe('ERR_VALIDATION');
    }
  });

  it('refuses a URL on loopback or another internal address (400 naming the url field) unless the operator allows it', async () => {
    for (const url of ['http://[::1]:8080/hook', 'http://127.0.0.2/hook', 'http://169.254.169.254/latest', 'http://10.0.0.5/hook']) {
      const response = await t.request(adminToken, 'POST', '/webhooks', { url, events: ['ticket.created'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ error: 'ERR_OUTBOUND_URL_REFUSED', fields: { url: [expect.any(String)] } });
    }
    const created = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/allowed', events: ['ticket.created'] });
    const moved = await t.request(adminToken, 'PUT', `/webhooks/${created.id}`, { url: 'http://[::1]:9/hook' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ error: 'ERR_OUTBOUND_URL_REFUSED', fields: { url: [expect.any(String)] } });
  });

  it('updates the fields sent; turning it on again clears why it was off', async () => {
    const created = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/a', events: ['ticket.created'] });
    await t.database.db.execute(sql`update webhooks set enabled = false, disabled_reason = 'failing', failing_since = now() - interval '25 hours' where id = ${created.id}`);
    const changed = await t.request(adminToken, 'PUT', `/webhooks/${created.id}`, { events: ['contact.created', 'contact.updated'], description: 'Contacts' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Webhook>()).toMatchObject({ url: 'http://127.0.0.1:9/a', events: ['contact.created', 'contact.updated'], description: 'Contacts', enabled: false, disabledReason: 'failing' });
    const enabled = await t.request(adminToken, 'PUT', `/webhooks/${created.id}`, { enabled: true });
    expect(enabled.json<Webhook>()).toMatchObject({ enabled: true, disabledReason: null });
    const stored = (await t.database.db.execute(sql`select failing_since from webhooks where id = ${created.id}`)) as unknown as { rows: { failing_since: unknown }[] };
    expect(stored.rows[0]?.failing_since).toBeNull();
    expect(changed.json<Webhook>()).not.toHaveProperty('secret');
  });

  it('deletes a webhook (204) and then knows it no more', async () => {
    const created = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/b', events: ['ticket.created'] });
    expect((await t.request(adminToken, 'DELETE', `/webhooks/${created.id}`)).statusCode).toBe(204);
    expect((await t.request(adminToken, 'DELETE', `/webhooks/${created.id}`)).statusCode).toBe(404);
    expect((await t.request(adminToken, 'GET', `/webhooks/${created.id}/deliveries`)).statusCode).toBe(404);
  });

  it('only admins manage webhooks', async () => {
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const agentToken = (await agent.login()).token;
    const created = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/c', events: ['ticket.created'] });
    expect((await t.request(agentToken, 'GET', '/webhooks')).statusCode).toBe(403);
    expect((await t.request(agentToken, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/d', events: ['ticket.created'] })).statusCode).toBe(403);
    expect((await t.request(agentToken, 'PUT', `/webhooks/${created.id}`, { enabled: false })).statusCode).toBe(403);
    expect((await t.request(agentToken, 'DELETE', `/webhooks/${created.id}`)).statusCode).toBe(403);
  });

  it('a key with webhooks:manage manages them; a key without it is refused', async () => {
    const key = await createKey(adminToken, ['webhooks:manage']);
    const response = await withKey(key, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/by-key', events: ['contact.created'] });
    expect(response.statusCode, response.body).toBe(201);
    expect((await withKey(key, 'GET', '/webhooks')).json<WebhookList>().webhooks.map((webhook) => webhook.url)).toContain('http://127.0.0.1:9/by-key');
    const readOnly = await createKey(adminToken, ['tickets:read']);
    const refused = await withKey(readOnly, 'GET', '/webhooks');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_API_KEY_SCOPE', scope: 'webhooks:manage' });
  });

  it("a key of another company gets 404 for this company's webhook ids and delivery ids, and changes nothing", async () => {
    const mine = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/mine', events: ['ticket.created'], description: 'mine' });
    const [delivery] = await rowsOf<{ id: number }>(sql`
      insert into webhook_deliveries (company_id, webhook_id, event_id, event, ordering_key, data, status)
      values (${company.id}, ${mine.id}, gen_random_uuid()::text, 'ticket.created', 'ticket:1', '{}'::jsonb, 'failed') returning id`);
    const deliveryId = Number(delivery?.id);
    const foreignKey = await createKey(otherToken, ['webhooks:manage']);
    expect((await withKey(foreignKey, 'PUT', `/webhooks/${mine.id}`, { enabled: false, url: 'http://127.0.0.1:9/stolen' })).statusCode).toBe(404);
    expect((await withKey(foreignKey, 'DELETE', `/webhooks/${mine.id}`)).statusCode).toBe(404);
    expect((await withKey(foreignKey, 'GET', `/webhooks/${mine.id}/deliveries`)).statusCode).toBe(404);
    expect((await withKey(foreignKey, 'POST', `/webhooks/${mine.id}/deliveries/${deliveryId}/retry`, {})).statusCode).toBe(404);
    const theirs = await withKey(foreignKey, 'GET', '/webhooks');
    expect(theirs.body).not.toContain('/mine');
    // Their own webhook with my delivery id is still not found.
    const own = (await withKey(foreignKey, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/theirs', events: ['ticket.created'] })).json<CreatedWebhook>();
    expect((await withKey(foreignKey, 'POST', `/webhooks/${own.id}/deliveries/${deliveryId}/retry`, {})).statusCode).toBe(404);

    const after = (await t.request(adminToken, 'GET', '/webhooks')).json<WebhookList>().webhooks.find((webhook) => webhook.id === mine.id);
    expect(after).toMatchObject({ url: 'http://127.0.0.1:9/mine', enabled: true });
    const log = (await t.request(adminToken, 'GET', `/webhooks/${mine.id}/deliveries`)).json<WebhookDeliveryPage>();
    expect(log.deliveries.map((entry) => entry.status)).toEqual(['failed']);
  });

  it('pages the delivery log newest first, 20 a page, filtered by status', async () => {
    const hook = await createWebhook(adminToken, { url: 'http://127.0.0.1:9/log', events: ['ticket.created'] });
    await t.database.db.execute(sql`
      insert into webhook_deliveries (company_id, webhook_id, event_id, event, ordering_key, data, status)
      select ${company.id}, ${hook.id}, gen_random_uuid()::text, 'ticket.created', 'ticket:' || n, '{}'::jsonb, case when n % 2 = 0 then 'delivered' else 'failed' end
      from generate_series(1, 25) n`);
    const first = (await t.request(adminToken, 'GET', `/webhooks/${hook.id}/deliveries`)).json<WebhookDeliveryPage>();
    expect(first.deliveries).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.deliveries[0]!.id).toBeGreaterThan(first.deliveries[1]!.id);
    const second = (await t.request(adminToken, 'GET', `/webhooks/${hook.id}/deliveries?pageNumber=2`)).json<WebhookDeliveryPage>();
    expect(second.deliveries).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    const failed = (await t.request(adminToken, 'GET', `/webhooks/${hook.id}/deliveries?status=failed`)).json<WebhookDeliveryPage>();
    expect(failed.deliveries).toHaveLength(13);
    expect(failed.deliveries.every((entry) => entry.status === 'failed')).toBe(true);
    expect((await t.request(adminToken, 'GET', `/webhooks/${hook.id}/deliveries?status=lost`)).statusCode).toBe(400);
  });
});
