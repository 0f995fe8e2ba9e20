import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { companyEvent, type AuthEventPayload } from '@atende/shared';
import { createClient } from 'redis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { ingestMessage } from '../../inbound/ingest.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { usePostgres } from '../../test/test-database.js';
import { createManualJobs } from '../../test/manual-jobs.js';

/**
 * Socket rights (issue 16, defect 2): after each change of a user's rights, an
 * open socket of that user receives nothing it may no longer see. Measured with
 * live events (a customer's message through the real inbound path, after the
 * change), never by reading the server's rooms; and what is still allowed
 * keeps arriving.
 */

// Long enough for an event emitted together with one that arrived to reach a socket.
const QUIET_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Node {
  url: string;
  sockets: Socket[];
}

function nodeOf(app: App): Node {
  const address = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, sockets: [] };
}

/** Connects and waits for `ready`: from then on the socket is in every room it may hear. */
async function connect(node: Node, token: string): Promise<Socket> {
  const socket = io(node.url, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
  node.sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

function connectError(node: Node, token: string): Promise<Error & { data?: { status?: number } }> {
  const socket = io(node.url, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
  node.sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected')));
    socket.once('connect_error', resolve);
  });
}

/** Bodies of the customer messages a socket receives. */
function messagesSeenBy(socket: Socket, companyId: number): string[] {
  const bodies: string[] = [];
  socket.on(companyEvent(companyId, 'appMessage'), (payload: { message: { body: string } }) => bodies.push(payload.message.body));
  return bodies;
}

async function arrives(bodies: string[], body: string): Promise<void> {
  for (let waited = 0; !bodies.includes(body); waited += 25) {
    if (waited > 5000) throw new Error(`"${body}" never arrived (got ${JSON.stringify(bodies)})`);
    await sleep(25);
  }
}

function nextReady(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('ready', () => resolve()));
}

/** The server's last word before it closes the socket. */
function sessionEnd(socket: Socket, companyId: number): Promise<{ auth: AuthEventPayload; reason: string }> {
  return new Promise((resolve) => {
    let auth: AuthEventPayload | null = null;
    socket.on(companyEvent(companyId, 'auth'), (payload: AuthEventPayload) => (auth = payload));
    socket.once('disconnect', (reason) => resolve({ auth: auth as unknown as AuthEventPayload, reason }));
  });
}

/** A customer of the company, with a pending ticket in the queue (none: no queue). */
async function customer(t: TestContext, companyId: number, whatsappId: number, queueId: number | null) {
  const sd = createServiceDeskFactories(t.database.db);
  const contact = await sd.buildTicketContact(companyId);
  const ticket = await sd.buildTicket(companyId, { whatsappId, contactId: contact.id, queueId });
  let n = 0;
  return {
    ticket,
    /** A message from this customer through the real inbound path; answers its body. */
    async writes(app: App = t.app): Promise<string> {
      const body = `${contact.number} #${(n += 1)} ${randomBytes(3).toString('hex')}`;
      await ingestMessage(app.services, { channel: 'sandbox', companyId, whatsappId, externalId: `rights-${randomBytes(8).toString('hex')}`, from: contact.number, body });
      return body;
    },
  };
}

async function closeNode(node: Node): Promise<void> {
  for (const socket of node.sockets.splice(0)) socket.close();
}

describe('socket rights on one node', () => {
  let t: TestContext;
  let node: Node;
  let a: BuiltCompany;
  let adminToken: string;
  let witness: Socket;
  let seenByWitness: string[];
  let connectionId: number;

  beforeAll(async () => {
    t = await createTestContext({ realtime: true, listen: true });
    node = nodeOf(t.app);
    a = await t.factories.buildCompany();
    adminToken = (await a.admin.login()).token;
    connectionId = (await createServiceDeskFactories(t.database.db).buildConnection(a.id)).id;
    // The company's admin hears every customer message: proof that each event did go out.
    witness = await connect(node, adminToken);
    seenByWitness = messagesSeenBy(witness, a.id);
  });
  afterAll(async () => {
    await closeNode(node);
    await t.close();
  });

  it('a user removed from a queue stops hearing it (its rooms and a chat box it had open), other queues still arrive', async () => {
    const sales = await t.factories.buildQueue(a.id);
    const support = await t.factories.buildQueue(a.id);
    const agent = await t.factories.buildUser(a.id, { queueIds: [sales.id, support.id] });
    const salesCustomer = await customer(t, a.id, connectionId, sales.id);
    const supportCustomer = await customer(t, a.id, connectionId, support.id);
    const socket = await connect(node, (await agent.login()).token);
    const seen = messagesSeenBy(socket, a.id);
    expect(await socket.timeout(2000).emitWithAck('joinChatBox', salesCustomer.ticket.id)).toEqual({ ok: true });

    const before = await salesCustomer.writes();
    await arrives(seen, before);

    const resynced = nextReady(socket);
    expect((await t.request(adminToken, 'PUT', `/users/${agent.id}`, { queueIds: [support.id] })).statusCode).toBe(200);
    await resynced;

    const forbidden = await salesCustomer.writes();
    const allowed = await supportCustomer.writes();
    await arrives(seenByWitness, forbidden);
    await arrives(seen, allowed);
    await sleep(QUIET_MS);
    expect(seen).toEqual([before, allowed]);
    expect(socket.connected).toBe(true);
  });

  it('a demoted admin leaves the admins room: queues it is not in go quiet, tickets without a queue still arrive', async () => {
    const sales = await t.factories.buildQueue(a.id);
    const second = await t.factories.buildUser(a.id, { profile: 'admin' });
    const salesCustomer = await customer(t, a.id, connectionId, sales.id);
    const walkIn = await customer(t, a.id, connectionId, null);
    const socket = await connect(node, (await second.login()).token);
    const seen = messagesSeenBy(socket, a.id);

    const before = await salesCustomer.writes();
    await arrives(seen, before);

    const resynced = nextReady(socket);
    expect((await t.request(adminToken, 'PUT', `/users/${second.id}`, { profile: 'user' })).statusCode).toBe(200);
    await resynced;

    const forbidden = await salesCustomer.writes();
    const allowed = await walkIn.writes();
    await arrives(seenByWitness, forbidden);
    await arrives(seen, allowed);
    await sleep(QUIET_MS);
    expect(seen).toEqual([before, allowed]);
  });

  it('a user whose allTicket is turned off stops hearing pending tickets of queues it is not in', async () => {
    const sales = await t.factories.buildQueue(a.id);
    const agent = await t.factories.buildUser(a.id, { allTicket: 'enabled' });
    const salesCustomer = await customer(t, a.id, connectionId, sales.id);
    const walkIn = await customer(t, a.id, connectionId, null);
    const socket = await connect(node, (await agent.login()).token);
    const seen = messagesSeenBy(socket, a.id);
    const before = await salesCustomer.writes();
    await arrives(seen, before);

    const resynced = nextReady(socket);
    expect((await t.request(adminToken, 'PUT', `/users/${agent.id}`, { allTicket: 'desabled' })).statusCode).toBe(200);
    await resynced;

    const forbidden = await salesCustomer.writes();
    const allowed = await walkIn.writes();
    await arrives(seenByWitness, forbidden);
    await arrives(seen, allowed);
    await sleep(QUIET_MS);
    expect(seen).toEqual([before, allowed]);
  });

  it('a deleted user is told, disconnected, hears nothing more and cannot come back with its token', async () => {
    const walkIn = await customer(t, a.id, connectionId, null);
    const agent = await t.factories.buildUser(a.id);
    const token = (await agent.login()).token;
    const socket = await connect(node, token);
    const seen = messagesSeenBy(socket, a.id);
    const before = await walkIn.writes();
    await arrives(seen, before);

    const ended = sessionEnd(socket, a.id);
    expect((await t.request(adminToken, 'DELETE', `/users/${agent.id}`)).statusCode).toBe(200);
    expect(await ended).toEqual({ auth: { action: 'sessionEnded', reason: 'userDeleted' }, reason: 'io server disconnect' });

    const after = await walkIn.writes();
    await arrives(seenByWitness, after);
    await sleep(QUIET_MS);
    expect(seen).toEqual([before]);
    expect((await connectError(node, token)).data).toEqual({ status: 401 });
  });

  it('a password changed by an admin (token version bump) ends the socket', async () => {
    const walkIn = await customer(t, a.id, connectionId, null);
    const agent = await t.factories.buildUser(a.id);
    const token = (await agent.login()).token;
    const socket = await connect(node, token);
    const seen = messagesSeenBy(socket, a.id);

    const ended = sessionEnd(socket, a.id);
    expect((await t.request(adminToken, 'PUT', `/users/${agent.id}`, { password: 'Another123!' })).statusCode).toBe(200);
    expect(await ended).toEqual({ auth: { action: 'sessionEnded', reason: 'tokenRevoked' }, reason: 'io server disconnect' });

    const after = await walkIn.writes();
    await arrives(seenByWitness, after);
    await sleep(QUIET_MS);
    expect(seen).toEqual([]);
    expect((await connectError(node, token)).data).toEqual({ status: 401 });
  });

  it("a logout ends that sign-in's sockets at once; the user's other sign-in keeps hearing", async () => {
    const walkIn = await customer(t, a.id, connectionId, null);
    const agent = await t.factories.buildUser(a.id);
    const leaving = await agent.login();
    const staying = await agent.login();
    const socket = await connect(node, leaving.token);
    const other = await connect(node, staying.token);
    const seen = messagesSeenBy(socket, a.id);
    const seenByOther = messagesSeenBy(other, a.id);

    const ended = sessionEnd(socket, a.id);
    const out = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: `Bearer ${leaving.token}`, cookie: leaving.cookie } });
    expect(out.statusCode).toBe(204);
    expect(await ended).toEqual({ auth: { action: 'sessionEnded', reason: 'loggedOut' }, reason: 'io server disconnect' });

    const after = await walkIn.writes();
    await arrives(seenByOther, after);
    await sleep(QUIET_MS);
    expect(seen).toEqual([]);
    expect(other.connected).toBe(true);
    expect((await connectError(node, leaving.token)).data).toEqual({ status: 401 });
  });

  it("a deactivated company's sockets end, hear nothing more, and its users cannot connect again", async () => {
    const c = await t.factories.buildCompany();
    const cConnection = (await createServiceDeskFactories(t.database.db).buildConnection(c.id)).id;
    const walkIn = await customer(t, c.id, cConnection, null);
    const agent = await t.factories.buildUser(c.id);
    const cAdminToken = (await c.admin.login()).token;
    const agentToken = (await agent.login()).token;
    const cAdmin = await connect(node, cAdminToken);
    const cAgent = await connect(node, agentToken);
    const seenByAdmin = messagesSeenBy(cAdmin, c.id);
    const seenByAgent = messagesSeenBy(cAgent, c.id);
    const before = await walkIn.writes();
    await arrives(seenByAgent, before);

    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    const endings = [sessionEnd(cAdmin, c.id), sessionEnd(cAgent, c.id)];
    expect((await t.request(superToken, 'PUT', `/companies/${c.id}`, { status: false })).statusCode).toBe(200);
    for (const ending of await Promise.all(endings)) {
      expect(ending).toEqual({ auth: { action: 'sessionEnded', reason: 'companyInactive' }, reason: 'io server disconnect' });
    }

    // Nobody of company C is connected now: the event's going out is seen on the event bus.
    const published = new Promise<void>((resolve) =>
      t.app.services.events.on('message.created', ({ companyId }) => {
        if (companyId === c.id) resolve();
      }),
    );
    await walkIn.writes();
    await published;
    await sleep(QUIET_MS);
    expect(seenByAdmin).toEqual([before]);
    expect(seenByAgent).toEqual([before]);
    expect((await connectError(node, agentToken)).data).toEqual({ status: 401 });
    // Company A is not touched.
    expect(witness.connected).toBe(true);
  });
});

describe('socket rights: access token expiry', () => {
  let t: TestContext;
  let node: Node;

  beforeAll(async () => {
    t = await createTestContext({ realtime: true, listen: true, env: { ACCESS_TOKEN_TTL_SECONDS: '3' } });
    node = nodeOf(t.app);
  });
  afterAll(async () => {
    await closeNode(node);
    await t.close();
  });

  it('ends a socket when its token expires unless the client sent a fresh one, which keeps it hearing', async () => {
    const a = await t.factories.buildCompany();
    const connectionId = (await createServiceDeskFactories(t.database.db).buildConnection(a.id)).id;
    const walkIn = await customer(t, a.id, connectionId, null);
    const agent = await t.factories.buildUser(a.id);
    const other = await t.factories.buildUser(a.id);
    const { token, cookie } = await agent.login();
    const stale = await connect(node, token);
    const refreshed = await connect(node, token);
    const seenByStale = messagesSeenBy(stale, a.id);
    const seenByRefreshed = messagesSeenBy(refreshed, a.id);
    const staleEnded = sessionEnd(stale, a.id);

    // A token of the next second expires at least a second later than the first one.
    await sleep(1100);
    const refresh = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } });
    expect(refresh.statusCode).toBe(200);
    const fresh = refresh.json<{ token: string }>().token;
    expect(await refreshed.timeout(2000).emitWithAck('updateToken', 'not-a-token')).toEqual({ ok: false, error: 'ERR_SESSION_EXPIRED' });
    // Another user's valid token does not make this socket theirs.
    expect(await refreshed.timeout(2000).emitWithAck('updateToken', (await other.login()).token)).toEqual({ ok: false, error: 'ERR_SESSION_EXPIRED' });
    expect(await refreshed.timeout(2000).emitWithAck('updateToken', fresh)).toEqual({ ok: true });

    expect(await staleEnded).toEqual({ auth: { action: 'sessionEnded', reason: 'tokenExpired' }, reason: 'io server disconnect' });
    const after = await walkIn.writes();
    await arrives(seenByRefreshed, after);
    await sleep(QUIET_MS);
    expect(seenByStale).toEqual([]);
    expect(refreshed.connected).toBe(true);
  });
});

/**
 * Two app instances on one database and one Redis (streams adapter for events,
 * pub/sub for access changes): the change is made on node A, the socket is on
 * node B, the live event is published by node A.
 */
describe.runIf(usePostgres || process.env.REDIS_URL)('socket rights across two nodes', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `atende-test-${randomBytes(6).toString('hex')}`;
  let t: TestContext;
  let nodeB: App;
  let b: Node;
  let a: BuiltCompany;
  let adminToken: string;
  let connectionId: number;
  let seenByWitness: string[];

  beforeAll(async () => {
    t = await createTestContext({ realtime: true, listen: true, env: { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } });
    nodeB = await buildApp({ config: t.config, database: t.database, realtime: true, serveWeb: false, jobs: createManualJobs() });
    await nodeB.listen({ port: 0, host: '127.0.0.1' });
    b = nodeOf(nodeB);
    a = await t.factories.buildCompany();
    adminToken = (await a.admin.login()).token;
    connectionId = (await createServiceDeskFactories(t.database.db).buildConnection(a.id)).id;
    seenByWitness = messagesSeenBy(await connect(b, adminToken), a.id);
  });
  afterAll(async () => {
    await closeNode(b);
    await nodeB.close();
    await t.close();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    await redis.del(`${prefix}:socket.io`);
    await redis.close();
  });

  it('a queue removed on node A silences that queue on node B, other queues still arrive', async () => {
    const sales = await t.factories.buildQueue(a.id);
    const support = await t.factories.buildQueue(a.id);
    const agent = await t.factories.buildUser(a.id, { queueIds: [sales.id, support.id] });
    const salesCustomer = await customer(t, a.id, connectionId, sales.id);
    const supportCustomer = await customer(t, a.id, connectionId, support.id);
    const socket = await connect(b, (await agent.login()).token);
    const seen = messagesSeenBy(socket, a.id);
    const before = await salesCustomer.writes();
    await arrives(seen, before);

    const resynced = nextReady(socket);
    expect((await t.request(adminToken, 'PUT', `/users/${agent.id}`, { queueIds: [support.id] })).statusCode).toBe(200);
    await resynced;

    const forbidden = await salesCustomer.writes();
    const allowed = await supportCustomer.writes();
    await arrives(seenByWitness, forbidden);
    await arrives(seen, allowed);
    await sleep(QUIET_MS);
    expect(seen).toEqual([before, allowed]);
  });

  it('a user deleted on node A is disconnected on node B and hears nothing more', async () => {
    const walkIn = await customer(t, a.id, connectionId, null);
    const agent = await t.factories.buildUser(a.id);
    const socket = await connect(b, (await agent.login()).token);
    const seen = messagesSeenBy(socket, a.id);
    const ended = sessionEnd(socket, a.id);
    expect((await t.request(adminToken, 'DELETE', `/users/${agent.id}`)).statusCode).toBe(200);
    expect(await ended).toEqual({ auth: { action: 'sessionEnded', reason: 'userDeleted' }, reason: 'io server disconnect' });

    const after = await walkIn.writes();
    await arrives(seenByWitness, after);
    await sleep(QUIET_MS);
    expect(seen).toEqual([]);
  });

  it('a logout on node A ends that sign-in on node B at once: its socket and its access token', async () => {
    const agent = await t.factories.buildUser(a.id);
    const session = await agent.login();
    const socket = await connect(b, session.token);
    // Node B has seen the sign-in open (its per-node cache would keep saying so for seconds).
    expect((await nodeB.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${session.token}` } })).statusCode).toBe(200);
    const ended = sessionEnd(socket, a.id);
    const out = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: `Bearer ${session.token}`, cookie: session.cookie } });
    expect(out.statusCode).toBe(204);
    expect(await ended).toEqual({ auth: { action: 'sessionEnded', reason: 'loggedOut' }, reason: 'io server disconnect' });
    expect((await nodeB.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${session.token}` } })).statusCode).toBe(401);
  });
});
