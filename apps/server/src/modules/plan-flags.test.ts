import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prompts, queueIntegrations, tickets, whatsapps } from '../platform/db/schema.js';
import { createServiceDeskFactories } from '../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { inTenant } from '../platform/db/tenant.js';

/**
 * Issue 16 defect 8: every place that attaches a plan-gated feature checks the
 * plan, not only the page that manages the feature. The company's plan has no
 * AI, no integrations and no kanban; its prompt and integration exist from a
 * time it had them (inserted directly, as the API would refuse them now).
 */
let t: TestContext;
let token: string;
let companyId: number;
let promptId: number;
let integrationId: number;
let ticketId: number;
let connectionId: number;
let queueId: number;

beforeAll(async () => {
  t = await createTestContext();
  const company = await t.factories.buildCompany({ plan: { useOpenAi: false, useIntegrations: false, useKanban: false } });
  companyId = company.id;
  token = (await company.admin.login()).token;
  const sd = createServiceDeskFactories(t.database.db);
  queueId = (await t.factories.buildQueue(companyId)).id;
  const [prompt] = await t.database.db
    .insert(prompts)
    .values({ companyId, name: 'Assistente', prompt: 'Você é um assistente.', apiKeySealed: t.app.services.secrets.seal('sk-test'), queueId })
    .returning();
  const [integration] = await t.database.db.insert(queueIntegrations).values({ companyId, type: 'webhook', name: 'Webhook antigo', urlN8N: 'https://hooks.invalid/a' }).returning();
  if (!prompt || !integration) throw new Error('fixture not created');
  promptId = prompt.id;
  integrationId = integration.id;
  connectionId = (await sd.buildConnection(companyId)).id;
  ticketId = (await sd.buildTicket(companyId, { whatsappId: connectionId, status: 'open', userId: company.admin.id })).id;
});
afterAll(() => t.close());

function expectPlanRefusal(response: { statusCode: number; json(): { error: string; feature?: string } }, feature: string) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', feature });
}

describe('plan flags at every attach point', () => {
  it('PUT /tickets/:id refuses promptId, integrationId and useIntegration, and changes nothing', async () => {
    expectPlanRefusal(await t.request(token, 'PUT', `/tickets/${ticketId}`, { promptId }), 'useOpenAi');
    expectPlanRefusal(await t.request(token, 'PUT', `/tickets/${ticketId}`, { integrationId }), 'useIntegrations');
    expectPlanRefusal(await t.request(token, 'PUT', `/tickets/${ticketId}`, { useIntegration: true }), 'useIntegrations');
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(row).toMatchObject({ promptId: null, integrationId: null, useIntegration: false });
    // Taking a bot away is never gated.
    const cleared = await t.request(token, 'PUT', `/tickets/${ticketId}`, { promptId: null, integrationId: null, useIntegration: false });
    expect(cleared.statusCode).toBe(200);
  });

  it('a connection cannot be given a prompt or an integration', async () => {
    expectPlanRefusal(await t.request(token, 'PUT', `/whatsapp/${connectionId}`, { promptId }), 'useOpenAi');
    expectPlanRefusal(await t.request(token, 'PUT', `/whatsapp/${connectionId}`, { integrationId }), 'useIntegrations');
    expectPlanRefusal(await t.request(token, 'PUT', `/whatsapp/${connectionId}`, { integration: integrationId }), 'useIntegrations');
    expectPlanRefusal(
      await t.request(token, 'POST', '/whatsapp', { name: 'Com IA', provider: 'sandbox', queueIds: [queueId], promptId }),
      'useOpenAi',
    );
    const [row] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, connectionId));
    expect(row).toMatchObject({ promptId: null, integrationId: null });
    expect((await t.database.db.select().from(whatsapps).where(inTenant(whatsapps, { companyId }))).length).toBe(1);
  });

  it('a connection that had its prompt before the plan changed can still be saved with it, or without it', async () => {
    await t.database.db.update(whatsapps).set({ promptId }).where(eq(whatsapps.id, connectionId));
    const same = await t.request(token, 'PUT', `/whatsapp/${connectionId}`, { name: 'Renomeada', promptId });
    expect(same.statusCode).toBe(200);
    expect((await t.request(token, 'PUT', `/whatsapp/${connectionId}`, { promptId: null })).statusCode).toBe(200);
    expectPlanRefusal(await t.request(token, 'PUT', `/whatsapp/${connectionId}`, { promptId }), 'useOpenAi');
  });

  it('a queue cannot be given a prompt or an integration', async () => {
    expectPlanRefusal(await t.request(token, 'POST', '/queue', { name: 'Fila IA', color: '#123456', promptId }), 'useOpenAi');
    expectPlanRefusal(await t.request(token, 'PUT', `/queue/${queueId}`, { integrationId }), 'useIntegrations');
  });

  it('a tag cannot become a kanban lane; a plain tag is fine', async () => {
    expectPlanRefusal(await t.request(token, 'POST', '/tags', { name: 'Etapa 1', kanban: 1 }), 'useKanban');
    const plain = await t.request(token, 'POST', '/tags', { name: 'Etapa 2', kanban: 0 });
    expect(plain.statusCode).toBe(201);
    expectPlanRefusal(await t.request(token, 'PUT', `/tags/${plain.json().id}`, { kanban: 1 }), 'useKanban');
  });

  it('a plan with the features lets the same calls through', async () => {
    const other = await t.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    const sd = createServiceDeskFactories(t.database.db);
    const queue = await t.factories.buildQueue(other.id);
    const [prompt] = await t.database.db
      .insert(prompts)
      .values({ companyId: other.id, name: 'Assistente', prompt: 'Você é um assistente.', apiKeySealed: t.app.services.secrets.seal('sk-test'), queueId: queue.id })
      .returning();
    const connection = await sd.buildConnection(other.id);
    const ticket = await sd.buildTicket(other.id, { whatsappId: connection.id, status: 'open', userId: other.admin.id });
    expect((await t.request(otherToken, 'PUT', `/tickets/${ticket.id}`, { promptId: prompt?.id })).statusCode).toBe(200);
    expect((await t.request(otherToken, 'PUT', `/whatsapp/${connection.id}`, { promptId: prompt?.id })).statusCode).toBe(200);
    expect((await t.request(otherToken, 'POST', '/tags', { name: 'Etapa', kanban: 1 })).statusCode).toBe(201);
  });
});
