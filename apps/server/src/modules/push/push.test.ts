import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { PushPayload, PushSettings } from '@atende/shared';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualJobs } from '../../test/manual-jobs.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { ALLOW_LOOPBACK_PEERS, createTestContext, type TestContext } from '../../test/test-app.js';
import { loadMessageDetails } from '../messages/messages.repo.js';
import { findTicketDetail } from '../tickets/tickets.repo.js';

/**
 * Web Push against a real push endpoint: a local HTTP server in the test plays the push
 * service. It receives the encrypted POST, checks the VAPID token's signature with the
 * server's public key, and decrypts the aes128gcm body with the browser keys the test made,
 * the way a browser would (RFC 8291 from the receiving side).
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A browser: its key pair and auth secret, and the subscription it would send. */
interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string }; language?: string };
}

let t: TestContext;
let jobs: ManualJobs;
let pushService: Server;
let pushBase = '';
const received: Received[] = [];
/** Paths the fake push service answers with this status instead of 201. */
const answers = new Map<string, number>();

function browser(name: string, language?: string): Browser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${pushBase}/send/${name}-${randomBytes(4).toString('hex')}`;
  return { ecdh, auth, endpoint, subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') }, ...(language ? { language } : {}) } };
}

/** What the browser's push client does with a message: RFC 8291 key schedule, then AES-128-GCM. */
function decrypt(target: Browser, body: Buffer): PushPayload {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + keyLength);
  const ciphertext = body.subarray(21 + keyLength);
  expect(recordSize).toBeGreaterThanOrEqual(ciphertext.length);
  const uaPublic = target.ecdh.getPublicKey();
  const secret = target.ecdh.computeSecret(asPublic);
  const ikm = Buffer.from(hkdfSync('sha256', secret, target.auth, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]), 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then only zero padding.
  const delimiter = padded.lastIndexOf(2);
  expect(padded.subarray(delimiter + 1).every((byte) => byte === 0)).toBe(true);
  return JSON.parse(padded.subarray(0, delimiter).toString('utf8')) as PushPayload;
}

/** Checks the VAPID header as a push service does (RFC 8292): the token is signed by the key it names, for this origin, not expired. */
async function checkVapid(headers: IncomingHttpHeaders): Promise<{ sub: string }> {
  const match = /^vapid t=([\w.-]+), k=([\w-]+)$/.exec(headers.authorization ?? '');
  expect(match, `authorization: ${headers.authorization}`).not.toBeNull();
  const [, token = '', key = ''] = match ?? [];
  expect(key).toBe(t.config.vapid.publicKey);
  const point = Buffer.from(key, 'base64url');
  const publicKey = await importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256');
  const { payload, protectedHeader } = await jwtVerify(token, publicKey, { audience: pushBase });
  expect(protectedHeader.alg).toBe('ES256');
  expect((payload.exp ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);
  return { sub: String(payload.sub) };
}

async function subscribe(token: string, target: Browser): Promise<PushSettings> {
  const response = await t.request(token, 'POST', '/push/subscriptions', target.subscription);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PushSettings>();
}

/** Waits for the event's job to be queued, then runs it (the delivery job waits a moment after a customer's message). */
async function deliver(expectJob = true): Promise<void> {
  for (let i = 0; i < 100 && jobs.pending('push.deliver').length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(jobs.pending('push.deliver').length, 'queued push jobs').toBe(expectJob ? 1 : 0);
  await jobs.runDue(new Date(Date.now() + 60_000));
}

function messagesTo(target: Browser): Received[] {
  return received.filter((entry) => `${pushBase}${entry.path}` === target.endpoint);
}

/** A customer's message stored in the ticket, told as the ingest tells it. */
async function customerWrites(companyId: number, ticketId: number, body: string): Promise<void> {
  const ticketRow = await findTicketDetail(t.database.db, { companyId }, ticketId);
  if (!ticketRow) throw new Error('no ticket');
  const row = await createServiceDeskFactories(t.database.db).buildMessage(ticketRow, { body, fromMe: false });
  const [message] = await loadMessageDetails(t.database.db, { companyId }, [row.id]);
  t.app.services.events.emit('message.created', { companyId, ticket: ticketRow, message: message! });
}

beforeAll(async () => {
  pushService = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushBase = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  t = await createTestContext({ env: { ...ALLOW_LOOPBACK_PEERS } });
  jobs = t.app.services.jobs as ManualJobs;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => pushService?.close(resolve));
});

describe('push notifications', () => {
  it('keeps its VAPID key in DATA_DIR and gives browsers the public half', async () => {
    const secrets = path.join(t.config.DATA_DIR, 'secrets.json');
    expect(existsSync(secrets)).toBe(true);
    expect(JSON.parse(readFileSync(secrets, 'utf8')).VAPID_PRIVATE_KEY).toBe(t.config.vapid.privateKey);
    const company = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    const response = await t.request(token, 'GET', '/push/vapid-public-key');
    expect(response.json()).toEqual({ publicKey: t.config.vapid.publicKey });
    expect(Buffer.from(t.config.vapid.publicKey, 'base64url')).toHaveLength(65);
  });

  it("tells a chat's other members, encrypted for each browser and signed with the VAPID key, never the sender", async () => {
    const company = await t.factories.buildCompany({ plan: { useInternalChat: true } });
    const agent = await t.factories.buildUser(company.id, { name: 'Bruna Agent' });
    const admin = await company.admin.login();
    const agentSession = await agent.login();
    const agentPhone = browser('agent-phone');
    const agentLaptop = browser('agent-laptop', 'en');
    const adminBrowser = browser('admin');
    await subscribe(agentSession.token, agentPhone);
    expect((await subscribe(agentSession.token, agentLaptop)).devices).toBe(2);
    await subscribe(admin.token, adminBrowser);

    const chat = await t.request(admin.token, 'POST', '/chats', { title: 'Plantão', users: [{ id: agent.id }] });
    expect(chat.statusCode, chat.body).toBe(201);
    const { id: chatId, uuid } = chat.json<{ id: number; uuid: string }>();
    jobs.queue.length = 0;
    const sent = await t.request(admin.token, 'POST', `/chats/${chatId}/messages`, { message: 'Reunião às 15h na sala 2' });
    expect(sent.statusCode, sent.body).toBe(201);
    await deliver();

    expect(messagesTo(adminBrowser)).toHaveLength(0);
    for (const [target, title] of [
      [agentPhone, `${(await t.request(admin.token, 'GET', '/auth/me')).json<{ name: string }>().name} em Plantão`],
      [agentLaptop, `${(await t.request(admin.token, 'GET', '/auth/me')).json<{ name: string }>().name} in Plantão`],
    ] as const) {
      const [message] = messagesTo(target);
      expect(message, target.endpoint).toBeDefined();
      expect(message!.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(message!.headers.ttl)).toBeGreaterThan(0);
      expect(message!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      expect((await checkVapid(message!.headers)).sub).toMatch(/^mailto:/);
      expect(decrypt(target, message!.body)).toEqual({ kind: 'chatMessages', title, body: 'Reunião às 15h na sala 2', url: `/chats/${uuid}`, tag: `chat-${uuid}` });
    }
  });

  it("tells a ticket's agent of the customer's message, as the user's setting allows", async () => {
    const company = await t.factories.buildCompany();
    const agent = await t.factories.buildUser(company.id, { language: 'es' });
    const { token } = await agent.login();
    const target = browser('ticket-agent', 'pt');
    await subscribe(token, target);
    const sd = createServiceDeskFactories(t.database.db);
    const contact = await sd.buildContact(company.id, { name: 'Carla Cliente' });
    const ticket = await sd.buildTicket(company.id, { contactId: contact.id, status: 'open', userId: agent.id });

    jobs.queue.length = 0;
    await customerWrites(company.id, ticket.id, 'Olá, meu pedido chegou quebrado');
    await deliver();
    const [first] = messagesTo(target);
    // The user's own language wins over the page's.
    expect(decrypt(target, first!.body)).toEqual({
      kind: 'ticketMessages',
      title: 'Nuevo mensaje de Carla Cliente',
      body: 'Olá, meu pedido chegou quebrado',
      url: `/tickets/${ticket.uuid}`,
      tag: `ticket-${ticket.uuid}`,
    });

    const off = await t.request(token, 'PUT', '/push/settings', { ticketMessages: false });
    expect(off.json()).toEqual({ newTickets: true, ticketMessages: false, chatMessages: true, devices: 1 });
    await customerWrites(company.id, ticket.id, 'Alguém aí?');
    await deliver();
    expect(messagesTo(target)).toHaveLength(1);
    expect((await t.request(token, 'GET', '/push/settings')).json()).toMatchObject({ ticketMessages: false });
  });

  it("tells the queue's agents and the admins of a new waiting ticket, not the agents of other queues, and not while the bot has it", async () => {
    const company = await t.factories.buildCompany();
    const sales = await t.factories.buildQueue(company.id, { name: 'Vendas' });
    const support = await t.factories.buildQueue(company.id, { name: 'Suporte' });
    const seller = await t.factories.buildUser(company.id, { queueIds: [sales.id] });
    const supporter = await t.factories.buildUser(company.id, { queueIds: [support.id] });
    const sellerBrowser = browser('seller');
    const supporterBrowser = browser('supporter');
    const adminBrowser = browser('waiting-admin');
    await subscribe((await seller.login()).token, sellerBrowser);
    await subscribe((await supporter.login()).token, supporterBrowser);
    await subscribe((await company.admin.login()).token, adminBrowser);
    const sd = createServiceDeskFactories(t.database.db);
    const contact = await sd.buildContact(company.id, { name: 'Davi' });
    const ticket = await sd.buildTicket(company.id, { contactId: contact.id, status: 'pending', queueId: sales.id, chatbot: true });

    jobs.queue.length = 0;
    await customerWrites(company.id, ticket.id, '1');
    await deliver();
    expect(received.filter((entry) => [sellerBrowser, supporterBrowser, adminBrowser].some((b) => `${pushBase}${entry.path}` === b.endpoint))).toHaveLength(0);

    await t.database.db.execute(`update tickets set chatbot = false where id = ${ticket.id}`);
    await customerWrites(company.id, ticket.id, 'Quero comprar');
    await deliver();
    expect(messagesTo(supporterBrowser)).toHaveLength(0);
    for (const target of [sellerBrowser, adminBrowser]) {
      expect(decrypt(target, messagesTo(target)[0]!.body)).toMatchObject({ kind: 'newTickets', title: 'Aguardando: Davi', body: 'Quero comprar', url: `/tickets/${ticket.uuid}` });
    }

    // An agent returning a ticket to the queue tells the queue's other agents, not itself.
    const before = received.length;
    await t.database.db.execute(`update tickets set status = 'open', user_id = ${seller.id} where id = ${ticket.id}`);
    const returned = await t.request((await seller.login()).token, 'PUT', `/tickets/${ticket.id}`, { status: 'pending', userId: null });
    expect(returned.statusCode, returned.body).toBe(200);
    await deliver();
    const told = received.slice(before);
    expect(told.map((entry) => `${pushBase}${entry.path}`)).toEqual([adminBrowser.endpoint]);
    expect(decrypt(adminBrowser, told[0]!.body)).toMatchObject({ kind: 'newTickets', title: 'Aguardando em Vendas: Davi' });
  });

  it('forgets a subscription the push service says is gone (410), and one whose endpoint is not found (404)', async () => {
    const company = await t.factories.buildCompany({ plan: { useInternalChat: true } });
    const agent = await t.factories.buildUser(company.id);
    const { token } = await agent.login();
    const gone = browser('gone');
    const missing = browser('missing');
    const alive = browser('alive');
    answers.set(new URL(gone.endpoint).pathname, 410);
    answers.set(new URL(missing.endpoint).pathname, 404);
    await subscribe(token, gone);
    await subscribe(token, missing);
    expect((await subscribe(token, alive)).devices).toBe(3);
    const admin = await company.admin.login();
    const chat = (await t.request(admin.token, 'POST', '/chats', { title: 'Avisos', users: [{ id: agent.id }] })).json<{ id: number }>();
    jobs.queue.length = 0;
    await t.request(admin.token, 'POST', `/chats/${chat.id}/messages`, { message: 'Oi' });
    await deliver();
    expect(messagesTo(gone)).toHaveLength(1);
    expect(messagesTo(alive)).toHaveLength(1);
    expect((await t.request(token, 'GET', '/push/settings')).json()).toMatchObject({ devices: 1 });
  });

  it("refuses internal addresses, another user's endpoint and malformed keys; deletes only the caller's own", async () => {
    const company = await t.factories.buildCompany();
    const other = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    const otherToken = (await other.admin.login()).token;
    const mine = browser('mine');
    await subscribe(token, mine);

    const privateAddress = await t.request(token, 'POST', '/push/subscriptions', { ...mine.subscription, endpoint: 'http://10.1.2.3/push/x' });
    expect(privateAddress.statusCode).toBe(400);
    expect(privateAddress.json()).toMatchObject({ error: 'ERR_PUSH_ENDPOINT_REFUSED' });
    const metadata = await t.request(token, 'POST', '/push/subscriptions', { ...mine.subscription, endpoint: 'http://169.254.169.254/latest' });
    expect(metadata.json()).toMatchObject({ error: 'ERR_PUSH_ENDPOINT_REFUSED' });
    const scheme = await t.request(token, 'POST', '/push/subscriptions', { ...mine.subscription, endpoint: 'file:///etc/passwd' });
    expect(scheme.statusCode).toBe(400);
    for (const keys of [{ p256dh: 'short', auth: mine.subscription.keys.auth }, { p256dh: mine.subscription.keys.p256dh, auth: 'x'.repeat(200) }, { p256dh: `${'A'.repeat(86)}\u0000`, auth: 'A'.repeat(22) }]) {
      expect((await t.request(token, 'POST', '/push/subscriptions', { endpoint: mine.endpoint, keys })).statusCode).toBe(400);
    }

    const taken = await t.request(otherToken, 'POST', '/push/subscriptions', mine.subscription);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'ERR_PUSH_ENDPOINT_TAKEN' });
    const notTheirs = await t.request(otherToken, 'DELETE', '/push/subscriptions', { endpoint: mine.endpoint });
    expect(notTheirs.statusCode).toBe(404);
    expect((await t.request(token, 'GET', '/push/settings')).json()).toMatchObject({ devices: 1 });

    const removed = await t.request(token, 'DELETE', '/push/subscriptions', { endpoint: mine.endpoint });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ devices: 0 });
    // Now free, the browser may be subscribed by the other user.
    expect((await t.request(otherToken, 'POST', '/push/subscriptions', mine.subscription)).statusCode).toBe(201);
  });
});
