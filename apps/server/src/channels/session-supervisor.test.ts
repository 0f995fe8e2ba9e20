import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelLeases, whatsapps } from '../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../test/channel-test-app.js';
import type { BuiltCompany } from '../test/factories.js';
import { startFakeWaWebSocket, type FakeWaWebSocket } from '../test/fake-wa-websocket.js';
import { createServiceDeskFactories } from '../test/service-desk-factories.js';
import { createChannelsService } from './channels-service.js';
import { writeSessionState } from '../modules/connections/connection-state.js';
import { requestSessionStart, requestSessionStop } from './session-control.js';
import { createSessionSupervisor, type SessionSupervisor, type StopMode } from './session-supervisor.js';

let t: ChannelTestContext;
let company: BuiltCompany;
let sd: ReturnType<typeof createServiceDeskFactories>;
const supervisors: SessionSupervisor[] = [];
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Event {
  node: string;
  whatsappId: number;
  kind: 'start' | StopMode;
  reset?: boolean;
  at: number;
}
const events: Event[] = [];

/** Two "nodes" in one process: supervisors on the same database whose sessions only record what happens to them. */
function node(name: string, leaseMs = 800) {
  const supervisor = createSessionSupervisor({
    db: t.database.db,
    nodeId: name,
    logger: silent,
    leaseMs,
    tickMs: 100,
    async startSession({ connection, reset }) {
      events.push({ node: name, whatsappId: connection.id, kind: 'start', reset, at: Date.now() });
      return {
        ended: false,
        async stop(mode) {
          events.push({ node: name, whatsappId: connection.id, kind: mode, at: Date.now() });
        },
      };
    },
  });
  supervisors.push(supervisor);
  return supervisor;
}

async function connection() {
  const row = await sd.buildConnection(company.id, { provider: 'beta', status: 'OPENING', isDefault: false });
  return row.id;
}

const eventsOf = (whatsappId: number) => events.filter((e) => e.whatsappId === whatsappId).map((e) => `${e.node}:${e.kind}${e.reset ? ':reset' : ''}`);

beforeAll(async () => {
  t = await createChannelTestContext();
  company = await t.factories.buildCompany();
  sd = createServiceDeskFactories(t.database.db);
});
afterEach(async () => {
  for (const supervisor of supervisors.splice(0)) await supervisor.stop();
});
afterAll(() => t?.close());

describe('session supervisor', () => {
  it('runs each session on exactly one node, and another node takes it over once the first dies', async () => {
    const id = await connection();
    const a = node('node-a');
    const b = node('node-b');
    await a.start();
    await b.start();
    await b.settle();
    expect(a.running()).toContain(id);
    expect(b.running()).not.toContain(id);
    const [lease] = await t.database.db.select().from(channelLeases).where(eq(channelLeases.whatsappId, id));
    expect(lease?.nodeId).toBe('node-a');

    const crashedAt = Date.now();
    await a.crash();
    await waitUntil(() => b.running().includes(id), 5000, 'takeover');
    const takeover = events.find((e) => e.whatsappId === id && e.node === 'node-b' && e.kind === 'start');
    // Not before the dead node's lease ran out.
    expect((takeover?.at ?? 0) - crashedAt).toBeGreaterThanOrEqual(500);
    expect(eventsOf(id)).toEqual(['node-a:start', 'node-a:release', 'node-b:start']);
    const [moved] = await t.database.db.select().from(channelLeases).where(eq(channelLeases.whatsappId, id));
    expect(moved?.nodeId).toBe('node-b');
  });

  it('a graceful stop releases the lease so another node takes over at once', async () => {
    const id = await connection();
    const a = node('node-c', 60_000);
    const b = node('node-d', 60_000);
    await a.start();
    await b.start();
    expect(a.running()).toContain(id);
    await a.stop();
    await b.settle();
    expect(b.running()).toContain(id);
  });

  it('stops a session when its connection is deleted, logs it out when disconnected, restarts it on retry or new QR', async () => {
    const a = node('node-e');
    const disconnected = await connection();
    const renewed = await connection();
    const deleted = await connection();
    await a.start();
    expect(a.running()).toEqual(expect.arrayContaining([disconnected, renewed, deleted]));

    await t.database.db.delete(whatsapps).where(eq(whatsapps.id, deleted));
    await requestSessionStop(t.app.services, { companyId: company.id, whatsappId: disconnected });
    await requestSessionStart(t.app.services, { companyId: company.id, whatsappId: renewed }, { reset: true });
    await a.settle();

    expect(eventsOf(deleted)).toEqual(['node-e:start', 'node-e:release']);
    expect(eventsOf(disconnected)).toEqual(['node-e:start', 'node-e:logout']);
    expect(eventsOf(renewed)).toEqual(['node-e:start', 'node-e:release', 'node-e:start:reset']);
    expect(a.running()).toEqual(expect.arrayContaining([renewed]));
    expect(a.running()).not.toContain(disconnected);
    // A disconnected session's lease is given back: nobody runs it until asked again.
    expect(await t.database.db.select().from(channelLeases).where(eq(channelLeases.whatsappId, disconnected))).toEqual([]);

    await requestSessionStart(t.app.services, { companyId: company.id, whatsappId: disconnected }, { reset: false });
    await a.settle();
    expect(eventsOf(disconnected).at(-1)).toBe('node-e:start');
  });
});

describe('channels service with real Baileys sessions', () => {
  let ws: FakeWaWebSocket;
  beforeAll(async () => {
    ws = await startFakeWaWebSocket('hold');
  });
  afterAll(() => ws?.close());

  it('node B opens the WhatsApp socket once node A dies, and its status writes count while A’s no longer do', async () => {
    const id = await connection();
    const options = { leaseMs: 800, tickMs: 100, session: { waWebSocketUrl: ws.url, connectTimeoutMs: 60_000 } };
    const a = createChannelsService(t.app.services, { ...options, nodeId: 'real-a' });
    const b = createChannelsService(t.app.services, { ...options, nodeId: 'real-b' });
    supervisors.push(a, b);
    const before = ws.attempts;
    await a.start();
    await b.start();
    await b.settle();
    await ws.waitForAttempts(before + 1);
    expect(a.running()).toContain(id);
    expect(t.app.services.channels.baileysSessions.has(id)).toBe(true);

    await a.crash();
    await waitUntil(() => b.running().includes(id), 5000, 'takeover');
    await ws.waitForAttempts(before + 2);
    const [row] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, id));
    expect(row?.status).toBe('OPENING');
    // A stalled node that comes back cannot overwrite what the holder reports.
    const ref = { companyId: company.id, whatsappId: id };
    expect(await writeSessionState(t.app.services, ref, { status: 'CONNECTED' }, { leaseNodeId: 'real-a', fromSession: true })).toBeNull();
    expect(await writeSessionState(t.app.services, ref, { status: 'qrcode', qrcode: '2@b' }, { leaseNodeId: 'real-b', fromSession: true })).not.toBeNull();
  });
});
