import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prompts } from '../../platform/db/schema.js';
import { rooms } from '../../platform/realtime/rooms.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let agentToken: string;
let otherToken: string;
let queueId: number;

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
const TEXT = 'Você é um assistente de atendimento. Seja cordial, objetivo e responda em português do Brasil.';
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(company.id)).login()).token;
  otherToken = (await (await t.factories.buildCompany()).admin.login()).token;
  queueId = (await t.factories.buildQueue(company.id, { name: 'Atendimento' })).id;
});
afterAll(() => t.close());

const create = (body: Record<string, unknown> = {}, token = adminToken) =>
  t.request(token, 'POST', '/prompt', { name: 'Assistente', prompt: TEXT, apiKey: KEY, queueId, ...body });

async function storedKey(id: number): Promise<string> {
  const [row] = await t.database.db.select({ sealed: prompts.apiKeySealed }).from(prompts).where(eq(prompts.id, id));
  return row ? t.app.services.secrets.open(row.sealed) : '';
}

describe('prompts', () => {
  it('creates a prompt with the spec defaults; the API key is stored encrypted and shown masked', async () => {
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    const response = await create();
    expect(response.statusCode).toBe(201);
    const prompt = response.json();
    expect(prompt).toMatchObject({ name: 'Assistente', model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, maxMessages: 10, queueId, queue: { id: queueId, name: 'Atendimento' } });
    expect(prompt.apiKey).not.toContain(KEY.slice(4, 20));
    expect(prompt.apiKey).toContain('••••');
    const [row] = await t.database.db.select().from(prompts).where(eq(prompts.id, prompt.id));
    expect(row?.apiKeySealed).not.toContain(KEY);
    expect(await storedKey(prompt.id)).toBe(KEY);
    await settle();
    expect(spy).toHaveBeenCalledWith(company.id, [rooms.admins(company.id)], 'prompt', expect.objectContaining({ action: 'create' }));
    spy.mockRestore();
    const list = (await t.request(adminToken, 'GET', '/prompt')).json();
    expect(list.prompts.map((p: { id: number }) => p.id)).toContain(prompt.id);
    expect(JSON.stringify(list)).not.toContain(KEY);
  });

  it('validates name 5–100, prompt ≥ 50, model, temperature 0–1, api key and the required queue', async () => {
    const bad = await t.request(adminToken, 'POST', '/prompt', { name: 'Bot', prompt: 'curto', model: 'gpt-5', temperature: 1.5, maxTokens: 'x' });
    expect(bad.statusCode).toBe(400);
    const { fields } = bad.json();
    expect(fields.name).toEqual(['Too Short!']);
    expect(fields.prompt).toEqual(['Too Short!']);
    expect(fields.model).toBeDefined();
    expect(fields.temperature).toBeDefined();
    expect(fields.maxTokens).toBeDefined();
    expect(fields.apiKey).toBeDefined();
    expect(fields.queueId).toBeDefined();
    expect((await create({ temperature: 0.3, model: 'gpt-4o-mini' })).json()).toMatchObject({ temperature: 0.3, model: 'gpt-4o-mini' });
  });

  it('an edit that sends the masked key back keeps the key; a new key replaces it', async () => {
    const prompt = (await create({ name: 'Assistente 2' })).json();
    const kept = await t.request(adminToken, 'PUT', `/prompt/${prompt.id}`, { apiKey: prompt.apiKey, maxMessages: 5 });
    expect(kept.json()).toMatchObject({ maxMessages: 5, name: 'Assistente 2' });
    expect(await storedKey(prompt.id)).toBe(KEY);
    await t.request(adminToken, 'PUT', `/prompt/${prompt.id}`, { apiKey: 'sk-new-key-9876543210' });
    expect(await storedKey(prompt.id)).toBe('sk-new-key-9876543210');
  });

  it('deleting answers a message; tickets using the prompt go on without it', async () => {
    const prompt = (await create({ name: 'Temporário' })).json();
    const ticket = await createServiceDeskFactories(t.database.db).buildTicket(company.id, { promptId: prompt.id });
    const response = await t.request(adminToken, 'DELETE', `/prompt/${prompt.id}`);
    expect(response.json()).toEqual({ message: 'Prompt deleted' });
    expect((await t.request(adminToken, 'GET', `/prompt/${prompt.id}`)).json().error).toBe('ERR_NO_PROMPT_FOUND');
    expect((await t.request(adminToken, 'GET', `/tickets/${ticket.id}`)).json().promptId).toBeNull();
  });

  it('needs the plan flag useOpenAi (ERR_PLAN_FEATURE_DISABLED) and an admin', async () => {
    const noAi = await t.factories.buildCompany({ plan: { useOpenAi: false } });
    const noAiToken = (await noAi.admin.login()).token;
    for (const [method, url] of [['GET', '/prompt'], ['POST', '/prompt'], ['GET', '/prompt/1']] as const) {
      const response = await t.request(noAiToken, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    expect((await create({}, agentToken)).json().error).toBe('ERR_NO_PERMISSION');
    expect((await t.request(agentToken, 'GET', '/prompt')).statusCode).toBe(403);
  });

  it("another company's prompt or queue is not found, and a ticket cannot point at another company's prompt", async () => {
    const mine = (await create({ name: 'Só meu' })).json();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await t.request(otherToken, method, `/prompt/${mine.id}`, method === 'PUT' ? { name: 'Roubado' } : undefined);
      expect(response.statusCode).toBe(404);
    }
    expect((await t.request(otherToken, 'GET', '/prompt')).json().prompts).toEqual([]);
    const foreignQueue = await t.request(otherToken, 'POST', '/prompt', { name: 'Assistente', prompt: TEXT, apiKey: KEY, queueId });
    expect(foreignQueue.json().error).toBe('ERR_NO_QUEUE_FOUND');
    const other = await t.factories.buildCompany();
    const otherTicket = await createServiceDeskFactories(t.database.db).buildTicket(other.id);
    const otherAdmin = (await other.admin.login()).token;
    const hijack = await t.request(otherAdmin, 'PUT', `/tickets/${otherTicket.id}`, { promptId: mine.id });
    expect(hijack.statusCode).toBe(404);
  });
});
