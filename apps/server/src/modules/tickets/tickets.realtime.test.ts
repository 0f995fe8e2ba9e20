import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

/**
 * The real app with Socket.IO: events reach the sockets that may see them and
 * no socket of another company or another queue.
 */
let t: TestContext;
let clients: SocketClients;

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true });
  clients = socketClients(t.app);
});
afterAll(async () => {
  clients?.closeAll();
  await t.close();
});

const connect = (token: string): Promise<Socket> => clients.connect(token);

function record(socket: Socket, event: string): unknown[] {
  const seen: unknown[] = [];
  socket.on(event, (payload: unknown) => seen.push(payload));
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('realtime through the real app', () => {
  let a: BuiltCompany;
  let b: BuiltCompany;

  beforeAll(async () => {
    a = await t.factories.buildCompany();
    b = await t.factories.buildCompany();
  });

  it("delivers a customer message to company A's admin and agents of its queue, never to company B or other queues", async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const connection = await sd.buildConnection(a.id);
    const sales = await t.factories.buildQueue(a.id);
    const support = await t.factories.buildQueue(a.id);
    const salesAgent = await t.factories.buildUser(a.id, { queueIds: [sales.id] });
    const supportAgent = await t.factories.buildUser(a.id, { queueIds: [support.id] });

    const adminA = await connect((await a.admin.login()).token);
    const adminB = await connect((await b.admin.login()).token);
    const salesSocket = await connect((await salesAgent.login()).token);
    const supportSocket = await connect((await supportAgent.login()).token);
    const seenA = record(adminA, `company-${a.id}-appMessage`);
    const seenB = record(adminB, `company-${a.id}-appMessage`);
    const seenBOwn = record(adminB, `company-${b.id}-appMessage`);
    const seenSales = record(salesSocket, `company-${a.id}-ticket`);
    const seenSupport = record(supportSocket, `company-${a.id}-ticket`);

    // A ticket already in the sales queue receives a customer message.
    const contact = await sd.buildTicketContact(a.id, { number: '5511988887777' });
    const ticket = await sd.buildTicket(a.id, { whatsappId: connection.id, contactId: contact.id, queueId: sales.id });
    const { token } = await a.admin.login();
    await t.request(token, 'POST', `/sandbox/${connection.id}/inbound`, { from: '5511988887777', body: 'Olá' });
    // And a transfer to support moves it between the queues' users.
    await t.request(token, 'PUT', `/tickets/${ticket.id}`, { queueId: support.id, userId: null, status: 'pending' });
    await settle();

    expect(seenA).toHaveLength(1);
    expect(seenA[0]).toMatchObject({ action: 'create', message: { body: 'Olá', ticketId: ticket.id }, ticket: { id: ticket.id } });
    expect(seenB).toEqual([]);
    expect(seenBOwn).toEqual([]);
    expect(seenSales.map((e) => (e as { action: string }).action)).toContain('update');
    expect(seenSupport).toEqual([expect.objectContaining({ action: 'update', ticket: expect.objectContaining({ queueId: support.id }) })]);
  });

  it('tells the lists a ticket left (accepted, resolved) with a delete marked moved, before its update', async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const connection = await sd.buildConnection(a.id);
    const contact = await sd.buildTicketContact(a.id, { number: '5511977776666' });
    const ticket = await sd.buildTicket(a.id, { whatsappId: connection.id, contactId: contact.id, status: 'pending' });
    const login = await a.admin.login();
    const admin = await connect(login.token);
    const seen = record(admin, `company-${a.id}-ticket`) as { action: string; ticketId?: number; moved?: boolean; ticket?: { id: number; status: string } }[];

    await t.request(login.token, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: a.admin.id });
    await t.request(login.token, 'PUT', `/tickets/${ticket.id}`, { status: 'closed', userId: a.admin.id });
    await settle();

    const mine = seen.filter((e) => e.ticketId === ticket.id || e.ticket?.id === ticket.id).map((e) => (e.action === 'delete' ? `delete moved=${String(e.moved)}` : `${e.action} ${e.ticket?.status ?? ''}`.trim()));
    expect(mine).toEqual(['delete moved=true', 'update open', 'delete moved=true', 'update closed']);
  });

  it('tells the sessions of a user when the account logs in elsewhere', async () => {
    const user = await t.factories.buildUser(a.id);
    const first = await connect((await user.login()).token);
    const other = await connect((await a.admin.login()).token);
    const seenFirst = record(first, `company-${a.id}-auth`);
    const seenOther = record(other, `company-${a.id}-auth`);
    await user.login();
    await settle();
    expect(seenFirst).toEqual([{ action: 'update', user: { id: user.id, email: user.email, companyId: a.id } }]);
    expect(seenOther).toEqual([]);
  });

  it("lets a user join a ticket's chat box only when it may open the ticket", async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const q1 = await t.factories.buildQueue(a.id);
    const q2 = await t.factories.buildQueue(a.id);
    const agent = await t.factories.buildUser(a.id, { queueIds: [q1.id] });
    const visible = await sd.buildTicket(a.id, { queueId: q1.id });
    const hidden = await sd.buildTicket(a.id, { queueId: q2.id, status: 'open', userId: a.admin.id });
    const foreign = await sd.buildTicket(b.id);
    const socket = await connect((await agent.login()).token);
    const join = (ticketId: number) =>
      new Promise<{ ok: boolean }>((resolve) => socket.emit('joinChatBox', String(ticketId), (answer: { ok: boolean }) => resolve(answer)));
    expect((await join(visible.id)).ok).toBe(true);
    expect((await join(hidden.id)).ok).toBe(false);
    expect((await join(foreign.id)).ok).toBe(false);
  });

  it('refuses a socket without a valid token', async () => {
    await expect(connect('bad')).rejects.toMatchObject({ message: 'ERR_SESSION_EXPIRED' });
  });
});
