import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rooms } from '../../platform/realtime/rooms.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let agentToken: string;
let otherToken: string;

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const serviceAccount = () =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'meu-projeto',
    client_email: 'bot@meu-projeto.iam.gserviceaccount.com',
    private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(company.id)).login()).token;
  otherToken = (await (await t.factories.buildCompany()).admin.login()).token;
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = adminToken) => t.request(token, 'POST', '/queueIntegration', body);

describe('integrations', () => {
  it('typebot needs a name, url and slug; the project name is the name; defaults delay 1000, expires 1', async () => {
    const missing = await create({ type: 'typebot', name: 'Bot' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual(['typebotSlug', 'urlN8N']);
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    const created = await create({ type: 'typebot', name: 'Bot vendas', projectName: 'ignored', urlN8N: 'https://typebot.example.com', typebotSlug: 'vendas-abc' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ type: 'typebot', name: 'Bot vendas', projectName: 'Bot vendas', typebotDelayMessage: 1000, typebotExpires: 1, signingSecret: '' });
    await settle();
    expect(spy).toHaveBeenCalledWith(company.id, [rooms.admins(company.id)], 'queueIntegration', expect.objectContaining({ action: 'create' }));
    spy.mockRestore();
  });

  it('validates the type, the name (2–50), urls and the dialogflow key', async () => {
    expect((await create({ type: 'zapier', name: 'Zap' })).json().fields.type).toBeDefined();
    expect((await create({ type: 'n8n', name: 'N', urlN8N: 'https://n8n.example.com/webhook/1' })).json().fields.name).toEqual(['Too Short!']);
    expect((await create({ type: 'webhook', name: 'Webhook', urlN8N: 'ftp://example.com' })).json().fields.urlN8N).toBeDefined();
    const noKey = await create({ type: 'dialogflow', name: 'Dialogflow' });
    expect(Object.keys(noKey.json().fields).sort()).toEqual(['jsonContent', 'projectName']);
    const badKey = await create({ type: 'dialogflow', name: 'Dialogflow', projectName: 'p', jsonContent: '{"foo": 1}' });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().fields.jsonContent).toBeDefined();
    const ok = await create({ type: 'dialogflow', name: 'Dialogflow', projectName: 'meu-projeto', jsonContent: serviceAccount(), language: 'es' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ projectName: 'meu-projeto', language: 'es' });
    expect(ok.json().jsonContent).not.toContain('PRIVATE KEY');
  });

  it('an edit keeps masked secrets, rechecks what the type needs, and keeps project name = name', async () => {
    const hook = (await create({ type: 'webhook', name: 'Meu webhook', urlN8N: 'https://hooks.example.com/a', signingSecret: 'a-signing-secret-1234567890' })).json();
    expect(hook.signingSecret).toContain('••••');
    const renamed = await t.request(adminToken, 'PUT', `/queueIntegration/${hook.id}`, { name: 'Webhook CRM', signingSecret: hook.signingSecret });
    expect(renamed.json()).toMatchObject({ name: 'Webhook CRM', projectName: 'Webhook CRM', signingSecret: hook.signingSecret });
    const toTypebot = await t.request(adminToken, 'PUT', `/queueIntegration/${hook.id}`, { type: 'typebot' });
    expect(toTypebot.statusCode).toBe(400);
    expect(toTypebot.json().fields.typebotSlug).toEqual(['Required']);
  });

  it('lists with search and pages ({ queueIntegrations, count, hasMore })', async () => {
    for (let i = 0; i < 21; i++) await create({ type: 'n8n', name: `Fluxo ${String(i).padStart(2, '0')}`, urlN8N: 'https://n8n.example.com/x' });
    const first = (await t.request(adminToken, 'GET', '/queueIntegration?searchParam=FLUXO&pageNumber=1')).json();
    expect(first.queueIntegrations).toHaveLength(20);
    expect(first).toMatchObject({ count: 21, hasMore: true });
    const second = (await t.request(adminToken, 'GET', '/queueIntegration?searchParam=fluxo&pageNumber=2')).json();
    expect(second.queueIntegrations.map((i: { name: string }) => i.name)).toEqual(['Fluxo 20']);
    expect(second.hasMore).toBe(false);
  });

  it('deleting answers a message; then it is not found', async () => {
    const item = (await create({ type: 'n8n', name: 'Descartável', urlN8N: 'https://n8n.example.com/y' })).json();
    expect((await t.request(adminToken, 'DELETE', `/queueIntegration/${item.id}`)).json()).toEqual({ message: 'Integration deleted' });
    expect((await t.request(adminToken, 'GET', `/queueIntegration/${item.id}`)).json().error).toBe('ERR_NO_INTEGRATION_FOUND');
  });

  it('needs the plan flag useIntegrations and an admin; another company sees nothing', async () => {
    const without = await t.factories.buildCompany({ plan: { useIntegrations: false } });
    const refused = await t.request((await without.admin.login()).token, 'GET', '/queueIntegration');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await create({ type: 'n8n', name: 'Agente', urlN8N: 'https://x.example.com' }, agentToken)).json().error).toBe('ERR_NO_PERMISSION');
    const mine = (await create({ type: 'n8n', name: 'Privado', urlN8N: 'https://n8n.example.com/z' })).json();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect((await t.request(otherToken, method, `/queueIntegration/${mine.id}`, method === 'PUT' ? { name: 'Meu' } : undefined)).statusCode).toBe(404);
    }
    expect((await t.request(otherToken, 'GET', '/queueIntegration')).json().count).toBe(0);
    const foreignTest = await t.request(otherToken, 'POST', '/queueIntegration/testSession', { id: mine.id, projectName: 'p' });
    expect(foreignTest.statusCode).toBe(404);
  });
});
