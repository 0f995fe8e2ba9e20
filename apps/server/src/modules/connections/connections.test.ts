import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baileysAuthKeys, prompts, queueIntegrations, whatsapps } from '../../platform/db/schema.js';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let other: BuiltCompany;
let adminToken: string;
let otherToken: string;
let agent: BuiltUser;
let agentToken: string;
let queueA: { id: number };
let queueB: { id: number };
let foreignQueue: { id: number };
const published: { rooms: string[]; entity: string; payload: Record<string, unknown> }[] = [];

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  other = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  otherToken = (await other.admin.login()).token;
  agent = await t.factories.buildUser(company.id);
  agentToken = (await agent.login()).token;
  queueA = await t.factories.buildQueue(company.id, { name: 'Vendas' });
  queueB = await t.factories.buildQueue(company.id, { name: 'Suporte' });
  foreignQueue = await t.factories.buildQueue(other.id);
  const publisher = t.app.services.publisher;
  const original = publisher.toRooms.bind(publisher);
  publisher.toRooms = (companyId, rooms, entity, payload) => {
    published.push({ rooms, entity, payload: payload as Record<string, unknown> });
    original(companyId, rooms, entity, payload);
  };
});
beforeEach(() => {
  published.length = 0;
});
afterAll(() => t.close());

const create = (token: string, body: object) => t.request(token, 'POST', '/whatsapp', body);
const list = async (token: string, query = '') => (await t.request(token, 'GET', `/whatsapp${query}`)).json() as Record<string, unknown>[];

describe('connections API', () => {
  it('creates a sandbox connection CONNECTED at once; the first connection is the default', async () => {
    const response = await create(adminToken, { name: 'Principal', provider: 'sandbox' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Principal', status: 'CONNECTED', isDefault: true, provider: 'sandbox', maxUseBotQueues: 3, queueIds: [] });
    expect(published.find((p) => p.entity === 'whatsapp')).toMatchObject({ rooms: [`company:${company.id}`], payload: { action: 'update', whatsapp: { name: 'Principal' } } });
  });

  it('stores every field of the dialog, the integration under either name, and answers them', async () => {
    const [prompt] = await t.database.db
      .insert(prompts)
      .values({ companyId: company.id, name: 'Assistente', prompt: 'x'.repeat(60), apiKeySealed: 'sealed' })
      .returning({ id: prompts.id });
    const [integration] = await t.database.db
      .insert(queueIntegrations)
      .values({ companyId: company.id, type: 'webhook', name: 'Webhook' })
      .returning({ id: queueIntegrations.id });
    const schedules = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
    const body = {
      name: 'Atendimento',
      provider: 'sandbox',
      greetingMessage: 'Olá {{firstName}}, escolha uma opção',
      complationMessage: 'Atendimento encerrado. Protocolo {{protocol}}',
      outOfHoursMessage: 'Estamos fechados',
      ratingMessage: 'Avalie de 1 a 3',
      expiresInactiveMessage: 'Encerrado por inatividade',
      token: 'api-token-0123456789abcdef',
      expiresTicket: 30,
      timeUseBotQueues: 5,
      maxUseBotQueues: 2,
      timeToTransfer: 10,
      transferQueueId: queueB.id,
      promptId: prompt?.id,
      integration: integration?.id,
      queueIds: [queueA.id, queueB.id],
      schedules,
    };
    const response = await create(adminToken, body);
    expect(response.statusCode).toBe(201);
    const created = response.json();
    const { integration: _alias, queueIds, token: _wanted, ...fields } = body;
    expect(created).toMatchObject({ ...fields, integrationId: integration?.id, isDefault: false });
    // The server made the token: 32 random bytes, not the value sent.
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Queues come in their menu order (order, then name).
    expect([...created.queueIds].sort()).toEqual([...queueIds].sort());
    expect(created.queues.map((q: { name: string }) => q.name)).toEqual(['Suporte', 'Vendas']);

    const updated = await t.request(adminToken, 'PUT', `/whatsapp/${created.id}`, { name: 'Atendimento 2', queueIds: [queueA.id], integrationId: null, expiresTicket: 0 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Atendimento 2', queueIds: [queueA.id], integrationId: null, expiresTicket: 0, greetingMessage: body.greetingMessage, token: created.token });
  });

  it('validates the dialog: name 2–50, a greeting when more than one queue, a token request that looks like a token', async () => {
    const short = await create(adminToken, { name: 'A', provider: 'sandbox' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.name).toEqual(['Too Short!']);
    const noGreeting = await create(adminToken, { name: 'Duas filas', provider: 'sandbox', queueIds: [queueA.id, queueB.id] });
    expect(noGreeting.json().error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const weakToken = await create(adminToken, { name: 'Token curto', provider: 'sandbox', token: '1234' });
    expect(weakToken.statusCode).toBe(400);
    // An undeclared field is dropped (the tolerant reader), never stored.
    const unknown = await create(adminToken, { name: 'Extra', provider: 'sandbox', hacker: true });
    expect(unknown.statusCode).toBe(201);
    expect(unknown.json()).not.toHaveProperty('hacker');
    const cloudWithout = await create(adminToken, { name: 'Oficial', provider: 'cloud-api' });
    expect(cloudWithout.statusCode).toBe(400);
  });

  it('refuses texts with a placeholder that is no message variable; a stored text resent unchanged is not checked again', async () => {
    const refused = await create(adminToken, {
      name: 'Variáveis',
      provider: 'sandbox',
      greetingMessage: 'Olá {primeiroNome}',
      complationMessage: 'Até logo {{nme}}',
      expiresInactiveMessage: 'Encerrado, {cliente} e {{ cliente }}',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { complationMessage: ['{{nme}}'], expiresInactiveMessage: ['{cliente}', '{{cliente}}'] } });
    const created = (await create(adminToken, { name: 'Variáveis', provider: 'sandbox', greetingMessage: 'Olá {primeiroNome}' })).json();
    // A text stored before the check (an older version) does not block an edit that sends it back as it is.
    await t.database.db.update(whatsapps).set({ ratingMessage: 'Avalie {{antigo}}' }).where(eq(whatsapps.id, created.id));
    const resent = await t.request(adminToken, 'PUT', `/whatsapp/${created.id}`, { name: 'Variáveis 2', ratingMessage: 'Avalie {{antigo}}', greetingMessage: 'Olá {primeiroNome}' });
    expect(resent.statusCode).toBe(200);
    const changed = await t.request(adminToken, 'PUT', `/whatsapp/${created.id}`, { ratingMessage: 'Avalie {{novo}}' });
    expect(changed.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { ratingMessage: ['{{novo}}'] } });
    expect((await t.request(adminToken, 'DELETE', `/whatsapp/${created.id}`)).statusCode).toBe(200);
  });

  it('keeps exactly one default: a new default demotes the old one; unsetting it is refused; deleting it promotes another', async () => {
    const before = (await list(adminToken)).find((c) => c.isDefault);
    const second = (await create(adminToken, { name: 'Nova padrão', provider: 'sandbox', isDefault: true })).json();
    expect(second.isDefault).toBe(true);
    const defaults = (await list(adminToken)).filter((c) => c.isDefault);
    expect(defaults.map((c) => c.id)).toEqual([second.id]);
    // The demoted connection is announced too, so every list stays right.
    expect(published.some((p) => p.entity === 'whatsapp' && (p.payload.whatsapp as { id: number }).id === before?.id)).toBe(true);

    const unset = await t.request(adminToken, 'PUT', `/whatsapp/${second.id}`, { isDefault: false });
    expect(unset.statusCode).toBe(400);
    expect(unset.json().error).toBe('ERR_NO_OTHER_WHATSAPP');

    published.length = 0;
    expect((await t.request(adminToken, 'DELETE', `/whatsapp/${second.id}`)).statusCode).toBe(200);
    const remaining = await list(adminToken);
    expect(remaining.filter((c) => c.isDefault)).toHaveLength(1);
    expect(published.find((p) => p.payload.action === 'delete')).toMatchObject({ entity: 'whatsapp', payload: { whatsappId: second.id } });
    expect(published.some((p) => p.payload.action === 'update' && (p.payload.whatsapp as { isDefault: boolean }).isDefault)).toBe(true);
  });

  it('refuses connections beyond the plan limit', async () => {
    const small = await t.factories.buildCompany({ plan: { connections: 1 } });
    const token = (await small.admin.login()).token;
    expect((await create(token, { name: 'Uma', provider: 'sandbox' })).statusCode).toBe(201);
    const second = await create(token, { name: 'Duas', provider: 'sandbox' });
    expect(second.statusCode).toBe(403);
    expect(second.json().error).toBe('ERR_CONNECTION_LIMIT_REACHED');
  });

  it("looks every id up inside the company: another company's connection, queue, prompt or integration is not found", async () => {
    const mine = (await create(adminToken, { name: 'Minha', provider: 'sandbox' })).json();
    const foreignQueueUse = await t.request(adminToken, 'PUT', `/whatsapp/${mine.id}`, { queueIds: [foreignQueue.id] });
    expect(foreignQueueUse.statusCode).toBe(404);
    expect(foreignQueueUse.json().error).toBe('ERR_NO_QUEUE_FOUND');
    expect((await t.request(adminToken, 'PUT', `/whatsapp/${mine.id}`, { transferQueueId: foreignQueue.id })).statusCode).toBe(404);
    const [foreignPrompt] = await t.database.db
      .insert(prompts)
      .values({ companyId: other.id, name: 'Deles', prompt: 'y'.repeat(60), apiKeySealed: 'sealed' })
      .returning({ id: prompts.id });
    expect((await t.request(adminToken, 'PUT', `/whatsapp/${mine.id}`, { promptId: foreignPrompt?.id })).statusCode).toBe(404);

    for (const [method, url] of [
      ['GET', `/whatsapp/${mine.id}`],
      ['PUT', `/whatsapp/${mine.id}`],
      ['DELETE', `/whatsapp/${mine.id}`],
      ['POST', `/whatsappsession/${mine.id}`],
      ['PUT', `/whatsappsession/${mine.id}`],
      ['DELETE', `/whatsappsession/${mine.id}`],
    ] as const) {
      const response = await t.request(otherToken, method, url, method === 'PUT' && url.startsWith('/whatsapp/') ? { name: 'Invadida' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await list(otherToken)).map((c) => c.id)).not.toContain(mine.id);
    const [row] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, mine.id));
    expect(row?.name).toBe('Minha');
  });

  it('lets every user list connections, without token or QR code; only the rules connections-page:* change them', async () => {
    const mine = (await create(adminToken, { name: 'Restrita', provider: 'sandbox', token: 'restricted-token-0123456789' })).json();
    const asAgent = (await list(agentToken)).find((c) => c.id === mine.id);
    expect(asAgent).toBeDefined();
    expect(asAgent).not.toHaveProperty('token');
    expect(asAgent).not.toHaveProperty('qrcode');
    expect((await list(adminToken)).find((c) => c.id === mine.id)).toMatchObject({ token: mine.token, qrcode: '' });
    expect((await list(adminToken, '?session=0')).find((c) => c.id === mine.id)).not.toHaveProperty('qrcode');

    expect((await create(agentToken, { name: 'Do agente', provider: 'sandbox' })).statusCode).toBe(403);
    expect((await t.request(agentToken, 'PUT', `/whatsapp/${mine.id}`, { name: 'Mudou' })).statusCode).toBe(403);
    expect((await t.request(agentToken, 'DELETE', `/whatsapp/${mine.id}`)).statusCode).toBe(403);
    expect((await t.request(agentToken, 'POST', `/whatsappsession/${mine.id}`)).statusCode).toBe(403);
    expect((await t.request(agentToken, 'DELETE', `/whatsappsession/${mine.id}`)).statusCode).toBe(403);
  });
});

describe('session routes', () => {
  it('a new Baileys connection waits OPENING for its session; retry, new QR and disconnect act on it and tell the admins', async () => {
    const created = (await create(adminToken, { name: 'Celular', provider: 'beta' })).json();
    expect(created).toMatchObject({ status: 'OPENING', provider: 'beta', qrcode: '' });
    const sessionEvent = published.find((p) => p.entity === 'whatsappSession');
    expect(sessionEvent).toMatchObject({ rooms: [`company:${company.id}:admins`], payload: { action: 'update', session: { id: created.id, status: 'OPENING', qrcode: '' } } });

    await t.database.db.insert(baileysAuthKeys).values({ companyId: company.id, whatsappId: created.id, key: 'creds', value: '{}' });
    const disconnect = await t.request(adminToken, 'DELETE', `/whatsappsession/${created.id}`);
    expect(disconnect.statusCode).toBe(200);
    expect(disconnect.json()).toMatchObject({ session: { id: created.id, status: 'DISCONNECTED', qrcode: '' } });
    expect(await t.database.db.select().from(baileysAuthKeys).where(eq(baileysAuthKeys.whatsappId, created.id))).toEqual([]);

    const retry = await t.request(adminToken, 'POST', `/whatsappsession/${created.id}`);
    expect(retry.json().session.status).toBe('OPENING');
    const [afterRetry] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, created.id));
    expect(afterRetry?.providerConfig.sessionEpoch).toMatch(/^retry-/);

    await t.database.db.insert(baileysAuthKeys).values({ companyId: company.id, whatsappId: created.id, key: 'creds', value: '{}' });
    const newQr = await t.request(adminToken, 'PUT', `/whatsappsession/${created.id}`);
    expect(newQr.json().session.status).toBe('OPENING');
    const [afterNewQr] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, created.id));
    expect(afterNewQr?.providerConfig.sessionEpoch).toMatch(/^reset-/);
    // A new QR code starts from a blank pairing.
    expect(await t.database.db.select().from(baileysAuthKeys).where(eq(baileysAuthKeys.whatsappId, created.id))).toEqual([]);
  });

  it('a sandbox connection disconnects and comes back on retry', async () => {
    const created = (await create(adminToken, { name: 'Simulado', provider: 'sandbox' })).json();
    expect((await t.request(adminToken, 'DELETE', `/whatsappsession/${created.id}`)).json().session.status).toBe('DISCONNECTED');
    expect((await t.request(adminToken, 'POST', `/whatsappsession/${created.id}`)).json().session.status).toBe('CONNECTED');
  });
});

describe('connection tokens', () => {
  it('are made by the server: absent or resent unchanged keeps it, empty turns it off, anything else makes a new one', async () => {
    const none = (await create(adminToken, { name: 'Sem token', provider: 'sandbox' })).json();
    expect(none.token).toBe('');
    const made = (await t.request(adminToken, 'PUT', `/whatsapp/${none.id}`, { token: 'please-make-me-a-token' })).json();
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await t.request(adminToken, 'PUT', `/whatsapp/${none.id}`, { name: 'Renomeada' })).json().token).toBe(made.token);
    expect((await t.request(adminToken, 'PUT', `/whatsapp/${none.id}`, { token: made.token })).json().token).toBe(made.token);
    const remade = (await t.request(adminToken, 'PUT', `/whatsapp/${none.id}`, { token: 'please-make-another-one' })).json();
    expect(remade.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(remade.token).not.toBe(made.token);
    expect((await t.request(adminToken, 'PUT', `/whatsapp/${none.id}`, { token: '' })).json().token).toBe('');
    const [row] = await t.database.db.select({ token: whatsapps.token }).from(whatsapps).where(eq(whatsapps.id, none.id));
    expect(row?.token).toBeNull();
  });

  it("a token used by another company is never revealed: asking for it gives a new one, not a refusal", async () => {
    const theirs = (await create(otherToken, { name: 'Deles', provider: 'sandbox', token: 'please-make-me-a-token' })).json();
    expect(theirs.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const created = await create(adminToken, { name: 'Minha cópia', provider: 'sandbox', token: theirs.token });
    expect(created.statusCode).toBe(201);
    expect(created.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.json().token).not.toBe(theirs.token);
    const mine = (await create(adminToken, { name: 'Outra minha', provider: 'sandbox' })).json();
    const updated = await t.request(adminToken, 'PUT', `/whatsapp/${mine.id}`, { token: theirs.token });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().token).not.toBe(theirs.token);
    // Their connection keeps its token.
    const [row] = await t.database.db.select({ token: whatsapps.token }).from(whatsapps).where(eq(whatsapps.id, theirs.id));
    expect(row?.token).toBe(theirs.token);
  });
});
