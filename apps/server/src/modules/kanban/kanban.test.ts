import { KANBAN_LANE_PAGE_SIZE } from '@atende/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contacts, ticketTags, tickets } from '../../platform/db/schema.js';
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
let support: { id: number };

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  sales = await t.factories.buildQueue(company.id);
  support = await t.factories.buildQueue(company.id);
  agent = await t.factories.buildUser(company.id, { queueIds: [sales.id] });
  agentToken = (await agent.login()).token;
});
afterAll(() => t.close());

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const queueIds = (ids: number[]) => encodeURIComponent(JSON.stringify(ids));

interface Card {
  id: number;
  uuid: string;
  contact: { name: string; number: string };
  lastMessage: string;
  tags: { id: number; name: string }[];
}

async function board(token: string, query: string): Promise<{ tickets: Card[]; count: number; hasMore: boolean }> {
  const response = await t.request(token, 'GET', `/ticket/kanban?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function tagIdsOf(ticketId: number): Promise<number[]> {
  const rows = await t.database.db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticketId)).orderBy(asc(ticketTags.tagId));
  return rows.map((row) => row.tagId);
}

/** A company of its own per test: its board holds exactly what the test made. */
async function freshCompany() {
  const own = await t.factories.buildCompany();
  const queue = await t.factories.buildQueue(own.id);
  const user = await t.factories.buildUser(own.id, { queueIds: [queue.id] });
  return { own, queue, user, adminToken: (await own.admin.login()).token, userToken: (await user.login()).token };
}

describe('GET /ticket/kanban', () => {
  it('answers the lane of a kanban tag, and the lane of tickets without one (other tags do not count), open and pending only', async () => {
    const { own, queue, adminToken: token } = await freshCompany();
    const lane = await sd.buildTag(own.id, { name: 'Negociação', kanban: 1 });
    const plain = await sd.buildTag(own.id, { name: 'VIP' });
    const inLane = await sd.buildTicket(own.id, { queueId: queue.id, status: 'open', lastMessage: 'Quero o plano anual' });
    const vipOnly = await sd.buildTicket(own.id, { queueId: queue.id, status: 'pending' });
    const bare = await sd.buildTicket(own.id, { queueId: queue.id, status: 'open' });
    const closed = await sd.buildTicket(own.id, { queueId: queue.id, status: 'closed' });
    await sd.tagTicket(own.id, inLane.id, [lane.id, plain.id]);
    await sd.tagTicket(own.id, vipOnly.id, [plain.id]);
    await sd.tagTicket(own.id, closed.id, [lane.id]);

    const laneCards = await board(token, `showAll=true&lane=${lane.id}`);
    expect(laneCards).toMatchObject({ count: 1, hasMore: false });
    expect(laneCards.tickets).toEqual([
      expect.objectContaining({ id: inLane.id, uuid: inLane.uuid, lastMessage: 'Quero o plano anual', contact: expect.objectContaining({ name: expect.any(String), number: expect.any(String) }) }),
    ]);
    const untagged = await board(token, 'showAll=true&lane=none');
    expect(untagged.tickets.map((card) => card.id).sort()).toEqual([vipOnly.id, bare.id].sort());
    // Without a lane: the whole board, for a client that builds the lanes itself.
    expect((await board(token, 'showAll=true')).tickets.map((card) => card.id).sort()).toEqual([inLane.id, vipOnly.id, bare.id].sort());
  });

  it('pages a lane, most recently updated first, with the lane’s total', async () => {
    const { own, queue, adminToken: token } = await freshCompany();
    const connection = await sd.buildConnection(own.id);
    const total = KANBAN_LANE_PAGE_SIZE + 5;
    const people = await t.database.db
      .insert(contacts)
      .values(Array.from({ length: total }, (_, i) => ({ companyId: own.id, name: `Cliente ${i}`, number: `5511900${String(i).padStart(6, '0')}` })))
      .returning({ id: contacts.id });
    const base = Date.now() - 3_600_000;
    const made = await t.database.db
      .insert(tickets)
      .values(people.map((person, i) => ({ companyId: own.id, contactId: person.id, whatsappId: connection.id, queueId: queue.id, status: 'open' as const, updatedAt: new Date(base + i * 1000) })))
      .returning({ id: tickets.id });
    const first = await board(token, 'showAll=true&lane=none');
    expect(first).toMatchObject({ count: total, hasMore: true });
    expect(first.tickets).toHaveLength(KANBAN_LANE_PAGE_SIZE);
    expect(first.tickets[0]?.id).toBe(made[total - 1]?.id);
    const second = await board(token, 'showAll=true&lane=none&pageNumber=2');
    expect(second).toMatchObject({ count: total, hasMore: false });
    expect(second.tickets.map((card) => card.id)).toEqual(made.slice(0, 5).map((row) => row.id).reverse());
  });

  it('shows an agent only the tickets of its queues and its own, even when it asks for everything', async () => {
    const { own, queue, user, userToken, adminToken: token } = await freshCompany();
    const otherQueue = await t.factories.buildQueue(own.id);
    const mine = await sd.buildTicket(own.id, { queueId: queue.id, status: 'pending' });
    const assigned = await sd.buildTicket(own.id, { queueId: otherQueue.id, status: 'open', userId: user.id });
    const elsewhere = await sd.buildTicket(own.id, { queueId: otherQueue.id, status: 'open', userId: own.admin.id });
    const seen = await board(userToken, `showAll=true&queueIds=${queueIds([queue.id, otherQueue.id])}`);
    expect(seen.tickets.map((card) => card.id).sort()).toEqual([mine.id, assigned.id].sort());
    expect((await board(token, 'showAll=true')).tickets.map((card) => card.id)).toContain(elsewhere.id);
  });

  it('answers 404 for a lane that is another company’s tag, or not a kanban tag', async () => {
    const other = await t.factories.buildCompany();
    const foreign = await sd.buildTag(other.id, { name: 'Alheia', kanban: 1 });
    const plain = await sd.buildTag(company.id, { name: 'Sem raia' });
    for (const lane of [foreign.id, plain.id]) {
      const response = await t.request(adminToken, 'GET', `/ticket/kanban?lane=${lane}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('ERR_NO_TAG_FOUND');
    }
  });
});

describe('moving a card', () => {
  it('PUT /ticket-tags replaces the card’s lane tag, keeps its other tags and tells who may see the ticket', async () => {
    const from = await sd.buildTag(company.id, { name: 'Etapa A', kanban: 1 });
    const to = await sd.buildTag(company.id, { name: 'Etapa B', kanban: 1 });
    const vip = await sd.buildTag(company.id, { name: 'Cliente VIP' });
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open' });
    await sd.tagTicket(company.id, ticket.id, [from.id, vip.id]);
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      const response = await t.request(agentToken, 'PUT', `/ticket-tags/${ticket.id}/${to.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: ticket.id, tags: [{ id: vip.id }, { id: to.id }] });
      expect(await tagIdsOf(ticket.id)).toEqual([to.id, vip.id].sort((a, b) => a - b));
      await settle();
      const event = spy.mock.calls.find(([, , entity, payload]) => entity === 'ticket' && (payload as { ticket?: { id: number } }).ticket?.id === ticket.id);
      expect(event?.[1]).toEqual(expect.arrayContaining([`company:${company.id}:queue:${sales.id}`, `company:${company.id}:admins`]));
      expect(event?.[3]).toMatchObject({ action: 'update', ticket: { id: ticket.id, tags: [{ id: vip.id }, { id: to.id }] } });
      // The tags page's counts follow: lane A lost the ticket, lane B gained it; VIP did not change.
      const counts = spy.mock.calls.filter(([, , entity]) => entity === 'tag').map(([, , , payload]) => (payload as { tag: { id: number; ticketsCount: number } }).tag);
      expect(counts).toEqual(expect.arrayContaining([expect.objectContaining({ id: from.id, ticketsCount: 0 }), expect.objectContaining({ id: to.id, ticketsCount: 1 })]));
      expect(counts.map((tag) => tag.id)).not.toContain(vip.id);
    } finally {
      spy.mockRestore();
    }
    // The boards agree: the card left lane A for lane B.
    expect((await board(adminToken, `showAll=true&lane=${from.id}`)).tickets.map((card) => card.id)).not.toContain(ticket.id);
    expect((await board(adminToken, `showAll=true&lane=${to.id}`)).tickets.map((card) => card.id)).toContain(ticket.id);
  });

  it('DELETE /ticket-tags takes the card to the lane without tag, keeping tags that are not lanes', async () => {
    const lane = await sd.buildTag(company.id, { name: 'Etapa C', kanban: 1 });
    const vip = await sd.buildTag(company.id, { name: 'Cliente Ouro' });
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open' });
    await sd.tagTicket(company.id, ticket.id, [lane.id, vip.id]);
    const response = await t.request(agentToken, 'DELETE', `/ticket-tags/${ticket.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(await tagIdsOf(ticket.id)).toEqual([vip.id]);
    expect((await board(adminToken, 'showAll=true&lane=none')).tickets.map((card) => card.id)).toContain(ticket.id);
  });

  it('attaching a tag that is not a lane leaves the card in its lane', async () => {
    const lane = await sd.buildTag(company.id, { name: 'Etapa D', kanban: 1 });
    const plain = await sd.buildTag(company.id, { name: 'Retornar' });
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open' });
    await sd.tagTicket(company.id, ticket.id, [lane.id]);
    expect((await t.request(agentToken, 'PUT', `/ticket-tags/${ticket.id}/${plain.id}`)).statusCode).toBe(200);
    expect(await tagIdsOf(ticket.id)).toEqual([lane.id, plain.id].sort((a, b) => a - b));
  });

  it('is one transaction: a failure attaching the new tag leaves the old one', async () => {
    const from = await sd.buildTag(company.id, { name: 'Etapa E', kanban: 1 });
    const to = await sd.buildTag(company.id, { name: 'Etapa F', kanban: 1 });
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open' });
    await sd.tagTicket(company.id, ticket.id, [from.id]);
    // The database refuses the new row after the old one was deleted (a constraint, a lost connection...).
    const refuse = `refuse_lane_${to.id}`;
    await t.database.db.execute(sql.raw(`create function ${refuse}() returns trigger language plpgsql as $$ begin raise exception 'lane refused'; end $$`));
    await t.database.db.execute(sql.raw(`create trigger ${refuse} before insert on ticket_tags for each row when (new.tag_id = ${to.id}) execute function ${refuse}()`));
    try {
      const response = await t.request(agentToken, 'PUT', `/ticket-tags/${ticket.id}/${to.id}`);
      expect(response.statusCode).toBe(500);
      expect(await tagIdsOf(ticket.id)).toEqual([from.id]);
    } finally {
      await t.database.db.execute(sql.raw(`drop trigger ${refuse} on ticket_tags`));
      await t.database.db.execute(sql.raw(`drop function ${refuse}()`));
    }
  });

  it('two agents moving the same card at once leave it in one lane', async () => {
    const [a, b, c] = await Promise.all(['Etapa H', 'Etapa I', 'Etapa J'].map((name) => sd.buildTag(company.id, { name, kanban: 1 })));
    if (!a || !b || !c) throw new Error('tags not built');
    const cards = await Promise.all(Array.from({ length: 8 }, () => sd.buildTicket(company.id, { queueId: sales.id, status: 'open' })));
    for (const card of cards) await sd.tagTicket(company.id, card.id, [a.id]);
    // On PostgreSQL the two moves of each card run side by side; without the ticket's lock both deletes miss the other's new row.
    const answers = await Promise.all(
      cards.flatMap((card) => [t.request(agentToken, 'PUT', `/ticket-tags/${card.id}/${b.id}`), t.request(adminToken, 'PUT', `/ticket-tags/${card.id}/${c.id}`)]),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    for (const card of cards) {
      const lanes = await tagIdsOf(card.id);
      expect(lanes).toHaveLength(1);
      expect([b.id, c.id]).toContain(lanes[0]);
    }
  });

  it('refuses another company’s ticket or tag (404, nothing changed) and a ticket outside the agent’s queues (403)', async () => {
    const mine = await sd.buildTag(company.id, { name: 'Etapa G', kanban: 1 });
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open' });
    await sd.tagTicket(company.id, ticket.id, [mine.id]);
    const other = await t.factories.buildCompany();
    const foreignTag = await sd.buildTag(other.id, { name: 'Etapa X', kanban: 1 });
    const foreignTicket = await sd.buildTicket(other.id, { status: 'open' });
    await sd.tagTicket(other.id, foreignTicket.id, [foreignTag.id]);

    for (const [method, url, error] of [
      ['PUT', `/ticket-tags/${ticket.id}/${foreignTag.id}`, 'ERR_NO_TAG_FOUND'],
      ['PUT', `/ticket-tags/${foreignTicket.id}/${mine.id}`, 'ERR_NO_TICKET_FOUND'],
      ['DELETE', `/ticket-tags/${foreignTicket.id}`, 'ERR_NO_TICKET_FOUND'],
    ] as const) {
      const response = await t.request(adminToken, method, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error).toBe(error);
    }
    expect(await tagIdsOf(ticket.id)).toEqual([mine.id]);
    expect(await tagIdsOf(foreignTicket.id)).toEqual([foreignTag.id]);

    const hidden = await sd.buildTicket(company.id, { queueId: support.id, status: 'open', userId: company.admin.id });
    await sd.tagTicket(company.id, hidden.id, [mine.id]);
    expect((await t.request(agentToken, 'DELETE', `/ticket-tags/${hidden.id}`)).statusCode).toBe(403);
    expect(await tagIdsOf(hidden.id)).toEqual([mine.id]);
  });
});

describe('the plan flag useKanban', () => {
  it('refuses the board and the moves when the plan has no kanban', async () => {
    const own = await t.factories.buildCompany({ plan: { useKanban: false } });
    const token = (await own.admin.login()).token;
    const tag = await sd.buildTag(own.id, { name: 'Etapa', kanban: 1 });
    const ticket = await sd.buildTicket(own.id, { status: 'open', userId: own.admin.id });
    for (const [method, url] of [
      ['GET', '/ticket/kanban?showAll=true'],
      ['PUT', `/ticket-tags/${ticket.id}/${tag.id}`],
      ['DELETE', `/ticket-tags/${ticket.id}`],
    ] as const) {
      const response = await t.request(token, method, url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    expect(await tagIdsOf(ticket.id)).toEqual([]);
  });
});
