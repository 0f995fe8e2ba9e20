import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreatedWebhook, PresentedTicket, WebhookDeliveryPage, WebhookList, WebhookPayload } from '@atende/shared';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../../test/fake-webhook-receiver.js';
import type { FakeReply, FakeRequest } from '../../test/fake-http.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { ALLOW_LOOPBACK_PEERS, createTestContext, type TestContext } from '../../test/test-app.js';
import type { InboundMessage } from '../../inbound/inbound-message.js';
import { ingestMessage } from '../../inbound/ingest.js';
import { claimDueDeliveries } from './webhook-deliveries.repo.js';
import { createWebhookSender, pruneWebhookDeliveries, type WebhookSender } from './webhook-sender.js';

let t: TestContext;
let receiver: FakeWebhookReceiver;
let sender: WebhookSender;
let adminToken: string;

const TIMEOUT_MS = 700;
/** What a busy machine (CI runs suites side by side) may add to an attempt's own time. */
const SLACK_MS = 2_000;

async function rowsOf<Row>(query: SQL): Promise<Row[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** A company of its own per test, with one webhook on the receiver (`path` tells the tests' requests apart). */
async function companyWithWebhook(events: string[], hookPath: string): Promise<{ company: BuiltCompany; token: string; hook: CreatedWebhook; whatsappId: number }> {
  const company = await t.factories.buildCompany();
  const { id: whatsappId } = await createServiceDeskFactories(t.database.db).buildConnection(company.id);
  const token = (await company.admin.login()).token;
  const response = await t.request(token, 'POST', '/webhooks', { url: `${receiver.url}${hookPath}`, events });
  expect(response.statusCode, response.body).toBe(201);
  return { company, token, hook: response.json<CreatedWebhook>(), whatsappId };
}

async function openTicket(companyId: number, token: string): Promise<PresentedTicket> {
  const contact = await createServiceDeskFactories(t.database.db).buildTicketContact(companyId);
  const response = await t.request(token, 'POST', '/tickets', { contactId: contact.id, status: 'pending' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PresentedTicket>();
}

const requestsTo = (hookPath: string) => receiver.requests.filter((request) => request.path === hookPath);
const payloadOf = (request: FakeRequest) => JSON.parse(request.body) as WebhookPayload<Record<string, unknown>>;

async function deliveries(token: string, hookId: number): Promise<WebhookDeliveryPage['deliveries']> {
  const response = await t.request(token, 'GET', `/webhooks/${hookId}/deliveries`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<WebhookDeliveryPage>().deliveries;
}

let replies = new Map<string, (request: FakeRequest) => FakeReply>();

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
  receiver.respond((request) => (replies.get(request.path) ?? (() => ({ status: 200, text: 'ok' })))(request));
  t = await createTestContext({ env: { ...ALLOW_LOOPBACK_PEERS } });
  adminToken = (await (await t.factories.buildCompany()).admin.login()).token;
  sender = createWebhookSender(t.app.services, { timeoutMs: TIMEOUT_MS, pollMs: 60_000 });
});
afterEach(() => {
  replies = new Map();
});
afterAll(async () => {
  await sender?.stop();
  await t?.close();
  await receiver?.close();
});

describe('event webhooks: deliveries', () => {
  it('delivers a committed change, signed, with the documented headers and body; the Node.js snippet of docs/webhooks.md verifies it', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created'], '/signed');
    const ticket = await openTicket(company.id, token);
    await sender.drain();

    const [request] = requestsTo('/signed');
    expect(request).toBeDefined();
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Atende-Webhooks/1',
      'x-atende-event': 'ticket.created',
      'x-atende-timestamp': expect.stringMatching(/^\d{10}$/),
      'x-atende-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    const body = payloadOf(request!);
    expect(body).toMatchObject({ event: 'ticket.created', companyId: company.id, data: { id: ticket.id, status: 'pending', contactId: ticket.contactId } });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(request!.headers['x-atende-event-id']).toBe(body.id);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

    // The documented snippet, taken from the page as it is, run against the real request.
    const page = readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/webhooks.md'), 'utf8');
    const snippet = /<!-- webhook-verify:node[^>]*-->\s*```js\n([\s\S]*?)```/.exec(page)?.[1];
    expect(snippet).toBeDefined();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'atende-webhook-snippet-')), 'verify.mjs');
    writeFileSync(file, snippet!);
    const { verifyAtendeWebhook } = (await import(pathToFileURL(file).href)) as { verifyAtendeWebhook: (secret: string, headers: object, body: string) => boolean };
    expect(verifyAtendeWebhook(hook.secret, request!.headers, request!.body)).toBe(true);
    expect(verifyAtendeWebhook(hook.secret, request!.headers, request!.body.replace('ticket.created', 'ticket.updated'))).toBe(false);
    expect(verifyAtendeWebhook(`${hook.secret}x`, request!.headers, request!.body)).toBe(false);
    expect(verifyAtendeWebhook(hook.secret, { ...request!.headers, 'x-atende-timestamp': String(Number(request!.headers['x-atende-timestamp']) - 3600) }, request!.body)).toBe(false);

    const [logged] = await deliveries(token, hook.id);
    expect(logged).toMatchObject({ eventId: body.id, event: 'ticket.created', status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null, responseExcerpt: 'ok', nextAttemptAt: null });
    expect(logged!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(logged!.deliveredAt).not.toBeNull();
  });

  it('an agent message, a contact created and changed, and a ticket accepted reach their subscribers with the API presentation', async () => {
    const { company, token } = await companyWithWebhook(['message.created', 'contact.created', 'contact.updated', 'ticket.updated'], '/sources');
    const ticket = await openTicket(company.id, token);
    expect((await t.request(token, 'PUT', `/tickets/${ticket.id}`, { status: 'open' })).statusCode).toBe(200);
    const sent = await t.request(token, 'POST', `/messages/${ticket.id}`, { body: 'Hello from the desk' });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const contact = await t.request(token, 'POST', '/contacts', { name: 'Webhook Person', number: '5511987650001' });
    expect(contact.statusCode, contact.body).toBeLessThan(300);
    const contactId = contact.json<{ id: number }>().id;
    expect((await t.request(token, 'PUT', `/contacts/${contactId}`, { name: 'Webhook Person Renamed' })).statusCode).toBe(200);
    await sender.drain();
    const events = requestsTo('/sources').map((request) => payloadOf(request));
    expect(events.find((event) => event.event === 'ticket.updated')?.data).toMatchObject({ id: ticket.id, status: 'open' });
    expect(events.find((event) => event.event === 'message.created')?.data).toMatchObject({ ticketId: ticket.id, body: 'Hello from the desk', fromMe: true, mediaUrl: null });
    expect(events.find((event) => event.event === 'contact.created')?.data).toMatchObject({ id: contactId, name: 'Webhook Person' });
    expect(events.find((event) => event.event === 'contact.updated')?.data).toMatchObject({ id: contactId, name: 'Webhook Person Renamed' });
    expect(JSON.stringify(events)).not.toContain('__mediaPath');
  });

  it("a customer's messages (the ingest batch and its full path) reach message.created, after the ticket.created of the ticket they open, as the API presents them", async () => {
    const { company, token, whatsappId } = await companyWithWebhook(['ticket.created', 'message.created'], '/inbound');
    let n = 0;
    const inbound = (from: string, body: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
      channel: 'sandbox', companyId: company.id, whatsappId, from, body, externalId: `hook-in-${company.id}-${++n}`, ...extra,
    });
    const ingestAll = (messages: InboundMessage[]) => Promise.all(messages.map((message) => ingestMessage(t.app.services, message)));
    // One batch: a new contact's two messages, and a second chat.
    const first = inbound('5511955550001', 'Olá', { contactName: 'Ana' });
    const results = await ingestAll([first, inbound('5511955550002', 'Oi'), inbound('5511955550001', 'Obrigado', { data: { pollSecret: 'x', referral: { sourceUrl: 'https://example.com' } } as never })]);
    expect(results.map((result) => result.ticketCreated)).toEqual([true, true, false]);
    const [ana, other] = results.map((result) => result.ticketId!);
    // A second batch: a message quoting the first, and a file (its link is signed when sent, its path never shown).
    await ingestAll([
      inbound('5511955550001', 'Quero um pedido', { quotedExternalId: first.externalId }),
      inbound('5511955550002', '', { media: { path: `${company.id}/photo.jpg`, mediaType: 'image', name: 'photo.jpg', mimeType: 'image/jpeg', size: 10 } }),
    ]);
    await sender.drain();
    const events = requestsTo('/inbound').map((request) => payloadOf(request));
    const ofTicket = (ticketId: number) =>
      events.filter((event) => (event.event === 'ticket.created' ? event.data.id : event.data.ticketId) === ticketId).map((event) => [event.event, event.data.body ?? null]);
    expect(ofTicket(ana!)).toEqual([
      ['ticket.created', null],
      ['message.created', 'Olá'],
      ['message.created', 'Obrigado'],
      ['message.created', 'Quero um pedido'],
    ]);
    expect(ofTicket(other!)).toEqual([['ticket.created', null], ['message.created', 'Oi'], ['message.created', '']]);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(events.find((event) => event.data.mediaName === 'photo.jpg')?.data.mediaUrl).toEqual(expect.stringContaining('photo.jpg'));
    expect(JSON.stringify(events)).not.toContain('__mediaPath');

    // The same presentation as the API's (built by the database in the batch); reading them marks them read.
    const ticketCreated = events.find((event) => event.event === 'ticket.created' && event.data.id === ana)!;
    expect(ticketCreated.data).toMatchObject({ id: ana, status: 'pending', unreadMessages: 2, lastMessage: 'Obrigado', contact: { name: 'Ana', number: '5511955550001' } });
    const shown = (await t.request(token, 'GET', `/messages/${ana}`)).json<{ messages: Record<string, unknown>[] }>().messages;
    const heard = events.filter((event) => event.event === 'message.created' && event.data.ticketId === ana).map((event) => event.data);
    expect(heard).toEqual(shown.map((message) => ({ ...message, read: false })));
    expect(heard[2]).toMatchObject({ quotedMsg: { body: 'Olá', contact: { name: 'Ana' } }, contact: { name: 'Ana' } });
    expect(heard[1]!.dataJson).toEqual({ referral: { sourceUrl: 'https://example.com' } });
    const ticketShown = (await t.request(token, 'GET', `/tickets/${other}`)).json<Record<string, unknown>>();
    expect(events.find((event) => event.event === 'ticket.created' && event.data.id === other)?.data).toEqual({ ...ticketShown, unreadMessages: 1, lastMessage: 'Oi', updatedAt: expect.any(String) });

    // The full path: a known contact whose ticket is closed opens a new one.
    expect((await t.request(token, 'PUT', `/tickets/${other}`, { status: 'closed' })).statusCode).toBe(200);
    const reopened = await ingestMessage(t.app.services, inbound('5511955550002', 'De novo'));
    expect(reopened).toMatchObject({ ticketCreated: true });
    await sender.drain();
    const later = requestsTo('/inbound').map((request) => payloadOf(request)).slice(events.length);
    expect(later.map((event) => [event.event, event.data.body ?? null])).toEqual([
      ['ticket.created', null],
      ['message.created', 'De novo'],
    ]);
    expect(later[0]!.data).toMatchObject({ id: reopened.ticketId, status: 'pending' });
    expect(later[1]!.data).toMatchObject({ ticketId: reopened.ticketId, contact: { name: expect.any(String) } });
  });

  it("a connection's status change is connection.updated (the session's columns as written); a QR code alone is not", async () => {
    const { token, whatsappId } = await companyWithWebhook(['connection.updated'], '/connection');
    expect((await t.request(token, 'DELETE', `/whatsappsession/${whatsappId}`)).statusCode).toBeLessThan(300);
    expect((await t.request(token, 'POST', `/whatsappsession/${whatsappId}`)).statusCode).toBeLessThan(300);
    await sender.drain();
    const events = requestsTo('/connection').map((request) => payloadOf(request));
    expect(events.map((event) => [event.event, event.data.id, event.data.status])).toEqual([
      ['connection.updated', whatsappId, 'DISCONNECTED'],
      ['connection.updated', whatsappId, 'CONNECTED'],
    ]);
    const shown = (await t.request(token, 'GET', `/whatsapp/${whatsappId}`)).json<Record<string, unknown>>();
    expect(events[1]!.data).toEqual(Object.fromEntries(Object.keys(events[1]!.data).map((key) => [key, shown[key]])));
    expect(Object.keys(events[1]!.data)).toEqual(expect.arrayContaining(['name', 'status', 'provider', 'queues', 'updatedAt']));
    expect(events[1]!.data).not.toHaveProperty('token');
  });

  it('writes nothing for a company without a webhook on the event, nor for a webhook turned off', async () => {
    const company = await t.factories.buildCompany();
    await createServiceDeskFactories(t.database.db).buildConnection(company.id);
    const token = (await company.admin.login()).token;
    const { company: subscribed, token: subscribedToken, hook } = await companyWithWebhook(['contact.created'], '/other-event');
    await openTicket(company.id, token);
    await openTicket(subscribed.id, subscribedToken);
    expect(await rowsOf(sql`select id from webhook_deliveries where company_id in (${company.id}, ${subscribed.id})`)).toEqual([]);
    await t.request(subscribedToken, 'PUT', `/webhooks/${hook.id}`, { events: ['ticket.created'], enabled: false });
    await openTicket(subscribed.id, subscribedToken);
    expect(await rowsOf(sql`select id from webhook_deliveries where company_id = ${subscribed.id}`)).toEqual([]);
  });

  it('retries a non-2xx answer and a timeout with backoff (10 s ± 20 %, then doubling), with the same event id', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created'], '/flaky');
    let calls = 0;
    replies.set('/flaky', () => {
      calls += 1;
      if (calls === 1) return { status: 503, text: 'down for maintenance' };
      if (calls === 2) return { status: 200, delayMs: TIMEOUT_MS * 3 };
      return { status: 204 };
    });
    await openTicket(company.id, token);
    await sender.drain();
    let [first] = await deliveries(token, hook.id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503, lastError: 'answered 503', responseExcerpt: 'down for maintenance' });
    // Counted from the attempt's start (`lastAttemptAt`): the attempt's own time comes on top of the
    // backoff, up to the timeout plus what a busy machine adds (SLACK_MS).
    const waitMs = new Date(first!.nextAttemptAt!).getTime() - new Date(first!.lastAttemptAt!).getTime();
    expect(waitMs).toBeGreaterThanOrEqual(7_900);
    expect(waitMs).toBeLessThanOrEqual(12_000 + SLACK_MS);

    await sender.drain(); // not due yet: nothing sent
    expect(requestsTo('/flaky')).toHaveLength(1);

    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${hook.id}`);
    await sender.drain();
    [first] = await deliveries(token, hook.id);
    expect(first).toMatchObject({ status: 'pending', attempts: 2, lastStatusCode: null, lastError: `no answer within ${TIMEOUT_MS} ms` });
    const secondWaitMs = new Date(first!.nextAttemptAt!).getTime() - new Date(first!.lastAttemptAt!).getTime();
    expect(secondWaitMs).toBeGreaterThanOrEqual(15_900 + TIMEOUT_MS);
    expect(secondWaitMs).toBeLessThanOrEqual(24_000 + TIMEOUT_MS + SLACK_MS);

    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${hook.id}`);
    await sender.drain();
    [first] = await deliveries(token, hook.id);
    expect(first).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 204, lastError: null });
    const ids = new Set(requestsTo('/flaky').map((request) => request.headers['x-atende-event-id']));
    expect(ids.size).toBe(1);
  });

  it('keeps the order of one ticket: a failing event holds back the later ones of that ticket, not those of another ticket', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created', 'ticket.updated'], '/ordered');
    const held = await openTicket(company.id, token);
    replies.set('/ordered', (request) => (payloadOf(request).data.id === held.id && payloadOf(request).event === 'ticket.created' && requestsTo('/ordered').length === 1 ? { status: 500 } : { status: 200 }));
    await sender.drain();
    // Accepting it: a second event of the same ticket.
    expect((await t.request(token, 'PUT', `/tickets/${held.id}`, { status: 'open' })).statusCode).toBe(200);
    const other = await openTicket(company.id, token);
    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${hook.id} and status = 'pending' and attempts = 0`);
    await sender.drain();
    const sent = requestsTo('/ordered').map((request) => [payloadOf(request).data.id, payloadOf(request).event]);
    expect(sent).toEqual([
      [held.id, 'ticket.created'],
      [other.id, 'ticket.created'],
    ]);

    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${hook.id} and status = 'pending'`);
    await sender.drain();
    expect(requestsTo('/ordered').map((request) => [payloadOf(request).data.id, payloadOf(request).event]).slice(2)).toEqual([
      [held.id, 'ticket.created'],
      [held.id, 'ticket.updated'],
    ]);
    expect(payloadOf(requestsTo('/ordered')[3]!).data).toMatchObject({ status: 'open' });
  });

  it('marks a delivery failed once 24 h passed since the event, which lets the next one of its ticket go', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created', 'ticket.updated'], '/expired');
    replies.set('/expired', (request) => (payloadOf(request).event === 'ticket.created' ? { status: 500 } : { status: 200 }));
    const ticket = await openTicket(company.id, token);
    await t.request(token, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });
    await t.database.db.execute(sql`update webhook_deliveries set created_at = now() - interval '25 hours' where webhook_id = ${hook.id} and event = 'ticket.created'`);
    await sender.drain();
    const log = await deliveries(token, hook.id);
    expect(log.map((entry) => [entry.event, entry.status])).toEqual([
      ['ticket.updated', 'delivered'],
      ['ticket.created', 'failed'],
    ]);
    expect(log[1]).toMatchObject({ attempts: 1, lastStatusCode: 500, nextAttemptAt: null });
  });

  it('turns off a webhook that failed for 24 h, tells its admins, and re-enabling sends what waited', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created'], '/dead');
    replies.set('/dead', () => ({ status: 500 }));
    await openTicket(company.id, token);
    await sender.drain();
    expect((await rowsOf<{ failing_since: unknown }>(sql`select failing_since from webhooks where id = ${hook.id}`))[0]?.failing_since).not.toBeNull();
    await t.database.db.execute(sql`update webhooks set failing_since = now() - interval '24 hours 1 minute' where id = ${hook.id}`);
    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${hook.id}`);
    await sender.drain();
    const listed = (await t.request(token, 'GET', '/webhooks')).json<WebhookList>().webhooks.find((webhook) => webhook.id === hook.id);
    expect(listed).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const mailFolder = path.join(t.config.DATA_DIR, 'mail');
    expect(existsSync(mailFolder)).toBe(true);
    expect(readdirSync(mailFolder).map((name) => readFileSync(path.join(mailFolder, name), 'utf8')).some((mail) => mail.includes(company.admin.email) && mail.includes('/dead'))).toBe(true);

    // Off: nothing is sent, even when due.
    await t.database.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where webhook_id = ${hook.id}`);
    const before = requestsTo('/dead').length;
    await sender.drain();
    expect(requestsTo('/dead')).toHaveLength(before);

    replies.set('/dead', () => ({ status: 200 }));
    expect((await t.request(token, 'PUT', `/webhooks/${hook.id}`, { enabled: true })).json()).toMatchObject({ enabled: true, disabledReason: null });
    await sender.drain();
    expect((await deliveries(token, hook.id))[0]).toMatchObject({ status: 'delivered' });
  });

  it('refuses a loopback address at send time too (DNS may change after the URL was saved)', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created'], '/moved');
    // What a name that now resolves to loopback amounts to; 127.0.0.1 alone is allowed in the tests.
    await t.database.db.execute(sql`update webhooks set url = ${`http://[::1]:${new URL(receiver.url).port}/moved`} where id = ${hook.id}`);
    await openTicket(company.id, token);
    await sender.drain();
    const [logged] = await deliveries(token, hook.id);
    expect(logged).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(logged!.lastError).toMatch(/refused/);
    expect(requestsTo('/moved')).toHaveLength(0);
  });

  it('sends again on demand (202): a new attempt of the same event id, whatever its status', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created'], '/again');
    await openTicket(company.id, token);
    await sender.drain();
    const [delivered] = await deliveries(token, hook.id);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 1 });
    const retried = await t.request(token, 'POST', `/webhooks/${hook.id}/deliveries/${delivered!.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ delivery: { id: delivered!.id, eventId: delivered!.eventId, status: 'pending', deliveredAt: null } });
    await sender.drain();
    expect((await deliveries(token, hook.id))[0]).toMatchObject({ id: delivered!.id, status: 'delivered', attempts: 2 });
    expect(requestsTo('/again').map((request) => request.headers['x-atende-event-id'])).toEqual([delivered!.eventId, delivered!.eventId]);
    expect((await t.request(adminToken, 'POST', `/webhooks/${hook.id}/deliveries/${delivered!.id}/retry`, {})).statusCode).toBe(404);
  });

  it('a claim held by a server that died is taken again once its lease expires (at least once)', async () => {
    const { company, token, hook } = await companyWithWebhook(['ticket.created'], '/lease');
    await openTicket(company.id, token);
    // A node claims it and dies before sending.
    const claimed = await claimDueDeliveries(t.database.db, 1000, 60_000);
    expect(claimed.some((delivery) => delivery.webhookId === hook.id)).toBe(true);
    await sender.drain();
    expect(requestsTo('/lease')).toHaveLength(0);
    await t.database.db.execute(sql`update webhook_deliveries set locked_until = now() - interval '1 second' where webhook_id = ${hook.id}`);
    await sender.drain();
    expect(requestsTo('/lease')).toHaveLength(1);
    expect((await deliveries(token, hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('wakes on the commit (NOTIFY) when running, without waiting for its poll', async () => {
    const { company, token } = await companyWithWebhook(['ticket.created'], '/awake');
    await sender.start();
    try {
      const startedAt = Date.now();
      await openTicket(company.id, token);
      while (requestsTo('/awake').length === 0 && Date.now() - startedAt < 5_000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(requestsTo('/awake')).toHaveLength(1);
    } finally {
      await sender.stop();
      sender = createWebhookSender(t.app.services, { timeoutMs: TIMEOUT_MS, pollMs: 60_000 });
    }
  });

  it('keeps finished deliveries 30 days; pending ones stay', async () => {
    const { company, hook } = await companyWithWebhook(['ticket.created'], '/old');
    await t.database.db.execute(sql`
      insert into webhook_deliveries (company_id, webhook_id, event_id, event, ordering_key, data, status, created_at, next_attempt_at)
      values (${company.id}, ${hook.id}, 'old-delivered', 'ticket.created', 'ticket:1', '{}'::jsonb, 'delivered', now() - interval '31 days', null),
             (${company.id}, ${hook.id}, 'old-failed', 'ticket.created', 'ticket:2', '{}'::jsonb, 'failed', now() - interval '31 days', null),
             (${company.id}, ${hook.id}, 'recent', 'ticket.created', 'ticket:3', '{}'::jsonb, 'delivered', now() - interval '29 days', null),
             (${company.id}, ${hook.id}, 'old-pending', 'ticket.created', 'ticket:4', '{}'::jsonb, 'pending', now() - interval '31 days', now() + interval '1 hour')`);
    await pruneWebhookDeliveries(t.app.services);
    const left = await rowsOf<{ event_id: string }>(sql`select event_id from webhook_deliveries where webhook_id = ${hook.id} order by event_id`);
    expect(left.map((row) => row.event_id)).toEqual(['old-pending', 'recent']);
  });
});
