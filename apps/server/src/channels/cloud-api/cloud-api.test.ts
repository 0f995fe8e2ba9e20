import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets, whatsapps } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import type { BuiltCompany } from '../../test/factories.js';
import { metaSignature, startFakeGraphApi, webhookEnvelope, type FakeGraphApi } from '../../test/fake-graph-api.js';

const APP_SECRET = 'cloud-app-secret-0123456789';
const VERIFY_TOKEN = 'verify-token-abc123';
const OUTSIDE_NUMBER = '5511988887777';

let t: ChannelTestContext;
let fake: FakeGraphApi;
let company: BuiltCompany;
let adminToken: string;
let connectionId: number;
let counter = 0;

function postWebhook(payload: unknown, signature?: string) {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url: '/cloud-api/webhook',
    payload: raw,
    headers: { 'content-type': 'application/json', ...(signature === undefined ? { 'x-hub-signature-256': metaSignature(raw, APP_SECRET) } : signature ? { 'x-hub-signature-256': signature } : {}) },
  });
}

function envelope(changes: Record<string, unknown>[]) {
  return webhookEnvelope(fake, changes);
}

const text = (from: string, body: string, id = `wamid.IN${++counter}`) => ({ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body } });

async function storedMessage(externalId: string) {
  const [row] = await t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, connectionId), eq(messages.externalId, externalId)));
  return row ?? null;
}

/** The webhook jobs (pg-boss) whose payload mentions `text`, with their state. */
async function webhookJobs(text: string): Promise<{ state: string }[]> {
  const result = (await t.database.db.execute(
    sql`select state::text as state from pgboss.job where name = 'cloud-api-webhook' and data::text like ${`%${text}%`}`,
  )) as unknown as { rows: { state: string }[] };
  return result.rows;
}

async function ticketOf(number: string) {
  const [row] = await t.database.db
    .select({ id: tickets.id, status: tickets.status })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, number)));
  return row ?? null;
}

beforeAll(async () => {
  fake = await startFakeGraphApi({ outsideWindow: new Set([OUTSIDE_NUMBER]) });
  fake.templates.push(
    { name: 'order_update', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.' }] },
    { name: 'welcome', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'BODY', text: 'Bem-vindo!' }] },
  );
  t = await createChannelTestContext({ jobs: true, env: { GRAPH_API_BASE_URL: fake.baseUrl } });
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  const created = await t.request(adminToken, 'POST', '/whatsapp', {
    name: 'Oficial',
    provider: 'cloud-api',
    cloudApi: { phoneNumberId: fake.phoneNumberId, wabaId: fake.wabaId, accessToken: fake.accessToken, appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN },
  });
  expect(created.statusCode).toBe(201);
  connectionId = created.json().id;
}, 30_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('Cloud API connection', () => {
  it('is CONNECTED once the Graph API accepts its token, and never shows its secrets', async () => {
    const shown = (await t.request(adminToken, 'GET', `/whatsapp/${connectionId}`)).json();
    expect(shown).toMatchObject({ status: 'CONNECTED', number: '551140000000', provider: 'cloud-api' });
    expect(shown.cloudApi).toMatchObject({ phoneNumberId: fake.phoneNumberId, wabaId: fake.wabaId, verifyToken: VERIFY_TOKEN, webhookPath: '/cloud-api/webhook' });
    expect(JSON.stringify(shown)).not.toContain(fake.accessToken);
    expect(JSON.stringify(shown)).not.toContain(APP_SECRET);
    const [row] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, connectionId));
    expect(row?.providerSecrets).not.toContain(fake.accessToken);
  });

  it('a wrong access token leaves a new connection DISCONNECTED', async () => {
    const created = await t.request(adminToken, 'POST', '/whatsapp', {
      name: 'Errada',
      provider: 'cloud-api',
      cloudApi: { phoneNumberId: '123456', wabaId: '654321', accessToken: 'wrong-token', appSecret: 'x-secret', verifyToken: 'another-verify-token' },
    });
    expect(created.json().status).toBe('DISCONNECTED');
  });
});

describe('webhook verification', () => {
  it('answers the challenge to the verify token, and 403 otherwise', async () => {
    const ok = await t.app.inject({ method: 'GET', url: `/cloud-api/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await t.app.inject({ method: 'GET', url: '/cloud-api/webhook?hub.mode=subscribe&hub.verify_token=nope-nope-nope&hub.challenge=1' });
    expect(wrong.statusCode).toBe(403);
    const noMode = await t.app.inject({ method: 'GET', url: `/cloud-api/webhook?hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1` });
    expect(noMode.statusCode).toBe(403);
  });
});

describe('webhook signature', () => {
  it('refuses a missing, wrong or foreign signature with 401 and stores nothing', async () => {
    const message = text('5511911110000', 'assinatura');
    const payload = envelope([{ contacts: [{ profile: { name: 'Sig' }, wa_id: '5511911110000' }], messages: [message] }]);
    const raw = JSON.stringify(payload);
    expect((await postWebhook(raw, '')).statusCode).toBe(401);
    expect((await postWebhook(raw, metaSignature(raw, 'someone-elses-secret'))).statusCode).toBe(401);
    expect((await postWebhook(raw, 'sha256=00')).statusCode).toBe(401);
    // The signature covers the exact bytes: the same JSON re-serialized with a space differs.
    expect((await postWebhook(raw.replace('assinatura', 'assinatura '), metaSignature(raw, APP_SECRET))).statusCode).toBe(401);
    // Refused before any job was queued: nothing can store it later.
    expect(await webhookJobs(message.id)).toEqual([]);
    expect(await storedMessage(message.id)).toBeNull();
  });

  it('accepts the signed raw body at once (200) and processes it in a job', async () => {
    const message = text('5511911110001', 'Olá, tudo bem?');
    const response = await postWebhook(envelope([{ contacts: [{ profile: { name: 'Ana' }, wa_id: '5511911110001' }], messages: [message] }]));
    expect(response.statusCode).toBe(200);
    const stored = await waitUntil(() => storedMessage(message.id), 10_000, 'message stored');
    expect(stored).toMatchObject({ body: 'Olá, tudo bem?', fromMe: false });
    const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, '5511911110001'));
    expect(contact?.name).toBe('Ana');
  });

  it('stores a message whose text and sender name carry NUL and unpaired surrogates, without those characters', async () => {
    const message = text('5511911110002', 'Pedido\u0000 12\ud800\udc00 ok\udfff?');
    const response = await postWebhook(envelope([{ contacts: [{ profile: { name: 'Bi\u0000a\ud83d' }, wa_id: '5511911110002' }], messages: [message] }]));
    expect(response.statusCode).toBe(200);
    const stored = await waitUntil(() => storedMessage(message.id), 10_000, 'message stored');
    // The pair \ud800\udc00 is one real character (U+10000) and stays.
    expect(stored).toMatchObject({ body: 'Pedido 12\u{10000} ok?', fromMe: false });
    const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, '5511911110002'));
    expect(contact?.name).toBe('Bia');
  });
});

describe('batched webhook', () => {
  it('processes every entry, change, message and status of a batch; the same delivery twice stores once', async () => {
    // An agent message to acknowledge: the customer writes first (opens the window), the agent answers.
    const opener = text('5511922220000', 'Quero ajuda');
    await postWebhook(envelope([{ messages: [opener] }]));
    const ticket = await waitUntil(() => ticketOf('5511922220000'), 10_000, 'ticket');
    expect((await t.request(adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: company.admin.id })).statusCode).toBe(200);
    const sent = await t.request(adminToken, 'POST', `/messages/${ticket.id}`, { body: 'Claro, como posso ajudar?' });
    expect(sent.statusCode).toBe(201);
    const outgoing = fake.sends().at(-1)?.body;
    expect(outgoing).toMatchObject({ to: '5511922220000', type: 'text', text: { body: expect.stringContaining('Claro, como posso ajudar?') } });
    const [agentMessage] = await t.database.db.select().from(messages).where(eq(messages.id, sent.json()[0].id));
    const wamid = agentMessage?.externalId ?? '';
    expect(wamid).toMatch(/^wamid\./);

    const first = text('5511933330001', 'Primeira');
    const second = text('5511933330002', 'Segunda');
    const location = { from: '5511933330003', id: `wamid.LOC${++counter}`, timestamp: '1700000000', type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Loja' } };
    const card = {
      from: '5511933330004',
      id: `wamid.VC${++counter}`,
      timestamp: '1700000000',
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'João Silva' }, phones: [{ phone: '+55 11 95555-0000', wa_id: '5511955550000' }] }],
    };
    const reaction = { from: '5511933330001', id: `wamid.RE${++counter}`, timestamp: '1700000000', type: 'reaction', reaction: { message_id: first.id, emoji: '👍' } };
    const batch = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: fake.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: fake.phoneNumberId },
                contacts: [
                  { profile: { name: 'Primeiro' }, wa_id: '5511933330001' },
                  { profile: { name: 'Segundo' }, wa_id: '5511933330002' },
                ],
                messages: [first, second, reaction],
              },
            },
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: fake.phoneNumberId },
                statuses: [
                  { id: wamid, status: 'delivered', timestamp: '1700000001', recipient_id: '5511922220000' },
                  { id: wamid, status: 'read', timestamp: '1700000002', recipient_id: '5511922220000' },
                ],
              },
            },
          ],
        },
        { id: fake.wabaId, changes: [{ field: 'messages', value: { metadata: { phone_number_id: fake.phoneNumberId }, messages: [location, card] } }] },
      ],
    };
    const raw = JSON.stringify(batch);
    expect((await postWebhook(raw)).statusCode).toBe(200);
    expect((await postWebhook(raw)).statusCode).toBe(200);

    await waitUntil(async () => (await storedMessage(card.id)) && (await storedMessage(second.id)), 15_000, 'batch stored');
    await waitUntil(async () => (await storedMessage(wamid))?.ack === 3, 15_000, 'read ack');
    expect((await storedMessage(first.id))?.body).toBe('Primeira');
    expect(await storedMessage(location.id)).toMatchObject({ mediaType: 'locationMessage', body: expect.stringContaining('-23.55,-46.63') });
    expect(await storedMessage(card.id)).toMatchObject({ mediaType: 'vcard', body: expect.stringContaining('FN:João Silva') });
    expect(await storedMessage(reaction.id)).toBeNull();

    // A late "delivered" never undoes "read" (checked once its job has run).
    await postWebhook(envelope([{ statuses: [{ id: wamid, status: 'delivered', timestamp: '1700000003', recipient_id: '5511922220000' }] }]));
    await waitUntil(async () => (await webhookJobs('1700000003')).some((job) => job.state === 'completed'), 15_000, 'late status processed');
    expect((await storedMessage(wamid))?.ack).toBe(3);

    // Delivered twice: still one message per id, one unread each.
    const rows = await t.database.db.select({ externalId: messages.externalId }).from(messages).where(eq(messages.whatsappId, connectionId));
    for (const id of [first.id, second.id, location.id, card.id]) expect(rows.filter((row) => row.externalId === id)).toHaveLength(1);
    const [firstTicket] = await t.database.db
      .select({ unread: tickets.unreadMessages })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(contacts.number, '5511933330001'));
    expect(firstTicket?.unread).toBe(1);
  }, 40_000);
});

describe('media', () => {
  it('stores a media message at once as pending, fetches its file by id in a retried job and fills it in', async () => {
    const bytes = Buffer.from('fake-jpeg-bytes-0123456789');
    const mediaId = fake.addMedia(bytes, 'image/jpeg');
    // The first download fails: the job must retry.
    fake.failNext('/download/', 1);
    const image = { from: '5511944440000', id: `wamid.IMG${++counter}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'image', image: { id: mediaId, mime_type: 'image/jpeg', caption: 'Foto do produto' } };
    expect((await postWebhook(envelope([{ messages: [image] }]))).statusCode).toBe(200);
    const pending = await waitUntil(() => storedMessage(image.id), 20_000, 'image stored');
    expect(pending.body).toBe('Foto do produto');
    const stored = await waitUntil(async () => ((await storedMessage(image.id))?.mediaType ? storedMessage(image.id) : null), 20_000, 'image fetched');
    expect(stored).toMatchObject({ mediaType: 'image', body: 'Foto do produto', dataJson: {} });
    expect(fake.requests.filter((r) => r.includes(`/download/${mediaId}`)).length).toBeGreaterThanOrEqual(2);
    const ticket = await ticketOf('5511944440000');
    const page = (await t.request(adminToken, 'GET', `/messages/${ticket?.id}`)).json();
    const url: string = page.messages.at(-1).mediaUrl;
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.rawPayload.equals(bytes)).toBe(true);
  }, 30_000);
});

describe('24-hour customer window', () => {
  it('refuses free-form agent messages outside the window, sends templates, and says so', async () => {
    await postWebhook(envelope([{ messages: [text(OUTSIDE_NUMBER, 'Oi')] }]));
    const ticket = await waitUntil(() => ticketOf(OUTSIDE_NUMBER), 10_000, 'ticket');
    await t.request(adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: company.admin.id });
    expect((await t.request(adminToken, 'GET', `/messages/${ticket.id}/window`)).json()).toMatchObject({ required: true, open: true });

    await t.database.db.update(tickets).set({ lastCustomerMessageAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(tickets.id, ticket.id));
    expect((await t.request(adminToken, 'GET', `/messages/${ticket.id}/window`)).json()).toMatchObject({ required: true, open: false });
    const sentBefore = fake.sends().length;
    const refused = await t.request(adminToken, 'POST', `/messages/${ticket.id}`, { body: 'Ainda está aí?' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_OUTSIDE_CUSTOMER_WINDOW');
    expect(fake.sends().length).toBe(sentBefore);

    const templates = (await t.request(adminToken, 'GET', `/whatsapp/${connectionId}/templates`)).json().templates;
    expect(templates).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'order_update', language: 'pt_BR', parameters: 2 })]));
    const template = await t.request(adminToken, 'POST', `/messages/${ticket.id}/template`, { name: 'order_update', language: 'pt_BR', parameters: ['Ana', '123'] });
    expect(template.statusCode).toBe(201);
    expect(template.json()[0]).toMatchObject({ body: 'Olá Ana, seu pedido 123 saiu para entrega.', fromMe: true });
    expect(fake.sends().at(-1)?.body).toMatchObject({
      to: OUTSIDE_NUMBER,
      type: 'template',
      template: { name: 'order_update', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '123' }] }] },
    });
    const unknown = await t.request(adminToken, 'POST', `/messages/${ticket.id}/template`, { name: 'missing', language: 'pt_BR' });
    expect(unknown.statusCode).toBe(404);
  }, 30_000);
});

describe('settings and session of a Cloud API connection', () => {
  it('only super users may point a connection at another Graph API address', async () => {
    const cloudApi = { phoneNumberId: fake.phoneNumberId, wabaId: fake.wabaId, verifyToken: VERIFY_TOKEN, graphApiBaseUrl: 'http://169.254.169.254/latest' };
    const response = await t.request(adminToken, 'PUT', `/whatsapp/${connectionId}`, { cloudApi });
    expect(response.statusCode).toBe(403);
    const [row] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, connectionId));
    expect(row?.providerConfig.graphApiBaseUrl).toBe('');
    // Settings saved without new secrets keep the stored ones and are checked again.
    const saved = await t.request(adminToken, 'PUT', `/whatsapp/${connectionId}`, { cloudApi: { ...cloudApi, graphApiBaseUrl: '' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().status).toBe('CONNECTED');
  });

  it('disconnect stops sending through it; try again checks the token and reconnects', async () => {
    await postWebhook(envelope([{ messages: [text('5511966660000', 'Oi')] }]));
    const ticket = await waitUntil(() => ticketOf('5511966660000'), 10_000, 'ticket');
    await t.request(adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: company.admin.id });
    expect((await t.request(adminToken, 'DELETE', `/whatsappsession/${connectionId}`)).json().session.status).toBe('DISCONNECTED');
    const refused = await t.request(adminToken, 'POST', `/messages/${ticket.id}`, { body: 'Olá' });
    expect(refused.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    // Nor are its templates offered: they could not be sent.
    const graphCalls = fake.requests.length;
    const templates = await t.request(adminToken, 'GET', `/whatsapp/${connectionId}/templates`);
    expect(templates.statusCode).toBe(400);
    expect(templates.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect(fake.requests.length).toBe(graphCalls);
    expect((await t.request(adminToken, 'POST', `/whatsappsession/${connectionId}`)).json().session.status).toBe('CONNECTED');
    expect((await t.request(adminToken, 'POST', `/messages/${ticket.id}`, { body: 'Olá' })).statusCode).toBe(201);
  }, 20_000);
});
