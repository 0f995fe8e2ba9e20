import type { WASocket } from 'baileys';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { channelLeases, type WhatsappRow } from '../../platform/db/schema.js';
import { createChannelTestContext, type ChannelTestContext } from '../../test/channel-test-app.js';
import type { BuiltCompany } from '../../test/factories.js';
import { startFakeWaWebSocket, type FakeWaWebSocket } from '../../test/fake-wa-websocket.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { testConfig } from '../../test/test-app.js';
import { claimLease } from '../channel-leases.repo.js';
import { startBaileysSession, type BaileysSession } from './baileys-session.js';
import { createManualJobs } from '../../test/manual-jobs.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CUSTOMER = '5511988887777';

/**
 * Two nodes on one database and one Redis: node A holds the connection's Baileys
 * session (a real session on a local WhatsApp Web endpoint; its sends are
 * recorded, WhatsApp's servers not being here), node B has no session and serves
 * the agent's HTTP calls. B's calls reach A's session through the relay.
 */
describe.runIf(process.env.TEST_DATABASE === 'postgres')('Baileys calls from a node without the session (relay)', () => {
  let t: ChannelTestContext;
  let nodeB: App;
  let company: BuiltCompany;
  let connection: WhatsappRow;
  let ws: FakeWaWebSocket;
  let session: BaileysSession;
  let socket: WASocket;
  const sent: { jid: string; content: unknown }[] = [];
  const nodeA = `node-a-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    t = await createChannelTestContext({ env: { REDIS_URL } });
    nodeB = await buildApp({ config: testConfig({ REDIS_URL }), database: t.database, realtime: false, serveWeb: false, jobs: createManualJobs() });
    await nodeB.ready();
    company = await t.factories.buildCompany();
    const sd = createServiceDeskFactories(t.database.db);
    connection = await sd.buildConnection(company.id, { provider: 'beta', status: 'OPENING' });
    await sd.buildContact(company.id, { number: CUSTOMER, name: 'Joana' });

    ws = await startFakeWaWebSocket('hold');
    session = await startBaileysSession(t.app.services, {
      ref: { companyId: company.id, whatsappId: connection.id },
      hub: t.app.services.channels.baileysSessions,
      leaseNodeId: null,
      options: { waWebSocketUrl: ws.url, connectTimeoutMs: 120_000 },
    });
    const current = session.currentSocket();
    if (!current) throw new Error('no socket');
    socket = current;
    socket.sendMessage = async (jid, content) => {
      sent.push({ jid, content });
      return { key: { remoteJid: jid, fromMe: true, id: `RELAYED-${sent.length}` }, message: {} };
    };
    socket.readMessages = async (keys) => {
      sent.push({ jid: keys[0]?.remoteJid ?? '', content: { read: keys.map((k) => k.id) } });
    };
    socket.onWhatsApp = async (...numbers) => {
      if (numbers.some((n) => n.endsWith('5555'))) throw new Error('query timed out');
      return numbers.map((n) => ({ jid: `${n.replace(/\D/g, '')}@s.whatsapp.net`, exists: true }));
    };
    await new Promise((resolve) => setImmediate(resolve));
    socket.ev.emit('creds.update', { me: { id: '5511940000000:2@s.whatsapp.net' } });
    socket.ev.emit('connection.update', { connection: 'open' });
    await session.idle();

    await t.app.services.channels.serveRelay(nodeA);
    expect(await claimLease(t.database.db, { whatsappId: connection.id, companyId: company.id, nodeId: nodeA, ttlMs: 60_000 })).toBe(true);
  }, 30_000);

  afterAll(async () => {
    await session?.stop('release');
    await nodeB?.close();
    await t?.close();
    await ws?.close();
  });

  const providerOnB = () => nodeB.services.channels.providerFor(connection);

  it('sends, reads and checks numbers through the session on the other node', async () => {
    expect(nodeB.services.channels.baileysSessions.has(connection.id)).toBe(false);
    const result = await providerOnB().send(connection, { to: CUSTOMER, body: 'Olá, Joana' });
    expect(result).toEqual({ externalId: `RELAYED-${sent.length}`, ack: 1 });
    expect(sent.at(-1)).toEqual({ jid: `${CUSTOMER}@s.whatsapp.net`, content: { text: 'Olá, Joana' } });

    await providerOnB().markRead(connection, CUSTOMER, ['IN-1', 'IN-2']);
    expect(sent.at(-1)).toEqual({ jid: `${CUSTOMER}@s.whatsapp.net`, content: { read: ['IN-1', 'IN-2'] } });

    expect(await providerOnB().checkNumber(connection, '+55 11 97777-6666')).toEqual({ exists: true, number: '5511977776666' });
  });

  it("brings the holder's error back with its code", async () => {
    await expect(providerOnB().checkNumber(connection, '5511900005555')).rejects.toMatchObject({ code: 'ERR_WAPP_CHECK_CONTACT' });
  });

  it('answers ERR_WAPP_NOT_INITIALIZED when no live node holds the session', async () => {
    await t.database.db.update(channelLeases).set({ nodeId: 'node-that-died' }).where(eq(channelLeases.whatsappId, connection.id));
    await expect(providerOnB().send(connection, { to: CUSTOMER, body: 'perdida' })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await t.database.db.delete(channelLeases).where(eq(channelLeases.whatsappId, connection.id));
    await expect(providerOnB().send(connection, { to: CUSTOMER, body: 'perdida' })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(sent.some((entry) => JSON.stringify(entry.content).includes('perdida'))).toBe(false);
  });
});
