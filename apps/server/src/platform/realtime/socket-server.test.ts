import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeAuthenticate, fakeContext } from '../../test/realtime-fixtures.js';
import type { RequestContext } from '../http/context.js';
import { createPublisher } from './publisher.js';
import { rooms } from './rooms.js';
import { createSocketServer, type SocketServer } from './socket-server.js';

const COMPANY_A = 1;
const COMPANY_B = 2;
const base = fakeContext(COMPANY_A, 14);
const sessions: Record<string, RequestContext> = {
  'token-revoked-later': fakeContext(COMPANY_A, 13),
  'token-a1': fakeContext(COMPANY_A, 11, 'admin'),
  'token-a2': fakeContext(COMPANY_A, 12),
  'token-b1': fakeContext(COMPANY_B, 21, 'admin'),
  'token-queues': { ...base, user: { ...base.user, queueIds: [3], allTicket: 'enabled' } },
};
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
// Long enough for a server round trip on this machine; used only for "nothing arrives" checks.
const QUIET_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let httpServer: HttpServer;
let server: SocketServer;
let url: string;
const statusCalls: RequestContext[] = [];
const offlineCalls: RequestContext[] = [];
const clients: ClientSocket[] = [];

function connect(token: string, at = url): ClientSocket {
  const socket = connectClient(at, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
  clients.push(socket);
  return socket;
}

/** Connected and in its rooms: the server says `ready` once they are joined. */
async function connected(token: string, at = url): Promise<ClientSocket> {
  const socket = connect(token, at);
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

function connectError(token: string): Promise<Error & { data?: { status?: number } }> {
  const socket = connect(token);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected with a bad token')));
    socket.once('connect_error', resolve);
  });
}

/** Records every event a socket receives. */
function recorder(socket: ClientSocket): { event: string; payload: unknown }[] {
  const received: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  return received;
}

function emitWithAck(socket: ClientSocket, event: string, ...args: unknown[]): Promise<unknown> {
  return socket.timeout(2000).emitWithAck(event, ...args);
}

const publisher = createPublisher(() => server.transport);

beforeAll(async () => {
  httpServer = createServer();
  server = await createSocketServer(httpServer, {
    authenticate: fakeAuthenticate(sessions),
    logger: silent,
    onUserStatus: async (ctx) => {
      statusCalls.push(ctx);
    },
    onUserOffline: async (ctx) => {
      offlineCalls.push(ctx);
    },
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});

function disconnectClients(): void {
  for (const socket of clients.splice(0)) socket.disconnect();
}

afterEach(() => {
  disconnectClients();
  server.setChatBoxAuthorizer(async () => false);
});

afterAll(async () => {
  await server.close();
  await new Promise((resolve) => httpServer.close(resolve));
});

describe('socket handshake', () => {
  it('connects with a valid token in the query', async () => {
    const socket = await connected('token-a1');
    expect(socket.connected).toBe(true);
  });

  it('accepts the token in auth too', async () => {
    const socket = connectClient(url, { transports: ['websocket'], auth: { token: 'token-a2' }, reconnection: false, forceNew: true });
    clients.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  });

  it('refuses an invalid token with 401 and an expired one with 403', async () => {
    const invalid = await connectError('nope');
    expect(invalid.message).toBe('ERR_SESSION_EXPIRED');
    expect(invalid.data).toEqual({ status: 401 });

    const expired = await connectError('expired');
    expect(expired.message).toBe('ERR_SESSION_EXPIRED');
    expect(expired.data).toEqual({ status: 403 });

    const missing = await connectError('');
    expect(missing.data).toEqual({ status: 401 });
  });
});

describe('tenant isolation', () => {
  it('never delivers an event of company B to a socket of company A', async () => {
    const a = await connected('token-a1');
    const b = await connected('token-b1');
    const receivedByA = recorder(a);
    const receivedByB = recorder(b);
    await emitWithAck(a, 'joinNotification');
    await emitWithAck(b, 'joinNotification');
    await emitWithAck(a, 'joinTickets', 'open');
    await emitWithAck(b, 'joinTickets', 'open');

    // Every room of company B, as the publisher would target them.
    const roomsOfB = [
      rooms.company(COMPANY_B),
      rooms.admins(COMPANY_B),
      rooms.notification(COMPANY_B),
      rooms.tickets(COMPANY_B, 'open'),
      rooms.user(COMPANY_B, 21),
      // Same user id as in A: must still stay in B.
      rooms.user(COMPANY_B, 11),
    ];
    publisher.toRooms(COMPANY_B, roomsOfB, 'ticket', { action: 'update', ticket: { id: 5 } });
    await sleep(QUIET_MS);

    expect(receivedByA).toEqual([]);
    expect(receivedByB).toEqual([{ event: 'company-2-ticket', payload: { action: 'update', ticket: { id: 5 } } }]);
  });

  it('emits nothing for an empty room list, and refuses rooms outside the naming', async () => {
    const a = await connected('token-a1');
    const received = recorder(a);
    server.transport.emit([], 'company-1-ticket', { action: 'update' });
    server.transport.emit(['lobby'], 'company-1-ticket', { action: 'update' });
    await sleep(QUIET_MS);
    expect(received).toEqual([]);
  });

  it('targets one user through the user room, and admins through the admins room', async () => {
    const admin = await connected('token-a1');
    const agent = await connected('token-a2');
    const toAdmin = recorder(admin);
    const toAgent = recorder(agent);

    publisher.toRooms(COMPANY_A, [rooms.user(COMPANY_A, 12)], 'user', { action: 'update', user: { id: 12 } });
    publisher.toRooms(COMPANY_A, [rooms.admins(COMPANY_A)], 'whatsapp', { action: 'delete', whatsappId: 3 });
    await sleep(QUIET_MS);

    expect(toAgent).toEqual([{ event: 'company-1-user', payload: { action: 'update', user: { id: 12 } } }]);
    expect(toAdmin).toEqual([{ event: 'company-1-whatsapp', payload: { action: 'delete', whatsappId: 3 } }]);
  });

  it('delivers a burst published in one tick (one write per socket) whole and in order', async () => {
    const admin = await connected('token-a1');
    const received = recorder(admin);
    // Large enough for the burst to fill the socket's buffer several times over.
    const padding = 'x'.repeat(4000);
    for (let i = 0; i < 300; i++) publisher.toRooms(COMPANY_A, [rooms.admins(COMPANY_A)], 'appMessage', { action: 'create', i, padding });
    for (let waited = 0; received.length < 300 && waited < 5000; waited += 50) await sleep(50);
    expect(received.map((r) => (r.payload as { i: number }).i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('puts a user in the rooms of its queues, and in allTicket when enabled', async () => {
    const withQueues = await connected('token-queues');
    const plain = await connected('token-a2');
    const toQueues = recorder(withQueues);
    const toPlain = recorder(plain);

    publisher.toRooms(COMPANY_A, [rooms.queue(COMPANY_A, 3)], 'ticket', { action: 'update', queue: 3 });
    publisher.toRooms(COMPANY_A, [rooms.queue(COMPANY_A, 4)], 'ticket', { action: 'update', queue: 4 });
    publisher.toRooms(COMPANY_A, [rooms.allTicket(COMPANY_A)], 'ticket', { action: 'update', pending: true });
    publisher.toRooms(COMPANY_B, [rooms.queue(COMPANY_B, 3)], 'ticket', { action: 'update', otherCompany: true });
    await sleep(QUIET_MS);

    expect(toQueues.map((r) => r.payload)).toEqual([
      { action: 'update', queue: 3 },
      { action: 'update', pending: true },
    ]);
    expect(toPlain).toEqual([]);
  });

  it('reaches every company through the platform-wide room', async () => {
    const a = await connected('token-a2');
    const b = await connected('token-b1');
    const receivedByA = recorder(a);
    const receivedByB = recorder(b);
    publisher.broadcast([rooms.everyone()], 'company-announcement', { action: 'create' });
    await sleep(QUIET_MS);
    expect(receivedByA).toHaveLength(1);
    expect(receivedByB).toHaveLength(1);
  });
});

describe('client joins', () => {
  it('refuses joinChatBox while no authorizer is registered', async () => {
    // A fresh server: the shared one got an authorizer in afterEach.
    const bare = createServer();
    const bareServer = await createSocketServer(bare, {
      authenticate: fakeAuthenticate(sessions),
      logger: silent,
      onUserStatus: async () => undefined,
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const socket = connectClient(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, {
        transports: ['websocket'],
        query: { token: 'token-a1' },
        reconnection: false,
        forceNew: true,
      });
      clients.push(socket);
      await new Promise<void>((resolve) => socket.once('ready', () => resolve()));
      const received = recorder(socket);
      expect(await emitWithAck(socket, 'joinChatBox', 5)).toEqual({ ok: false, error: 'ERR_NO_PERMISSION' });
      bareServer.transport.emit([rooms.chatBox(COMPANY_A, 5)], 'company-1-appMessage', { action: 'create' });
      await sleep(QUIET_MS);
      expect(received).toEqual([]);
    } finally {
      disconnectClients();
      await bareServer.close();
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('joins a chat box only when the authorizer allows that ticket', async () => {
    const asked: { companyId: number; userId: number; ticketId: number }[] = [];
    server.setChatBoxAuthorizer(async (ctx, ticketId) => {
      asked.push({ companyId: ctx.companyId, userId: ctx.user.id, ticketId });
      return ticketId === 7;
    });
    const socket = await connected('token-a2');
    const received = recorder(socket);

    expect(await emitWithAck(socket, 'joinChatBox', 8)).toEqual({ ok: false, error: 'ERR_NO_PERMISSION' });
    // The web app sends the id as a string from the route.
    expect(await emitWithAck(socket, 'joinChatBox', '7')).toEqual({ ok: true });
    expect(await emitWithAck(socket, 'joinChatBox', 'abc')).toEqual({ ok: false, error: 'ERR_VALIDATION' });
    expect(await emitWithAck(socket, 'joinChatBox', -1)).toEqual({ ok: false, error: 'ERR_VALIDATION' });
    expect(asked).toEqual([
      { companyId: COMPANY_A, userId: 12, ticketId: 8 },
      { companyId: COMPANY_A, userId: 12, ticketId: 7 },
    ]);

    publisher.toRooms(COMPANY_A, [rooms.chatBox(COMPANY_A, 8)], 'appMessage', { action: 'create', id: 'denied' });
    publisher.toRooms(COMPANY_A, [rooms.chatBox(COMPANY_A, 7)], 'appMessage', { action: 'create', id: 'allowed' });
    // The same ticket id in company B is another ticket.
    publisher.toRooms(COMPANY_B, [rooms.chatBox(COMPANY_B, 7)], 'appMessage', { action: 'create', id: 'other-company' });
    await sleep(QUIET_MS);
    expect(received).toEqual([{ event: 'company-1-appMessage', payload: { action: 'create', id: 'allowed' } }]);

    expect(await emitWithAck(socket, 'leaveChatBox', 7)).toEqual({ ok: true });
    publisher.toRooms(COMPANY_A, [rooms.chatBox(COMPANY_A, 7)], 'appMessage', { action: 'create', id: 'after-leave' });
    await sleep(QUIET_MS);
    expect(received).toHaveLength(1);
  });

  it('refuses a joinChatBox whose authorizer fails, without dropping the socket', async () => {
    server.setChatBoxAuthorizer(async () => {
      throw new Error('database down');
    });
    const socket = await connected('token-a2');
    expect(await emitWithAck(socket, 'joinChatBox', 7)).toEqual({ ok: false, error: 'ERR_NO_PERMISSION' });
    // Malformed emits without a callback are ignored too.
    socket.emit('joinChatBox', { nested: true });
    socket.emit('joinTickets');
    await sleep(50);
    expect(socket.connected).toBe(true);
  });

  it('ignores joinTickets with a status outside the spec', async () => {
    const socket = await connected('token-a2');
    const received = recorder(socket);
    expect(await emitWithAck(socket, 'joinTickets', 'archived')).toEqual({ ok: false, error: 'ERR_VALIDATION' });
    expect(await emitWithAck(socket, 'joinTickets', 'pending')).toEqual({ ok: true });

    publisher.toRooms(COMPANY_A, [rooms.tickets(COMPANY_A, 'open')], 'ticket', { action: 'update', status: 'open' });
    publisher.toRooms(COMPANY_A, [rooms.tickets(COMPANY_A, 'pending')], 'ticket', { action: 'update', status: 'pending' });
    await sleep(QUIET_MS);
    expect(received).toEqual([{ event: 'company-1-ticket', payload: { action: 'update', status: 'pending' } }]);

    expect(await emitWithAck(socket, 'leaveTickets', 'pending')).toEqual({ ok: true });
    publisher.toRooms(COMPANY_A, [rooms.tickets(COMPANY_A, 'pending')], 'ticket', { action: 'update', status: 'pending' });
    await sleep(QUIET_MS);
    expect(received).toHaveLength(1);
  });

  it('joins and leaves the notification room', async () => {
    const socket = await connected('token-a2');
    const received = recorder(socket);
    expect(await emitWithAck(socket, 'joinNotification')).toEqual({ ok: true });
    publisher.toRooms(COMPANY_A, [rooms.notification(COMPANY_A)], 'ticket', { action: 'update' });
    await sleep(QUIET_MS);
    expect(received).toHaveLength(1);
    expect(await emitWithAck(socket, 'leaveNotification')).toEqual({ ok: true });
    publisher.toRooms(COMPANY_A, [rooms.notification(COMPANY_A)], 'ticket', { action: 'update' });
    await sleep(QUIET_MS);
    expect(received).toHaveLength(1);
  });
});

describe('ready', () => {
  it('emits ready once authentication and the socket\'s own rooms are done, so joins made on it work', async () => {
    const socket = connect('token-a2');
    const received = recorder(socket);
    const joined = new Promise<unknown>((resolve) => {
      socket.once('ready', () => {
        // Already in its user room when told ready, and joins made now are answered.
        publisher.toRooms(COMPANY_A, [rooms.user(COMPANY_A, 12)], 'user', { action: 'update', at: 'ready' });
        resolve(emitWithAck(socket, 'joinTickets', 'pending'));
      });
    });
    expect(await joined).toEqual({ ok: true });
    publisher.toRooms(COMPANY_A, [rooms.tickets(COMPANY_A, 'pending')], 'ticket', { action: 'update', after: 'join' });
    await sleep(QUIET_MS);
    expect(received.map((entry) => entry.event)).toEqual(['ready', 'company-1-user', 'company-1-ticket']);
    expect(received.slice(1).map((entry) => entry.payload)).toEqual([
      { action: 'update', at: 'ready' },
      { action: 'update', after: 'join' },
    ]);
  });

  it('emits ready again after each reconnect, recovered or not', async () => {
    const socket = connectClient(url, { transports: ['websocket'], query: { token: 'token-a1' }, forceNew: true, reconnectionDelay: 50, reconnectionDelayMax: 50 });
    clients.push(socket);
    let readies = 0;
    const readyNumber = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (readies >= n ? resolve() : socket.once('ready', check));
        check();
      });
    socket.on('ready', () => readies++);
    await readyNumber(1);
    socket.io.engine.close();
    await readyNumber(2);
    // A drop without recovery (the server forgot the session) is a fresh connect: ready again.
    server.transport.emit([rooms.admins(COMPANY_A)], 'company-1-user', { action: 'offset' });
    await sleep(QUIET_MS);
    socket.disconnect().connect();
    await readyNumber(3);
    expect(readies).toBe(3);
    expect(await emitWithAck(socket, 'joinNotification')).toEqual({ ok: true });
  });
});

describe('connection-state recovery', () => {
  it('delivers what was missed during a short drop, keeping the joined rooms', async () => {
    const socket = connectClient(url, {
      transports: ['websocket'],
      query: { token: 'token-a2' },
      forceNew: true,
      reconnectionDelay: 50,
      reconnectionDelayMax: 50,
    });
    clients.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    expect(await emitWithAck(socket, 'joinTickets', 'open')).toEqual({ ok: true });
    // Recovery needs an offset: the client only has one after receiving an event.
    const first = new Promise((resolve) => socket.once('company-1-ticket', resolve));
    publisher.toRooms(COMPANY_A, [rooms.tickets(COMPANY_A, 'open')], 'ticket', { action: 'update', n: 1 });
    await first;

    const reconnected = new Promise<void>((resolve) => socket.io.once('reconnect', () => resolve()));
    const dropped = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    socket.io.engine.close();
    await dropped;
    publisher.toRooms(COMPANY_A, [rooms.tickets(COMPANY_A, 'open')], 'ticket', { action: 'update', n: 2 });

    const missed = new Promise((resolve) => socket.once('company-1-ticket', resolve));
    await reconnected;
    await expect(missed).resolves.toEqual({ action: 'update', n: 2 });
    expect(socket.recovered).toBe(true);
  });

  it('drops a queue room on recovery when the user no longer has that queue', async () => {
    sessions['token-moved'] = { ...base, user: { ...base.user, id: 15, queueIds: [3] } };
    const socket = connectClient(url, {
      transports: ['websocket'],
      query: { token: 'token-moved' },
      forceNew: true,
      reconnectionDelay: 50,
      reconnectionDelayMax: 50,
    });
    clients.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const first = new Promise((resolve) => socket.once('company-1-ticket', resolve));
    publisher.toRooms(COMPANY_A, [rooms.queue(COMPANY_A, 3)], 'ticket', { action: 'update', n: 1 });
    await first;

    sessions['token-moved'] = { ...base, user: { ...base.user, id: 15, queueIds: [4] } };
    const reconnected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.io.engine.close();
    await reconnected;
    expect(socket.recovered).toBe(true);

    const received = recorder(socket);
    publisher.toRooms(COMPANY_A, [rooms.queue(COMPANY_A, 3)], 'ticket', { action: 'update', n: 2 });
    publisher.toRooms(COMPANY_A, [rooms.queue(COMPANY_A, 4)], 'ticket', { action: 'update', n: 3 });
    await sleep(QUIET_MS);
    expect(received.map((r) => r.payload)).toEqual([{ action: 'update', n: 3 }]);
  });

  it('authenticates again on recovery, so a revoked token does not come back', async () => {
    const socket = connectClient(url, {
      transports: ['websocket'],
      query: { token: 'token-revoked-later' },
      forceNew: true,
      reconnectionDelay: 50,
      reconnectionDelayMax: 50,
    });
    clients.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const first = new Promise((resolve) => socket.once('company-1-ticket', resolve));
    publisher.toRooms(COMPANY_A, [rooms.company(COMPANY_A)], 'ticket', { action: 'update' });
    await first;

    delete sessions['token-revoked-later'];
    const refused = new Promise<Error & { data?: unknown }>((resolve) => socket.once('connect_error', resolve));
    socket.io.engine.close();
    const error = await refused;
    expect(error.message).toBe('ERR_SESSION_EXPIRED');
    expect(error.data).toEqual({ status: 401 });
  });
});

describe('user status', () => {
  it('marks the user online on connect and on each userStatus heartbeat, offline after the last socket', async () => {
    // Let the disconnects of earlier tests settle before counting.
    await sleep(100);
    statusCalls.length = 0;
    offlineCalls.length = 0;
    const first = await connected('token-b1');
    const second = await connected('token-b1');
    await sleep(50);
    expect(statusCalls.map((ctx) => ctx.user.id)).toEqual([21, 21]);

    first.emit('userStatus');
    await sleep(100);
    expect(statusCalls).toHaveLength(3);

    first.disconnect();
    await sleep(100);
    expect(offlineCalls).toEqual([]);
    second.disconnect();
    await sleep(100);
    expect(offlineCalls.map((ctx) => ctx.user.id)).toEqual([21]);
  });
});

describe('write rounds', () => {
  it("sends a lone event at once and holds the next ones for the round, in order: the pacer reaches Engine.IO's sockets", async () => {
    const pacedHttp = createServer();
    const paced = await createSocketServer(pacedHttp, { authenticate: fakeAuthenticate(sessions), logger: silent, onUserStatus: async () => undefined, flushIntervalMs: 1500 });
    await new Promise<void>((resolve) => pacedHttp.listen(0, '127.0.0.1', resolve));
    try {
      const socket = await connected('token-a1', `http://127.0.0.1:${(pacedHttp.address() as AddressInfo).port}`);
      // The connect handshake's packets took the first round: wait for the interval to pass.
      await sleep(1600);
      const received = recorder(socket);
      const admins = [rooms.admins(COMPANY_A)];
      paced.transport.emit(admins, 'first', 1);
      while (received.length === 0) await sleep(5);
      paced.transport.emit(admins, 'second', 2);
      paced.transport.emit(admins, 'third', 3);
      await sleep(QUIET_MS);
      expect(received.map((e) => e.event)).toEqual(['first']);
      while (received.length < 3) await sleep(20);
      expect(received.map((e) => e.event)).toEqual(['first', 'second', 'third']);
    } finally {
      disconnectClients();
      await paced.close();
      await new Promise((resolve) => pacedHttp.close(resolve));
    }
  });
});
