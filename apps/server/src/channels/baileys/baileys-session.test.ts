import { DisconnectReason, type WASocket } from 'baileys';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baileysAuthKeys, whatsapps } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import type { BuiltCompany } from '../../test/factories.js';
import { startFakeWaWebSocket, type FakeWaWebSocket } from '../../test/fake-wa-websocket.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { hasPairedCreds } from './baileys-auth-state.js';
import { startBaileysSession, type BaileysSession, type BaileysSessionOptions } from './baileys-session.js';

let t: ChannelTestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let ws: FakeWaWebSocket;
const sessions: BaileysSession[] = [];
/** `company-{id}-whatsappSession` payloads, as the admins' sockets get them. */
const announced: { whatsappId: number; status: string; qrcode: string }[] = [];

beforeAll(async () => {
  t = await createChannelTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  ws = await startFakeWaWebSocket('hold');
  t.app.services.events.on('connection.session', ({ connection }) => {
    announced.push({ whatsappId: connection.id, status: connection.status, qrcode: connection.qrcode });
  });
});
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.stop('release');
  ws.mode = 'hold';
});
afterAll(async () => {
  await t?.close();
  await ws?.close();
});

async function newConnection() {
  // As the API leaves it when asking for a session (a DISCONNECTED row means the user stopped it).
  const row = await sd.buildConnection(company.id, { provider: 'beta', status: 'OPENING', isDefault: false });
  return { companyId: company.id, whatsappId: row.id };
}

async function start(ref: { companyId: number; whatsappId: number }, options: Partial<BaileysSessionOptions> = {}) {
  const session = await startBaileysSession(t.app.services, {
    ref,
    hub: t.app.services.channels.baileysSessions,
    leaseNodeId: null,
    options: { waWebSocketUrl: ws.url, connectTimeoutMs: 60_000, reconnectBaseMs: 20, reconnectMaxMs: 100, ...options },
  });
  sessions.push(session);
  return session;
}

async function row(whatsappId: number) {
  const [found] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
  if (!found) throw new Error('connection gone');
  return found;
}

function socketOf(session: BaileysSession): WASocket {
  const socket = session.currentSocket();
  if (!socket) throw new Error('no socket');
  return socket;
}

function emit(session: BaileysSession, ...args: Parameters<WASocket['ev']['emit']>) {
  socketOf(session).ev.emit(...args);
  return session.idle();
}

const boom = (statusCode: number) => Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } });

describe('Baileys session statuses', () => {
  it('connects to the WebSocket endpoint it is given, OPENING; an unpaired session whose attempts keep failing ends DISCONNECTED', async () => {
    ws.mode = 'close';
    const ref = await newConnection();
    const before = ws.attempts;
    const session = await start(ref, { unpairedAttempts: 3 });
    // The session is forgotten once its last status is written.
    await waitUntil(() => session.ended && !t.app.services.channels.baileysSessions.has(ref.whatsappId), 10_000, 'session ended');
    expect(ws.attempts - before).toBe(3);
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    const statuses = announced.filter((a) => a.whatsappId === ref.whatsappId).map((a) => a.status);
    expect(statuses[0]).toBe('OPENING');
    expect(statuses.at(-1)).toBe('DISCONNECTED');
    expect(t.app.services.channels.baileysSessions.has(ref.whatsappId)).toBe(false);
  });

  it('pushes each QR code live (qrcode status, retries counted) and gives up DISCONNECTED after too many without a scan', async () => {
    const ref = await newConnection();
    const session = await start(ref, { maxQrCodes: 3 });
    await ws.waitForAttempts(1);
    expect((await row(ref.whatsappId)).status).toBe('OPENING');
    await emit(session, 'connection.update', { qr: '2@first-qr' });
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'qrcode', qrcode: '2@first-qr', retries: 1 });
    expect(announced.at(-1)).toEqual({ whatsappId: ref.whatsappId, status: 'qrcode', qrcode: '2@first-qr' });
    await emit(session, 'connection.update', { qr: '2@second-qr' });
    await emit(session, 'connection.update', { qr: '2@third-qr' });
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'qrcode', qrcode: '2@third-qr', retries: 3 });
    await emit(session, 'connection.update', { qr: '2@fourth-qr' });
    // The dialog closes when the QR code empties.
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'DISCONNECTED', qrcode: '', retries: 0 });
    expect(session.ended).toBe(true);
  });

  it('QR scanned → PAIRING → CONNECTED with the number; the credentials are stored; a logout from the phone clears them', async () => {
    const ref = await newConnection();
    const session = await start(ref);
    await emit(session, 'connection.update', { qr: '2@pair-me' });
    await emit(session, 'creds.update', { me: { id: '5511940001111:3@s.whatsapp.net', name: 'Loja' } });
    await emit(session, 'connection.update', { isNewLogin: true, qr: undefined });
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'PAIRING', qrcode: '' });
    expect(await hasPairedCreds(t.database.db, ref)).toBe(true);
    await emit(session, 'connection.update', { connection: 'open' });
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'CONNECTED', number: '5511940001111', qrcode: '' });
    expect(session.openSocket()).not.toBeNull();

    await emit(session, 'connection.update', { connection: 'close', lastDisconnect: { error: boom(DisconnectReason.loggedOut), date: new Date() } });
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'DISCONNECTED', number: '' });
    expect(await t.database.db.select().from(baileysAuthKeys).where(eq(baileysAuthKeys.whatsappId, ref.whatsappId))).toEqual([]);
  });

  it('a transient drop reconnects with backoff and keeps the pairing; repeated failures show TIMEOUT; a restart resumes without a QR code', async () => {
    const ref = await newConnection();
    const session = await start(ref, { attemptsBeforeTimeout: 2 });
    await emit(session, 'creds.update', { me: { id: '5511940002222:3@s.whatsapp.net' } });
    await emit(session, 'connection.update', { connection: 'open' });
    expect((await row(ref.whatsappId)).status).toBe('CONNECTED');

    ws.mode = 'close';
    const before = ws.attempts;
    await emit(session, 'connection.update', { connection: 'close', lastDisconnect: { error: boom(DisconnectReason.connectionLost), date: new Date() } });
    await waitUntil(async () => (await row(ref.whatsappId)).status === 'TIMEOUT', 10_000, 'TIMEOUT');
    expect(ws.attempts).toBeGreaterThan(before);
    expect(await hasPairedCreds(t.database.db, ref)).toBe(true);
    expect(session.ended).toBe(false);

    // Node restart: a new session loads the stored credentials and logs in rather than asking for a QR code.
    await session.stop('release');
    ws.mode = 'hold';
    const resumed = await start(ref);
    expect(socketOf(resumed).authState.creds.me?.id).toBe('5511940002222:3@s.whatsapp.net');
    expect(await row(ref.whatsappId)).toMatchObject({ status: 'OPENING', qrcode: '' });
  });

  it('stop("logout") forgets the pairing; stop("release") keeps it', async () => {
    const ref = await newConnection();
    const first = await start(ref);
    await emit(first, 'creds.update', { me: { id: '5511940003333:1@s.whatsapp.net' } });
    await first.stop('release');
    expect(await hasPairedCreds(t.database.db, ref)).toBe(true);
    const second = await start(ref);
    await second.stop('logout');
    expect(await hasPairedCreds(t.database.db, ref)).toBe(false);
  });
});
