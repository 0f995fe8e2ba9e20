import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { contacts, messages, sandboxOutbox, tickets } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { customerTextValue, metaSignature, startFakeGraphApi, webhookEnvelope, type FakeGraphApi } from '../../test/fake-graph-api.js';
import { testConfig } from '../../test/test-app.js';
import { sendAutomaticMessage } from './messages.service.js';
import { recoverPendingMessages, storePendingMessages } from './outgoing-messages.js';
import { SANDBOX_NOT_ON_WHATSAPP_PREFIX } from '../../channels/sandbox/sandbox.provider.js';
import { createManualJobs } from '../../test/manual-jobs.js';

/*
 * Store before send (ARCHITECTURE §3.14): every outgoing message is a pending row
 * before the channel sees it, then settled or failed; a row a stopped server left
 * pending is sent by the next start's recovery or marked failed, never lost.
 * The channels are real: the sandbox (which refuses numbers that are not on
 * WhatsApp) and the Cloud API provider against a fake Graph API answering errors.
 */

const APP_SECRET = 'outgoing-app-secret';
let t: ChannelTestContext;
let fake: FakeGraphApi;
let adminToken: string;
let companyId: number;
let sandboxId: number;
let cloudId: number;
let counter = 0;

interface Seen {
  name: 'message.created' | 'message.updated';
  id: number;
  ack: number;
  sendStatus: string | null;
  sendError: string | null;
}
const seen: Seen[] = [];

beforeAll(async () => {
  fake = await startFakeGraphApi();
  t = await createChannelTestContext({ jobs: true, env: { GRAPH_API_BASE_URL: fake.baseUrl } });
  const company = await t.factories.buildCompany();
  companyId = company.id;
  adminToken = (await company.admin.login()).token;
  sandboxId = (await t.request(adminToken, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' })).json().id;
  const cloud = await t.request(adminToken, 'POST', '/whatsapp', {
    name: 'Oficial',
    provider: 'cloud-api',
    cloudApi: { phoneNumberId: fake.phoneNumberId, wabaId: fake.wabaId, accessToken: fake.accessToken, appSecret: APP_SECRET, verifyToken: 'outgoing-verify-token' },
  });
  expect(cloud.json()).toMatchObject({ status: 'CONNECTED' });
  cloudId = cloud.json().id;
  for (const name of ['message.created', 'message.updated'] as const) {
    t.app.services.events.on(name, ({ message }) => {
      seen.push({ name, id: message.id, ack: message.ack, sendStatus: message.sendStatus, sendError: message.sendError });
    });
  }
}, 30_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** An open sandbox ticket with the customer `number`. */
async function openSandboxTicket(number: string): Promise<number> {
  const { ticketId } = (await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from: number, body: 'Oi' })).json();
  await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
  return ticketId;
}

/** An open Cloud API ticket: the customer writes (signed webhook, processed by its job), the admin accepts. */
async function openCloudTicket(number: string): Promise<number> {
  const raw = JSON.stringify(webhookEnvelope(fake, [customerTextValue(number, `wamid.OUT-IN${++counter}`, 'Olá')]));
  const signature = metaSignature(raw, APP_SECRET);
  const posted = await t.app.inject({ method: 'POST', url: '/cloud-api/webhook', payload: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });
  expect(posted.statusCode).toBe(200);
  const ticket = await waitUntil(async () => {
    const [row] = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.whatsappId, cloudId), eq(contacts.number, number)))
      .limit(1);
    return row ?? null;
  }, 15_000, 'cloud ticket');
  await t.request(adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open' });
  return ticket.id;
}

const rowsOf = (ticketId: number) =>
  t.database.db.select().from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true))).orderBy(messages.id);
const outboxOf = (number: string) => t.database.db.select().from(sandboxOutbox).where(eq(sandboxOutbox.number, number));

describe('an agent message is stored before it is sent', () => {
  it("a bot's or integration's text with NUL or a lone surrogate is stored and sent without them, never lost", async () => {
    const ticketId = await openSandboxTicket('5511977770009');
    const sent = await sendAutomaticMessage(t.app.services, { companyId }, ticketId, { body: 'Res\u0000posta \uD800do bot', source: 'bot' });
    expect(sent).toMatchObject({ body: 'Resposta do bot', sendStatus: 'sent' });
    const [outbox] = await outboxOf('5511977770009');
    expect(outbox?.body).toBe('Resposta do bot');
  });

  it('appears at once as pending (ack 0), then is settled with the channel id and ack', async () => {
    const ticketId = await openSandboxTicket('5511977770001');
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Já te respondo' });
    expect(response.statusCode).toBe(201);
    const [sent] = response.json();
    expect(sent).toMatchObject({ body: 'Já te respondo', ack: 2, sendStatus: 'sent', sendError: null });

    const rows = await rowsOf(ticketId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sendStatus: 'sent', ack: 2, sendAttempts: 1 });
    const [outbox] = await outboxOf('5511977770001');
    expect(rows[0]?.externalId).toBe(outbox?.externalId);
    // The audience saw it pending first, then its settlement (the existing message update event).
    await waitUntil(() => seen.filter((e) => e.id === sent.id).length === 2, 5000, 'two events');
    expect(seen.filter((e) => e.id === sent.id)).toEqual([
      { name: 'message.created', id: sent.id, ack: 0, sendStatus: 'pending', sendError: null },
      { name: 'message.updated', id: sent.id, ack: 2, sendStatus: 'sent', sendError: null },
    ]);
    // The conversation page shows the same state.
    const page = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    expect(page.at(-1)).toMatchObject({ id: sent.id, sendStatus: 'sent', sendError: null });
  });

  it('a send the channel refuses leaves a failed message with its reason, and answers the error with it', async () => {
    const number = `${SANDBOX_NOT_ON_WHATSAPP_PREFIX}11977770002`;
    const ticketId = await openSandboxTicket(number);
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Você está aí?' });
    expect(response.statusCode).toBe(400);
    const answer = response.json();
    expect(answer.error).toBe('ERR_SENDING_WAPP_MSG');
    expect(answer.messages).toHaveLength(1);
    expect(answer.messages[0]).toMatchObject({ body: 'Você está aí?', ack: 0, sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });

    const rows = await rowsOf(ticketId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG', externalId: null, ack: 0 });
    expect(await outboxOf(number)).toEqual([]);
    const page = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    expect(page.at(-1)).toMatchObject({ id: answer.messages[0].id, sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
    await waitUntil(() => seen.some((e) => e.id === answer.messages[0].id && e.name === 'message.updated'), 5000, 'failure event');
    expect(seen.filter((e) => e.id === answer.messages[0].id).map((e) => [e.name, e.sendStatus])).toEqual([
      ['message.created', 'pending'],
      ['message.updated', 'failed'],
    ]);
  });

  it('a Graph API error fails the message; the agent retries it once the peer answers, and it is settled', async () => {
    const number = '5511977770003';
    const ticketId = await openCloudTicket(number);
    // Meta failing for longer than the send's own tries (3): the message fails, the answer says try later.
    fake.failNext(`/${fake.phoneNumberId}/messages`, 3);
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Segue o orçamento' });
    expect(response.statusCode).toBe(503);
    const failed = response.json().messages[0];
    expect(failed).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WA_UNAVAILABLE' });
    const sentBefore = fake.sent.filter((s) => s.body.to === number).length;

    const retried = await t.request(adminToken, 'POST', `/messages/${failed.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: failed.id, sendStatus: 'sent', sendError: null, ack: 1 });
    const rows = await rowsOf(ticketId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sendStatus: 'sent', sendAttempts: 2 });
    expect(rows[0]?.externalId).toMatch(/^wamid\.FAKE/);
    const delivered = fake.sent.filter((s) => s.body.to === number);
    expect(delivered).toHaveLength(sentBefore + 1);
    expect(delivered.at(-1)?.body).toMatchObject({ type: 'text', text: { body: 'Segue o orçamento' } });

    // Only a failed message can be retried: a second click sends nothing.
    const again = await t.request(adminToken, 'POST', `/messages/${failed.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_MESSAGE_NOT_FAILED');
    expect(fake.sent.filter((s) => s.body.to === number)).toHaveLength(sentBefore + 1);
  });

  it('a Cloud API template is stored first too: a Graph API error fails it, and its retry sends the template again', async () => {
    const number = '5511977770007';
    const ticketId = await openCloudTicket(number);
    fake.templates.push({ name: 'retry_notice', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Olá {{1}}, seguimos.' }] });
    fake.failNext(`/${fake.phoneNumberId}/messages`, 3);
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}/template`, { name: 'retry_notice', language: 'pt_BR', parameters: ['Ana'] });
    expect(response.statusCode).toBe(503);
    const failed = response.json().messages[0];
    expect(failed).toMatchObject({ body: 'Olá Ana, seguimos.', sendStatus: 'failed', sendError: 'ERR_WA_UNAVAILABLE' });

    const retried = await t.request(adminToken, 'POST', `/messages/${failed.id}/retry`);
    expect(retried.json()).toMatchObject({ id: failed.id, sendStatus: 'sent' });
    expect(fake.sent.filter((s) => s.body.to === number).at(-1)?.body).toMatchObject({
      type: 'template',
      template: { name: 'retry_notice', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] },
    });
    expect(await rowsOf(ticketId)).toHaveLength(1);
  });

  it('a retry that fails again keeps the message failed; another company cannot retry it', async () => {
    const number = `${SANDBOX_NOT_ON_WHATSAPP_PREFIX}11977770004`;
    const ticketId = await openSandboxTicket(number);
    const failed = (await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Alô' })).json().messages[0];

    const other = await t.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    const foreign = await t.request(otherToken, 'POST', `/messages/${failed.id}/retry`);
    expect(foreign.statusCode).toBe(404);
    expect((await rowsOf(ticketId))[0]).toMatchObject({ sendStatus: 'failed', sendAttempts: 1 });

    const retried = await t.request(adminToken, 'POST', `/messages/${failed.id}/retry`);
    expect(retried.statusCode).toBe(400);
    expect(retried.json()).toMatchObject({ error: 'ERR_SENDING_WAPP_MSG', messages: [{ id: failed.id, sendStatus: 'failed' }] });
    expect((await rowsOf(ticketId))[0]).toMatchObject({ sendStatus: 'failed', sendAttempts: 2 });

    // A customer's message is not an agent's failed send.
    const customer = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages[0];
    expect(customer.fromMe).toBe(false);
    expect((await t.request(adminToken, 'POST', `/messages/${customer.id}/retry`)).statusCode).toBe(409);
  });
});

describe('a message a stopped server left pending', () => {
  /** Stores a pending message through a server that then stops before sending it (what a crash leaves). */
  async function leftPendingBy(number: string, body: string): Promise<{ ticketId: number; messageId: number }> {
    const ticketId = await openSandboxTicket(number);
    const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    if (!ticket) throw new Error('no ticket');
    const crashed = await buildApp({ config: testConfig(), database: t.database, realtime: false, serveWeb: false, jobs: createManualJobs() });
    await crashed.ready();
    const [stored] = await storePendingMessages(crashed.services, { companyId }, {
      ticketId,
      contactId: ticket.contactId,
      whatsappId: sandboxId,
      userId: null,
      source: 'agent',
      items: [{ message: { to: number, body } }],
    });
    await crashed.close();
    if (!stored) throw new Error('nothing stored');
    return { ticketId, messageId: stored.id };
  }

  it('is sent by the next start\'s recovery, once', async () => {
    const number = '5511977770005';
    const { messageId } = await leftPendingBy(number, 'Mensagem interrompida');
    expect(await outboxOf(number)).toEqual([]);

    const next = await buildApp({ config: testConfig(), database: t.database, realtime: false, serveWeb: false, jobs: createManualJobs() });
    await next.ready();
    try {
      // A young pending row may be another node's send in flight: the default staleness leaves it alone.
      expect(await recoverPendingMessages(next.services)).toEqual({ resent: 0, failed: 0 });
      expect(await recoverPendingMessages(next.services, { staleMs: 0, giveUpMs: 60_000, maxAttempts: 3 })).toEqual({ resent: 1, failed: 0 });
      // Settled: a second sweep finds nothing to send.
      expect(await recoverPendingMessages(next.services, { staleMs: 0, giveUpMs: 60_000, maxAttempts: 3 })).toEqual({ resent: 0, failed: 0 });
    } finally {
      await next.close();
    }
    const outbox = await outboxOf(number);
    expect(outbox.map((m) => m.body)).toEqual(['Mensagem interrompida']);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
    expect(row).toMatchObject({ sendStatus: 'sent', externalId: outbox[0]?.externalId, ack: 2, sendAttempts: 2 });
  });

  it('is marked failed (ERR_SEND_INTERRUPTED, for the agent to retry) once it is too old to send', async () => {
    const number = '5511977770006';
    const { messageId } = await leftPendingBy(number, 'Mensagem antiga');
    await t.database.db.update(messages).set({ createdAt: new Date(Date.now() - 3_600_000) }).where(eq(messages.id, messageId));

    const next = await buildApp({ config: testConfig(), database: t.database, realtime: false, serveWeb: false, jobs: createManualJobs() });
    await next.ready();
    try {
      expect(await recoverPendingMessages(next.services, { staleMs: 0, giveUpMs: 60_000, maxAttempts: 3 })).toEqual({ resent: 0, failed: 1 });
    } finally {
      await next.close();
    }
    expect(await outboxOf(number)).toEqual([]);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
    expect(row).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_SEND_INTERRUPTED', externalId: null });
    // The agent's retry sends it.
    const retried = await t.request(adminToken, 'POST', `/messages/${messageId}/retry`);
    expect(retried.json()).toMatchObject({ sendStatus: 'sent' });
    expect((await outboxOf(number)).map((m) => m.body)).toEqual(['Mensagem antiga']);
  });

  it('is never sent once an agent deleted it', async () => {
    const number = '5511977770008';
    const { messageId } = await leftPendingBy(number, 'Apagada antes de sair');
    expect((await t.request(adminToken, 'DELETE', `/messages/${messageId}`)).json()).toMatchObject({ isDeleted: true });
    const next = await buildApp({ config: testConfig(), database: t.database, realtime: false, serveWeb: false, jobs: createManualJobs() });
    await next.ready();
    try {
      expect(await recoverPendingMessages(next.services, { staleMs: 0, giveUpMs: 60_000, maxAttempts: 3 })).toEqual({ resent: 0, failed: 1 });
    } finally {
      await next.close();
    }
    expect(await outboxOf(number)).toEqual([]);
    expect((await t.request(adminToken, 'POST', `/messages/${messageId}/retry`)).statusCode).toBe(409);
  });
});
