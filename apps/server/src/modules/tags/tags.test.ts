import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;
let sales: { id: number };

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  sales = await t.factories.buildQueue(company.id);
  agent = await t.factories.buildUser(company.id, { queueIds: [sales.id] });
  agentToken = (await agent.login()).token;
});
afterAll(() => t.close());

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('creating tags', () => {
  it('creates a tag with the default colour and kanban 0, owned by the caller', async () => {
    const response = await t.request(agentToken, 'POST', '/tags', { name: 'Urgente' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Urgente', color: '#A4CCCC', kanban: 0, userId: agent.id, ticketsCount: 0 });
  });

  it('needs a name of at least 3 characters', async () => {
    const response = await t.request(agentToken, 'POST', '/tags', { name: 'ab' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.name).toEqual(['Message too short']);
  });

  it('refuses the same name twice in a company, whatever its case (409), but not in another company', async () => {
    await sd.buildTag(company.id, { name: 'Financeiro' });
    for (const name of ['Financeiro', 'FINANCEIRO']) {
      const response = await t.request(agentToken, 'POST', '/tags', { name });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('ERR_TAG_NAME_ALREADY_EXISTS');
    }
    const other = await t.factories.buildCompany();
    expect((await t.request((await other.admin.login()).token, 'POST', '/tags', { name: 'Financeiro' })).statusCode).toBe(201);
  });

  it('only admins turn the kanban toggle on', async () => {
    expect((await t.request(agentToken, 'POST', '/tags', { name: 'Lane A', kanban: 1 })).statusCode).toBe(403);
    const lane = await t.request(adminToken, 'POST', '/tags', { name: 'Lane A', kanban: 1, color: '#FF0000' });
    expect(lane.json()).toMatchObject({ kanban: 1, color: '#FF0000' });
    // Editing something else keeps it; an agent cannot switch it off either.
    expect((await t.request(agentToken, 'PUT', `/tags/${lane.json().id}`, { name: 'Lane A1', kanban: 1 })).statusCode).toBe(200);
    expect((await t.request(agentToken, 'PUT', `/tags/${lane.json().id}`, { kanban: 0 })).statusCode).toBe(403);
    const board = (await t.request(adminToken, 'GET', '/tags/kanban')).json();
    expect(board.lista.map((tag: { name: string }) => tag.name)).toContain('Lane A1');
  });

  it('announces saved and deleted tags to the company', async () => {
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      const created = (await t.request(agentToken, 'POST', '/tags', { name: 'Anunciada' })).json();
      await t.request(agentToken, 'DELETE', `/tags/${created.id}`);
      await settle();
      const events = spy.mock.calls.filter(([, , entity]) => entity === 'tag').map(([, rooms, , payload]) => ({ rooms, payload }));
      expect(events).toEqual([
        { rooms: [`company:${company.id}`], payload: { action: 'create', tag: expect.objectContaining({ name: 'Anunciada' }) } },
        { rooms: [`company:${company.id}`], payload: { action: 'delete', tagId: created.id } },
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('listing, editing and deleting tags', () => {
  it('GET /tags/list answers every tag (id, name, color, kanban) by name', async () => {
    const own = await t.factories.buildCompany();
    const token = (await own.admin.login()).token;
    await sd.buildTag(own.id, { name: 'Zeta' });
    await sd.buildTag(own.id, { name: 'Alfa', color: '#000000' });
    const list = (await t.request(token, 'GET', `/tags/list?companyId=${company.id}`)).json();
    expect(list).toEqual([
      { id: expect.any(Number), name: 'Alfa', color: '#000000', kanban: 0 },
      { id: expect.any(Number), name: 'Zeta', color: '#A4CCCC', kanban: 0 },
    ]);
  });

  it('GET /tags pages and searches with ticket counts', async () => {
    const own = await t.factories.buildCompany();
    const token = (await own.admin.login()).token;
    for (let i = 0; i < 22; i += 1) await sd.buildTag(own.id, { name: `Etiqueta ${String(i).padStart(2, '0')}` });
    const counted = await sd.buildTag(own.id, { name: 'Contada' });
    const ticket = await sd.buildTicket(own.id);
    await sd.tagTicket(own.id, ticket.id, [counted.id]);
    const first = (await t.request(token, 'GET', '/tags?searchParam=ETIQUETA')).json();
    expect(first.tags).toHaveLength(20);
    expect(first).toMatchObject({ hasMore: true, count: 22 });
    expect((await t.request(token, 'GET', '/tags?searchParam=etiqueta&pageNumber=2')).json()).toMatchObject({ hasMore: false });
    expect((await t.request(token, 'GET', '/tags?searchParam=contada')).json().tags).toMatchObject([{ name: 'Contada', ticketsCount: 1 }]);
    expect((await t.request(token, 'GET', `/tags/${counted.id}`)).json()).toMatchObject({ name: 'Contada', ticketsCount: 1 });
  });

  it('renames a tag, refusing another tag’s name, and deletes it', async () => {
    const tag = await sd.buildTag(company.id, { name: 'Renomear' });
    await sd.buildTag(company.id, { name: 'Ocupado' });
    expect((await t.request(agentToken, 'PUT', `/tags/${tag.id}`, { name: 'ocupado' })).statusCode).toBe(409);
    expect((await t.request(agentToken, 'PUT', `/tags/${tag.id}`, { name: 'RENOMEAR' })).json()).toMatchObject({ name: 'RENOMEAR' });
    expect((await t.request(agentToken, 'DELETE', `/tags/${tag.id}`)).statusCode).toBe(200);
    expect((await t.request(agentToken, 'GET', `/tags/${tag.id}`)).statusCode).toBe(404);
  });
});

describe('POST /tags/sync', () => {
  it('replaces the ticket’s tags, answers them and refreshes the lists', async () => {
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open', userId: agent.id });
    const [a, b, c] = await Promise.all(['Sync A', 'Sync B', 'Sync C'].map((name) => sd.buildTag(company.id, { name })));
    if (!a || !b || !c) throw new Error('tags not built');
    await sd.tagTicket(company.id, ticket.id, [a.id]);
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      const response = await t.request(agentToken, 'POST', '/tags/sync', { ticketId: ticket.id, tags: [{ id: c.id, name: 'Sync C' }, { id: b.id }] });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        { id: b.id, name: 'Sync B', color: '#A4CCCC' },
        { id: c.id, name: 'Sync C', color: '#A4CCCC' },
      ]);
      await settle();
      const update = spy.mock.calls.find(([, , entity]) => entity === 'ticket');
      expect(update?.[3]).toMatchObject({ action: 'update', ticket: { id: ticket.id, tags: [{ name: 'Sync B' }, { name: 'Sync C' }] } });
    } finally {
      spy.mockRestore();
    }
    const cleared = await t.request(agentToken, 'POST', '/tags/sync', { ticketId: ticket.id, tags: [] });
    expect(cleared.json()).toEqual([]);
  });

  it('refuses another company’s tag (404, nothing changed) and a ticket the user may not open (403)', async () => {
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id });
    const mine = await sd.buildTag(company.id, { name: 'Minha' });
    await sd.tagTicket(company.id, ticket.id, [mine.id]);
    const other = await t.factories.buildCompany();
    const foreign = await sd.buildTag(other.id, { name: 'Alheia' });
    const response = await t.request(agentToken, 'POST', '/tags/sync', { ticketId: ticket.id, tags: [{ id: foreign.id }] });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('ERR_NO_TAG_FOUND');
    expect((await t.request(agentToken, 'GET', `/tickets/${ticket.id}`)).json().tags).toMatchObject([{ id: mine.id }]);

    const otherQueue = await t.factories.buildQueue(company.id);
    const hidden = await sd.buildTicket(company.id, { queueId: otherQueue.id, status: 'open', userId: company.admin.id });
    expect((await t.request(agentToken, 'POST', '/tags/sync', { ticketId: hidden.id, tags: [{ id: mine.id }] })).statusCode).toBe(403);
  });
});
