import { eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tickets, userPresence, webhooks, whatsappQueues } from '../../platform/db/schema.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { planAssignments } from './auto-assign-plan.js';

/**
 * Auto-assignment (issue 35) through the real app: queue and user settings over HTTP,
 * presence from real sockets, rounds started by the product's own triggers.
 */

let t: TestContext;
let desk: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let clients: SocketClients;
let whatsappId: number;
let seq = 0;

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true });
  desk = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany({ plan: { queues: 20 } });
  adminToken = (await company.admin.login()).token;
  whatsappId = (await desk.buildConnection(company.id)).id;
  clients = socketClients(t.app);
});
afterAll(async () => {
  clients.closeAll();
  await t.close();
});

async function createQueue(body: Record<string, unknown>) {
  const response = await t.request(adminToken, 'POST', '/queue', { name: `Fila ${++seq}`, color: `#a${String(seq).padStart(5, '0')}`, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; autoAssign: string; defaultMaxOpenTickets: number }>();
}

async function agent(queueIds: number[], maxOpenTickets: number | null = null) {
  const user = await t.factories.buildUser(company.id, { name: `Agente ${++seq}`, queueIds, maxOpenTickets });
  return { ...user, token: (await user.login()).token };
}

/** The agent opens the app: a live socket, online once the server has it. */
async function online(token: string): Promise<Socket> {
  return clients.connect(token, 'ready');
}

async function ticketRow(id: number) {
  const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, id));
  if (!row) throw new Error('no ticket');
  return row;
}

/** A customer writes on the sandbox connection: a new pending ticket, moved into `queueId` as the bot would. */
async function customerTicket(queueId: number): Promise<number> {
  const number = `55219700${String(++seq).padStart(5, '0')}`;
  const response = await t.request(adminToken, 'POST', `/sandbox/${whatsappId}/inbound`, { from: number, body: 'Oi' });
  expect(response.statusCode, response.body).toBeLessThan(300);
  const ticketId = response.json<{ ticketId: number }>().ticketId;
  // The agent's transfer to the queue without a user: the ticket enters it (one of the triggers).
  expect((await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { queueId })).statusCode).toBe(200);
  return ticketId;
}

async function assignedTo(ticketId: number, userId: number | null) {
  await vi.waitFor(async () => expect((await ticketRow(ticketId)).userId).toBe(userId), { timeout: 5000, interval: 50 });
}

afterEach(() => clients.closeAll());

describe('queue and user settings', () => {
  it('a queue saves its mode and default capacity; bad values are 400 with field messages', async () => {
    const queue = await createQueue({});
    expect(queue).toMatchObject({ autoAssign: 'off', defaultMaxOpenTickets: 5 });
    const updated = await t.request(adminToken, 'PUT', `/queue/${queue.id}`, { autoAssign: 'balanced', defaultMaxOpenTickets: '3' });
    expect(updated.json()).toMatchObject({ autoAssign: 'balanced', defaultMaxOpenTickets: 3 });
    for (const [body, field] of [
      [{ autoAssign: 'fastest' }, 'autoAssign'],
      [{ defaultMaxOpenTickets: 0 }, 'defaultMaxOpenTickets'],
      [{ defaultMaxOpenTickets: 1001 }, 'defaultMaxOpenTickets'],
      [{ defaultMaxOpenTickets: 'x\u0000' }, 'defaultMaxOpenTickets'],
      [{ defaultMaxOpenTickets: 2.5 }, 'defaultMaxOpenTickets'],
    ] as const) {
      const response = await t.request(adminToken, 'PUT', `/queue/${queue.id}`, body);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json<{ fields: Record<string, string[]> }>().fields)).toEqual([field]);
    }
    expect(((await t.request(adminToken, 'POST', '/queue', { name: 'Ruim', color: '#bad001', defaultMaxOpenTickets: -1 })).json()).fields.defaultMaxOpenTickets).toEqual(['Between 1 and 1000']);
  });

  it("an admin sets a user's capacity (null: the queue's default); a user cannot change its own", async () => {
    const user = await agent([]);
    const saved = await t.request(adminToken, 'PUT', `/users/${user.id}`, { maxOpenTickets: 7 });
    expect(saved.json()).toMatchObject({ maxOpenTickets: 7 });
    expect((await t.request(adminToken, 'PUT', `/users/${user.id}`, { maxOpenTickets: '' })).json()).toMatchObject({ maxOpenTickets: null });
    expect((await t.request(adminToken, 'PUT', `/users/${user.id}`, { maxOpenTickets: 0 })).statusCode).toBe(400);
    expect((await t.request(user.token, 'PUT', `/users/${user.id}`, { maxOpenTickets: 50 })).statusCode).toBe(403);
    // Resent unchanged by its own profile form: not a change.
    expect((await t.request(user.token, 'PUT', `/users/${user.id}`, { name: 'Eu mesmo', maxOpenTickets: null })).statusCode).toBe(200);
    const created = await t.request(adminToken, 'POST', '/users', { name: 'Nova', email: `nova-${seq}@example.com`, password: 'Senha123!', maxOpenTickets: 2 });
    expect(created.json()).toMatchObject({ maxOpenTickets: 2 });
  });
});

describe('assignment', () => {
  it('a ticket entering the queue goes to an online agent at once, with the same socket update as an accept', async () => {
    const queue = await createQueue({ autoAssign: 'round_robin' });
    const offline = await agent([queue.id]);
    const ana = await agent([queue.id]);
    const socket = await online(ana.token);
    const updates: { action: string; ticket?: { id: number; status: string; userId: number } }[] = [];
    socket.on(`company-${company.id}-ticket`, (payload: (typeof updates)[number]) => updates.push(payload));
    const hook = await desk.buildWebhook(company.id, ['ticket.updated']);
    const ticketId = await customerTicket(queue.id);
    await assignedTo(ticketId, ana.id);
    expect((await ticketRow(ticketId)).status).toBe('open');
    // The transfer (updateTicket), then the assignment: both ticket.updated webhook events, in order (issue 34).
    const outbox = (await desk.webhookOutbox(hook.id)).filter((row) => row.orderingKey === `ticket:${ticketId}`);
    expect(outbox.map((row) => [row.event, row.data.status, row.data.userId])).toEqual([
      ['ticket.updated', 'pending', null],
      ['ticket.updated', 'open', ana.id],
    ]);
    await t.database.db.delete(webhooks).where(eq(webhooks.id, hook.id));
    await vi.waitFor(() => expect(updates.some((u) => u.action === 'update' && u.ticket?.id === ticketId && u.ticket.status === 'open' && u.ticket.userId === ana.id)).toBe(true));
    expect(offline.id).not.toBe(ana.id);
  });

  it('a ticket nobody has room for waits, and is assigned when the agent closes one', async () => {
    const queue = await createQueue({ autoAssign: 'balanced', defaultMaxOpenTickets: 1 });
    const bia = await agent([queue.id]);
    await online(bia.token);
    const first = await customerTicket(queue.id);
    await assignedTo(first, bia.id);
    const second = await customerTicket(queue.id);
    await t.app.services.autoAssign.settled();
    expect((await ticketRow(second)).userId).toBeNull();
    expect((await t.request(bia.token, 'PUT', `/tickets/${first}`, { status: 'closed' })).statusCode).toBe(200);
    await assignedTo(second, bia.id);
  });

  it('a waiting ticket is assigned when an agent comes online, and when a capacity is raised', async () => {
    const queue = await createQueue({ autoAssign: 'balanced', defaultMaxOpenTickets: 1 });
    const caio = await agent([queue.id]);
    const waiting = [await customerTicket(queue.id), await customerTicket(queue.id)];
    await t.app.services.autoAssign.settled();
    expect((await ticketRow(waiting[0]!)).userId).toBeNull();
    await online(caio.token);
    await assignedTo(waiting[0]!, caio.id);
    expect((await ticketRow(waiting[1]!)).userId).toBeNull();
    expect((await t.request(adminToken, 'PUT', `/users/${caio.id}`, { maxOpenTickets: 2 })).statusCode).toBe(200);
    await assignedTo(waiting[1]!, caio.id);
  });

  it('switching auto-assignment on assigns what waits, oldest first; an agent can still take a ticket by hand', async () => {
    const queue = await createQueue({ autoAssign: 'off', defaultMaxOpenTickets: 1 });
    const duda = await agent([queue.id]);
    await online(duda.token);
    const older = await customerTicket(queue.id);
    const newer = await customerTicket(queue.id);
    await t.app.services.autoAssign.settled();
    expect((await ticketRow(older)).userId).toBeNull();
    expect((await t.request(adminToken, 'PUT', `/queue/${queue.id}`, { autoAssign: 'round_robin' })).statusCode).toBe(200);
    await assignedTo(older, duda.id);
    expect((await ticketRow(newer)).userId).toBeNull();
    // By hand, beyond the capacity: capacity bounds only what is given automatically.
    expect((await t.request(duda.token, 'PUT', `/tickets/${newer}`, { status: 'open' })).statusCode).toBe(200);
    expect(await ticketRow(newer)).toMatchObject({ status: 'open', userId: duda.id });
  });

  it('round_robin takes turns; a stale presence row (a dead node) does not count as online', async () => {
    const queue = await createQueue({ autoAssign: 'round_robin', defaultMaxOpenTickets: 10 });
    const [a, b] = [await agent([queue.id]), await agent([queue.id])];
    const ghost = await agent([queue.id]);
    await online(a.token);
    await online(b.token);
    await t.database.db.insert(userPresence).values({ companyId: company.id, userId: ghost.id, nodeId: 'dead-node', heartbeatAt: new Date(Date.now() - 60_000) });
    const got: number[] = [];
    for (let i = 0; i < 4; i++) {
      const id = await customerTicket(queue.id);
      await vi.waitFor(async () => expect((await ticketRow(id)).userId).not.toBeNull(), { timeout: 5000, interval: 50 });
      got.push((await ticketRow(id)).userId ?? 0);
    }
    expect(got).toEqual([a.id, b.id, a.id, b.id]);
  });

  /** A connection offering only `queueId`: a new conversation is created in it and the bot's first turn runs (arrival.ts). */
  async function arrivalConnection(queueId: number): Promise<number> {
    const connection = await desk.buildConnection(company.id);
    await t.database.db.insert(whatsappQueues).values({ companyId: company.id, whatsappId: connection.id, queueId });
    return connection.id;
  }

  async function customerWrites(connectionId: number, number: string): Promise<number> {
    const response = await t.request(adminToken, 'POST', `/sandbox/${connectionId}/inbound`, { from: number, body: 'Oi' });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<{ ticketId: number }>().ticketId;
  }

  it("a new conversation arriving in the queue is assigned on the bot's first turn, not by the sweep", async () => {
    const queue = await createQueue({ autoAssign: 'balanced' });
    const connectionId = await arrivalConnection(queue.id);
    const gabi = await agent([queue.id]);
    await online(gabi.token);
    // No sweep: only the arrival's own triggers can assign it.
    t.app.services.autoAssign.stop();
    try {
      const ticketId = await customerWrites(connectionId, `55219800${String(++seq).padStart(5, '0')}`);
      await assignedTo(ticketId, gabi.id);
    } finally {
      t.app.services.autoAssign.start();
    }
  });

  it('a contact the bot never answers (disableBot) arriving in the queue is assigned too', async () => {
    const queue = await createQueue({ autoAssign: 'balanced' });
    const connectionId = await arrivalConnection(queue.id);
    const ivo = await agent([queue.id]);
    await online(ivo.token);
    const number = `55219810${String(++seq).padStart(5, '0')}`;
    await desk.buildContact(company.id, { number, disableBot: true });
    t.app.services.autoAssign.stop();
    try {
      // The bot never takes its first turn, so the ticket keeps `startDue` in its arrival queue.
      const ticketId = await customerWrites(connectionId, number);
      expect((await ticketRow(ticketId)).queueId).toBe(queue.id);
      await assignedTo(ticketId, ivo.id);
    } finally {
      t.app.services.autoAssign.start();
    }
  });

  it('a ticket the bot still handles (chatbot, startDue) is not assigned', async () => {
    const queue = await createQueue({ autoAssign: 'balanced' });
    const eva = await agent([queue.id]);
    await online(eva.token);
    const botTicket = await desk.buildTicket(company.id, { whatsappId, queueId: queue.id, chatbot: true });
    const dueTicket = await desk.buildTicket(company.id, { whatsappId, queueId: queue.id, botState: { startDue: true } });
    t.app.services.autoAssign.request(company.id);
    await t.app.services.autoAssign.settled();
    expect((await ticketRow(botTicket.id)).userId).toBeNull();
    expect((await ticketRow(dueTicket.id)).userId).toBeNull();
  });

  it('the greeting rules are those of an accept', async () => {
    expect((await t.request(adminToken, 'PUT', '/settings/sendGreetingAccepted', { value: 'enabled' })).statusCode).toBe(200);
    const queue = await createQueue({ autoAssign: 'balanced' });
    const fabio = await agent([queue.id]);
    await online(fabio.token);
    const ticketId = await customerTicket(queue.id);
    await assignedTo(ticketId, fabio.id);
    await t.app.services.autoAssign.settled();
    const { rows } = (await t.database.db.execute(sql`select body, user_id from messages where ticket_id = ${ticketId} and from_me order by id`)) as unknown as { rows: { body: string; user_id: number | null }[] };
    expect(rows.at(-1)).toMatchObject({ user_id: fabio.id });
    expect(rows.at(-1)?.body).toContain('Agente');
    expect((await t.request(adminToken, 'PUT', '/settings/sendGreetingAccepted', { value: 'disabled' })).statusCode).toBe(200);
  });
});

describe('agents load on the dashboard', () => {
  it('admins see open tickets against capacity and presence; users are refused', async () => {
    const queue = await createQueue({ autoAssign: 'balanced', defaultMaxOpenTickets: 4 });
    const gil = await agent([queue.id], 9);
    const hugo = await agent([queue.id]);
    await online(gil.token);
    await desk.buildTicket(company.id, { whatsappId, queueId: queue.id, status: 'open', userId: hugo.id });
    const answer = await t.request(adminToken, 'GET', '/dashboard/agentLoad');
    expect(answer.statusCode).toBe(200);
    const agents = answer.json<{ agents: { id: number; online: boolean; openTickets: number; capacity: number | null; ownCapacity: boolean }[] }>().agents;
    expect(agents.find((a) => a.id === gil.id)).toMatchObject({ online: true, capacity: 9, ownCapacity: true });
    expect(agents.find((a) => a.id === hugo.id)).toMatchObject({ online: false, openTickets: 1, capacity: 4, ownCapacity: false });
    expect((await t.request(hugo.token, 'GET', '/dashboard/agentLoad')).statusCode).toBe(403);
  });
});

describe('planAssignments', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('balanced: fewest open first, ties by the longest idle; never beyond a capacity across queues', () => {
    const queues = [
      { id: 1, mode: 'balanced' as const, defaultMax: 2, cursorUserId: null },
      { id: 2, mode: 'balanced' as const, defaultMax: 2, cursorUserId: null },
    ];
    const agents = [
      { userId: 10, queueId: 1, maxOpenTickets: null, openTickets: 1, lastAssignedAt: null },
      { userId: 11, queueId: 1, maxOpenTickets: null, openTickets: 0, lastAssignedAt: new Date(now - 1000) },
      { userId: 12, queueId: 1, maxOpenTickets: null, openTickets: 0, lastAssignedAt: new Date(now - 5000) },
      { userId: 10, queueId: 2, maxOpenTickets: null, openTickets: 1, lastAssignedAt: null },
    ];
    const plan = planAssignments(queues, agents, [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id, queueId: id % 2 === 0 ? 2 : 1 })), now);
    expect(plan.assignments).toEqual([
      { ticketId: 1, userId: 12 },
      { ticketId: 2, userId: 10 },
      { ticketId: 3, userId: 11 },
      { ticketId: 5, userId: 12 },
      { ticketId: 7, userId: 11 },
    ]);
  });

  it("round_robin starts after the queue's cursor and wraps; the agent's own capacity wins over the default", () => {
    const queues = [{ id: 1, mode: 'round_robin' as const, defaultMax: 1, cursorUserId: 20 }];
    const agents = [10, 20, 30].map((userId) => ({ userId, queueId: 1, maxOpenTickets: userId === 30 ? 2 : null, openTickets: 0, lastAssignedAt: null }));
    const plan = planAssignments(queues, agents, [1, 2, 3, 4, 5].map((id) => ({ id, queueId: 1 })), now);
    expect(plan.assignments.map((a) => a.userId)).toEqual([30, 10, 20, 30]);
    expect(plan.cursors.get(1)).toBe(30);
  });
});

