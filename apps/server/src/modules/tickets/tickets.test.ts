import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { prompts } from '../../platform/db/schema.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;
let sales: { id: number };
let support: { id: number };
let connectionId: number;

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  sales = await t.factories.buildQueue(company.id, { name: 'Vendas' });
  support = await t.factories.buildQueue(company.id, { name: 'Suporte' });
  agent = await t.factories.buildUser(company.id, { queueIds: [sales.id] });
  agentToken = (await agent.login()).token;
  connectionId = (await sd.buildConnection(company.id)).id;
});
afterAll(() => t.close());

const put = (token: string, id: number, body: object) => t.request(token, 'PUT', `/tickets/${id}`, body);
const ticketIn = (overrides: Parameters<typeof sd.buildTicket>[1] = {}) => sd.buildTicket(company.id, { whatsappId: connectionId, ...overrides });

describe('ticket state table (spec part 1 §4)', () => {
  it('accept: pending → open with the current user', async () => {
    const ticket = await ticketIn({ queueId: sales.id });
    const response = await put(agentToken, ticket.id, { status: 'open', userId: agent.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'open', userId: agent.id, user: { id: agent.id }, queue: { id: sales.id } });
  });

  it('return: open → pending with the user cleared', async () => {
    const ticket = await ticketIn({ queueId: sales.id, status: 'open', userId: agent.id });
    const response = await put(agentToken, ticket.id, { status: 'pending', userId: null });
    expect(response.json()).toMatchObject({ status: 'pending', userId: null, user: null });
  });

  it('close: open or pending → closed with the current user and the same queue, integration flags off', async () => {
    const [prompt] = await t.database.db
      .insert(prompts)
      .values({ companyId: company.id, name: 'Atendente virtual', prompt: 'Você é um atendente.', apiKeySealed: 'sealed', queueId: sales.id })
      .returning({ id: prompts.id });
    for (const status of ['open', 'pending'] as const) {
      const ticket = await ticketIn({ queueId: sales.id, status, userId: status === 'open' ? agent.id : null, useIntegration: true, promptId: prompt?.id });
      const response = await put(agentToken, ticket.id, { status: 'closed', userId: agent.id, queueId: sales.id, useIntegration: false, promptId: null, integrationId: null });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'closed', userId: agent.id, queueId: sales.id, useIntegration: false, promptId: null });
    }
  });

  it('reopen: closed → open with the current user and the same queue', async () => {
    const ticket = await ticketIn({ queueId: sales.id, status: 'closed' });
    const response = await put(agentToken, ticket.id, { status: 'open', userId: agent.id, queueId: sales.id });
    expect(response.json()).toMatchObject({ status: 'open', userId: agent.id, queueId: sales.id });
  });

  it('reopen is refused while the contact has another open ticket on that connection', async () => {
    const contact = await sd.buildTicketContact(company.id);
    const closed = await ticketIn({ contactId: contact.id, status: 'closed', queueId: sales.id });
    const active = await ticketIn({ contactId: contact.id, status: 'pending', queueId: sales.id });
    const response = await put(agentToken, closed.id, { status: 'open' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticket: { id: active.id } });
  });

  it('transfer to a queue without a user → pending, user cleared', async () => {
    const ticket = await ticketIn({ queueId: sales.id, status: 'open', userId: agent.id });
    const response = await put(agentToken, ticket.id, { queueId: support.id, userId: null, status: 'pending' });
    expect(response.json()).toMatchObject({ status: 'pending', userId: null, queueId: support.id, queue: { name: 'Suporte' } });
  });

  it('transfer to a queue and a user → open, assigned to that user', async () => {
    const ticket = await ticketIn({ queueId: sales.id, status: 'open', userId: agent.id });
    const response = await put(agentToken, ticket.id, { queueId: support.id, userId: company.admin.id, status: 'open' });
    expect(response.json()).toMatchObject({ status: 'open', userId: company.admin.id, queueId: support.id });
  });

  it('refuses impossible changes and other companies’ queues or users', async () => {
    const ticket = await ticketIn({ queueId: sales.id, status: 'closed' });
    expect((await put(adminToken, ticket.id, { status: 'pending' })).statusCode).toBe(400);
    const open = await ticketIn({ queueId: sales.id, status: 'open', userId: agent.id });
    const other = await t.factories.buildCompany();
    const foreignQueue = await t.factories.buildQueue(other.id);
    expect((await put(adminToken, open.id, { queueId: foreignQueue.id })).statusCode).toBe(404);
    expect((await put(adminToken, open.id, { userId: other.admin.id, queueId: support.id })).statusCode).toBe(404);
  });
});

describe('creating tickets', () => {
  it('creates an open ticket for the current user', async () => {
    const contact = await sd.buildTicketContact(company.id);
    const response = await t.request(agentToken, 'POST', '/tickets', { contactId: contact.id, queueId: sales.id, userId: agent.id, status: 'open' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: 'open', userId: agent.id, contactId: contact.id, whatsappId: connectionId, uuid: expect.any(String) });
  });

  it('answers ERR_OTHER_OPEN_TICKET with the existing ticket, its owner and queue', async () => {
    const contact = await sd.buildTicketContact(company.id);
    const existing = await ticketIn({ contactId: contact.id, status: 'open', userId: company.admin.id, queueId: support.id });
    const response = await t.request(agentToken, 'POST', '/tickets', { contactId: contact.id, queueId: sales.id });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticket: { id: existing.id, user: { id: company.admin.id }, queue: { id: support.id, name: 'Suporte' } },
    });
  });

  it('needs a queue unless the user is an admin, and only the user’s own queues', async () => {
    const contact = await sd.buildTicketContact(company.id);
    const noQueue = await t.request(agentToken, 'POST', '/tickets', { contactId: contact.id });
    expect(noQueue.statusCode).toBe(400);
    expect(noQueue.json().fields.queueId).toBeDefined();
    expect((await t.request(agentToken, 'POST', '/tickets', { contactId: contact.id, queueId: support.id })).statusCode).toBe(403);
    expect((await t.request(adminToken, 'POST', '/tickets', { contactId: contact.id })).statusCode).toBe(201);
  });
});

describe('visibility', () => {
  it("a user cannot open a ticket outside its queues: 'Acesso não permitido'", async () => {
    const ticket = await ticketIn({ queueId: support.id, status: 'open', userId: company.admin.id });
    const byId = await t.request(agentToken, 'GET', `/tickets/${ticket.id}`);
    expect(byId.statusCode).toBe(403);
    expect(byId.json()).toEqual({ error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido' });
    const byUuid = await t.request(agentToken, 'GET', `/tickets/u/${ticket.uuid}`);
    expect(byUuid.json().message).toBe('Acesso não permitido');
    expect((await t.request(adminToken, 'GET', `/tickets/u/${ticket.uuid}`)).statusCode).toBe(200);
    expect((await t.request(agentToken, 'GET', `/messages/${ticket.id}`)).statusCode).toBe(403);
  });

  it("lists: a user sees its own and the pending tickets of its queues; showAll only for admins", async () => {
    const fresh = await t.factories.buildCompany();
    const freshAdmin = (await fresh.admin.login()).token;
    const q1 = await t.factories.buildQueue(fresh.id);
    const q2 = await t.factories.buildQueue(fresh.id);
    const user = await t.factories.buildUser(fresh.id, { queueIds: [q1.id] });
    const userToken = (await user.login()).token;
    const conn = (await sd.buildConnection(fresh.id)).id;
    const mine = await sd.buildTicket(fresh.id, { whatsappId: conn, queueId: q1.id, status: 'open', userId: user.id });
    const pendingInMyQueue = await sd.buildTicket(fresh.id, { whatsappId: conn, queueId: q1.id, status: 'pending' });
    const pendingNoQueue = await sd.buildTicket(fresh.id, { whatsappId: conn, status: 'pending' });
    const othersOpen = await sd.buildTicket(fresh.id, { whatsappId: conn, queueId: q1.id, status: 'open', userId: fresh.admin.id });
    const otherQueue = await sd.buildTicket(fresh.id, { whatsappId: conn, queueId: q2.id, status: 'pending' });

    const ids = async (token: string, query: string) =>
      ((await t.request(token, 'GET', `/tickets?${query}`)).json().tickets as { id: number }[]).map((x) => x.id).sort((a, b) => a - b);
    expect(await ids(userToken, 'status=open')).toEqual([mine.id]);
    expect(await ids(userToken, 'status=pending')).toEqual([pendingInMyQueue.id, pendingNoQueue.id].sort((a, b) => a - b));
    // showAll is ignored for a plain user.
    expect(await ids(userToken, 'status=open&showAll=true')).toEqual([mine.id]);
    expect(await ids(freshAdmin, 'status=open&showAll=true')).toEqual([mine.id, othersOpen.id].sort((a, b) => a - b));
    expect(await ids(freshAdmin, 'status=pending&showAll=true')).toEqual([pendingInMyQueue.id, pendingNoQueue.id, otherQueue.id].sort((a, b) => a - b));
    // A selected queue outside the user's own is ignored.
    expect(await ids(userToken, `status=pending&queueIds=${JSON.stringify([q2.id])}`)).toEqual([pendingNoQueue.id]);
    expect(await ids(freshAdmin, `status=pending&showAll=true&queueIds=${JSON.stringify([q2.id])}`)).toEqual([pendingNoQueue.id, otherQueue.id].sort((a, b) => a - b));
  });
});

describe('deleting', () => {
  it('needs the delete permission; another company’s ticket is 404', async () => {
    const ticket = await ticketIn({ queueId: sales.id });
    expect((await t.request(agentToken, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(403);
    const other = await t.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    expect((await t.request(otherToken, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode).toBe(404);
    expect((await t.request(otherToken, 'GET', `/tickets/u/${ticket.uuid}`)).statusCode).toBe(404);
    expect((await t.request(adminToken, 'DELETE', `/tickets/${ticket.id}`)).statusCode).toBe(200);
    expect((await t.request(adminToken, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(404);
  });
});
