import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { customerTextValue, metaSignature, startFakeGraphApi, webhookEnvelope, type FakeGraphApi } from '../../test/fake-graph-api.js';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { multipartForm } from '../../test/multipart.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';

/*
 * Message actions (issue 32): edit, react, forward, the v6 dashboard's message count and the
 * company's saved stickers, over HTTP against the real app, through the sandbox channel (what it
 * hands the simulated phone) and the Cloud API (a local fake Graph API).
 */

const APP_SECRET = 'actions-app-secret';
let fake: FakeGraphApi;
let t: ChannelTestContext;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;
let other: BuiltUser;
let otherToken: string;
let sandboxId: number;
let cloudId: number;
let counter = 0;
const updates: { id: number; body: string; isEdited: boolean }[] = [];
const sd = () => createServiceDeskFactories(t.database.db);

beforeAll(async () => {
  fake = await startFakeGraphApi();
  t = await createChannelTestContext({ jobs: true, env: { GRAPH_API_BASE_URL: fake.baseUrl } });
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agent = await t.factories.buildUser(company.id, { name: 'Ana' });
  agentToken = (await agent.login()).token;
  other = await t.factories.buildUser(company.id, { name: 'Bruno' });
  otherToken = (await other.login()).token;
  sandboxId = (await t.request(adminToken, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' })).json().id;
  const cloud = await t.request(adminToken, 'POST', '/whatsapp', {
    name: 'Oficial',
    provider: 'cloud-api',
    cloudApi: { phoneNumberId: fake.phoneNumberId, wabaId: fake.wabaId, accessToken: fake.accessToken, appSecret: APP_SECRET, verifyToken: 'actions-verify-token' },
  });
  cloudId = cloud.json().id;
  t.app.services.events.on('message.updated', ({ message }) => {
    updates.push({ id: message.id, body: message.body, isEdited: message.isEdited });
  });
}, 30_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A customer writes through the sandbox; `token`'s user accepts the ticket. Answers the ticket and the customer's message ids. */
async function openTicket(number: string, token = agentToken): Promise<{ ticketId: number; customerMessageId: number }> {
  const { ticketId } = (await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from: number, body: `Oi de ${number}` })).json();
  expect((await t.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
  const page = (await t.request(token, 'GET', `/messages/${ticketId}`)).json();
  return { ticketId, customerMessageId: page.messages[0].id };
}

async function send(token: string, ticketId: number, body: string): Promise<{ id: number; body: string }> {
  const sent = await t.request(token, 'POST', `/messages/${ticketId}`, { body });
  expect(sent.statusCode).toBe(201);
  return sent.json()[0];
}

const outbox = async (number: string) => (await t.request(adminToken, 'GET', `/sandbox/${sandboxId}/outbox?number=${number}`)).json() as { body: string; mediaName: string | null }[];

describe('edit a sent text (POST /messages/edit/:messageId, PUT /messages/:id)', () => {
  it("changes the text on the phone and here, marks it edited and tells the audience; v6's whole body is accepted", async () => {
    const { ticketId } = await openTicket('5511970000001');
    const sent = await send(agentToken, ticketId, 'Valor: R$ 10');
    const edited = await t.request(agentToken, 'POST', `/messages/edit/${sent.id}`, { read: 1, fromMe: true, mediaUrl: '', body: 'Valor: R$ 12', quotedMsg: null });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: sent.id, body: 'Valor: R$ 12', isEdited: true, mediaType: 'chat' });
    expect(updates).toContainEqual({ id: sent.id, body: 'Valor: R$ 12', isEdited: true });
    expect((await outbox('5511970000001')).map((entry) => entry.body)).toContain('Valor: R$ 12');
    const again = await t.request(agentToken, 'PUT', `/messages/${sent.id}`, { body: 'Valor: R$ 15' });
    expect(again.json()).toMatchObject({ body: 'Valor: R$ 15', isEdited: true });
    const page = (await t.request(agentToken, 'GET', `/messages/${ticketId}`)).json();
    expect(page.messages.find((m: { id: number }) => m.id === sent.id)).toMatchObject({ body: 'Valor: R$ 15', isEdited: true, mediaType: 'chat' });
    // It was the conversation's last message: the ticket lists show the new text.
    expect((await t.request(agentToken, 'GET', `/tickets/${ticketId}`)).json().lastMessage).toBe('Valor: R$ 15');
  });

  it("refuses a customer's message, another agent's, an empty text, one past 15 minutes, a deleted one and one never sent", async () => {
    const { ticketId, customerMessageId } = await openTicket('5511970000002');
    expect((await t.request(agentToken, 'POST', `/messages/edit/${customerMessageId}`, { body: 'x' })).json()).toMatchObject({ error: 'ERR_MESSAGE_NOT_EDITABLE' });
    const mine = await send(agentToken, ticketId, 'Meu texto');
    const byOther = await t.request(otherToken, 'POST', `/messages/edit/${mine.id}`, { body: 'Não é meu' });
    expect([byOther.statusCode, byOther.json().error]).toEqual([403, 'ERR_NO_PERMISSION']);
    // An admin may, as for delete.
    expect((await t.request(adminToken, 'POST', `/messages/edit/${mine.id}`, { body: 'Corrigido pelo admin' })).statusCode).toBe(200);
    const empty = await t.request(agentToken, 'POST', `/messages/edit/${mine.id}`, { body: '   ' });
    expect([empty.statusCode, empty.json().error, Object.keys(empty.json().fields)]).toEqual([400, 'ERR_VALIDATION', ['body']]);

    const ticket = { companyId: company.id, id: ticketId, contactId: (await t.request(agentToken, 'GET', `/tickets/${ticketId}`)).json().contactId, whatsappId: sandboxId };
    const old = await sd().buildMessage(ticket, { fromMe: true, userId: agent.id, source: 'agent', externalId: 'OLD-1', sendStatus: 'sent', createdAt: new Date(Date.now() - 16 * 60_000) });
    const late = await t.request(agentToken, 'POST', `/messages/edit/${old.id}`, { body: 'Tarde demais' });
    expect([late.statusCode, late.json().error]).toEqual([400, 'ERR_EDIT_WINDOW_EXPIRED']);

    const gone = await send(agentToken, ticketId, 'Vou apagar');
    expect((await t.request(agentToken, 'DELETE', `/messages/${gone.id}`)).statusCode).toBe(200);
    expect((await t.request(agentToken, 'POST', `/messages/edit/${gone.id}`, { body: 'x' })).json()).toMatchObject({ error: 'ERR_MESSAGE_DELETED' });

    const pending = await sd().buildMessage(ticket, { fromMe: true, userId: agent.id, source: 'agent', sendStatus: 'pending' });
    expect((await t.request(agentToken, 'POST', `/messages/edit/${pending.id}`, { body: 'x' })).json()).toMatchObject({ error: 'ERR_MESSAGE_NOT_SENT' });
  });

  it("another company's message is not found, for edit, reaction and forward alike", async () => {
    const stranger = await t.factories.buildCompany();
    const strangerToken = (await stranger.admin.login()).token;
    const { ticketId } = await openTicket('5511970000003');
    const mine = await send(agentToken, ticketId, 'Só nosso');
    for (const [method, url, body] of [
      ['POST', `/messages/edit/${mine.id}`, { body: 'x' }],
      ['PUT', `/messages/${mine.id}`, { body: 'x' }],
      ['POST', `/messages/${mine.id}/reactions`, { type: '👍' }],
    ] as const) {
      const answer = await t.request(strangerToken, method, url, body);
      expect([url, answer.statusCode, answer.json().error]).toEqual([url, 404, 'ERR_NO_MESSAGE_FOUND']);
    }
    const strangerContact = await sd().buildContact(stranger.id, { number: '5511970000903' });
    expect((await t.request(strangerToken, 'POST', '/message/forward', { messageId: mine.id, contactId: strangerContact.id })).statusCode).toBe(404);
    // Nor may our agent forward to another company's contact.
    expect((await t.request(agentToken, 'POST', '/message/forward', { messageId: mine.id, contactId: strangerContact.id })).json()).toMatchObject({ error: 'ERR_NO_CONTACT_FOUND' });
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, mine.id));
    expect(row).toMatchObject({ body: 'Só nosso', isEdited: false, dataJson: null });
  });

  it('a Cloud API connection cannot edit (ERR_EDIT_NOT_SUPPORTED); its reactions go to Meta as type reaction', async () => {
    const number = '5511970000004';
    const raw = JSON.stringify(webhookEnvelope(fake, [customerTextValue(number, `wamid.ACT-IN${++counter}`, 'Olá')]));
    await t.app.inject({ method: 'POST', url: '/cloud-api/webhook', payload: raw, headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, APP_SECRET) } });
    const ticketId = await waitUntil(async () => {
      const [row] = await t.database.db
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(tickets.whatsappId, cloudId), eq(contacts.number, number)))
        .limit(1);
      return row?.id;
    });
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    const sent = await send(adminToken, ticketId, 'Texto oficial');
    const refused = await t.request(adminToken, 'POST', `/messages/edit/${sent.id}`, { body: 'Outro texto' });
    expect([refused.statusCode, refused.json().error]).toEqual([400, 'ERR_EDIT_NOT_SUPPORTED']);
    const customer = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages[0];
    const reacted = await t.request(adminToken, 'POST', `/messages/${customer.id}/reactions`, { type: '🙏' });
    expect(reacted.statusCode).toBe(200);
    expect(fake.sends().at(-1)?.body).toMatchObject({ to: number, type: 'reaction', reaction: { message_id: `wamid.ACT-IN${counter}`, emoji: '🙏' } });
  });
});

describe('react (POST /messages/:messageId/reactions)', () => {
  it("keeps our account's one reaction on the message (the latest wins, '' takes it back) and answers v6's reactions", async () => {
    const { customerMessageId } = await openTicket('5511970000011');
    const first = await t.request(agentToken, 'POST', `/messages/${customerMessageId}/reactions`, { type: '👍' });
    expect(first.statusCode).toBe(200);
    expect(first.json().reactions).toEqual([{ from: 'me', emoji: '👍' }]);
    const second = await t.request(otherToken, 'POST', `/messages/${customerMessageId}/reactions`, { type: '🇧🇷' });
    expect(second.json().message.dataJson.reactions).toEqual([{ from: 'me', emoji: '🇧🇷' }]);
    const removed = await t.request(agentToken, 'POST', `/messages/${customerMessageId}/reactions`, { type: '' });
    expect(removed.json().reactions).toEqual([]);
    const bad = await t.request(agentToken, 'POST', `/messages/${customerMessageId}/reactions`, { type: 'like' });
    expect([bad.statusCode, Object.keys(bad.json().fields ?? {})]).toEqual([400, ['type']]);
  });
});

describe('forward (POST /message/forward)', () => {
  it("v6's one message to one contact: a new ticket open with the agent, the text marked forwarded, signed when asked", async () => {
    const { customerMessageId } = await openTicket('5511970000021');
    const target = await sd().buildContact(company.id, { number: '5511970000022', name: 'Destino' });
    const answer = await t.request(agentToken, 'POST', '/message/forward', { messageId: customerMessageId, contactId: target.id, signMessage: true });
    expect([answer.statusCode, answer.body]).toEqual([200, expect.any(String)]);
    const [message] = answer.json().messages;
    expect(message).toMatchObject({ body: '*Ana:*\nOi de 5511970000021', fromMe: true, userId: agent.id, dataJson: { forwarded: 'forwarded' } });
    const ticket = (await t.request(agentToken, 'GET', `/tickets/${message.ticketId}`)).json();
    expect(ticket).toMatchObject({ status: 'open', userId: agent.id, contactId: target.id, whatsappId: sandboxId });
    expect((await outbox('5511970000022')).map((entry) => entry.body)).toEqual(['*Ana:*\nOi de 5511970000021']);
  });

  it('several messages (in the order written, a file sent again from storage) to several contacts; a pending ticket stops it', async () => {
    const { ticketId } = await openTicket('5511970000031');
    const form = multipartForm({ body: '', medias: { fileName: 'orcamento.pdf', mimeType: 'application/pdf', data: Buffer.from('%PDF-1.4 orçamento') } });
    const file = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { authorization: `Bearer ${agentToken}`, ...form.headers }, payload: form.payload });
    expect(file.statusCode).toBe(201);
    const text = await send(agentToken, ticketId, 'Segue o orçamento');
    const a = await sd().buildContact(company.id, { number: '5511970000032' });
    const b = await sd().buildContact(company.id, { number: '5511970000033' });
    const answer = await t.request(agentToken, 'POST', '/message/forward', { messageIds: [text.id, file.json()[0].id], contactIds: [a.id, b.id] });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().messages.map((m: { body: string; mediaName: string | null }) => m.mediaName ?? m.body)).toEqual(['orcamento.pdf', 'Segue o orçamento', 'orcamento.pdf', 'Segue o orçamento']);
    for (const number of ['5511970000032', '5511970000033']) {
      expect((await outbox(number)).map((entry) => entry.mediaName ?? entry.body)).toEqual(['orcamento.pdf', 'Segue o orçamento']);
    }

    // The contact's ticket waits in the queue: the agent must accept it first, as for any send.
    const { ticketId: waiting } = (await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511970000034', body: 'Aguardando' })).json();
    const waitingContact = (await t.request(adminToken, 'GET', `/tickets/${waiting}`)).json().contactId;
    const refused = await t.request(agentToken, 'POST', '/message/forward', { messageId: text.id, contactIds: [a.id, waitingContact] });
    expect([refused.statusCode, refused.json().error, refused.json().messages.length]).toEqual([400, 'ERR_TICKET_NOT_OPEN', 1]);
    const missing = await t.request(agentToken, 'POST', '/message/forward', { signMessage: true });
    expect([missing.statusCode, Object.keys(missing.json().fields).sort()]).toEqual([400, ['contactIds', 'messageIds']]);
  });
});

describe("v6's dashboard count (GET /messages-allMe)", () => {
  it('counts the messages of the company between two days, ours or the customers', async () => {
    // Days in the company's time zone: yesterday to tomorrow (UTC) holds today wherever it is.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const [yesterday, tomorrow] = [day(-1), day(1)];
    const count = async (query: string) => (await t.request(adminToken, 'GET', `/messages-allMe?${query}`)).json().count[0].count as number;
    const all = await count(`dateStart=2020-01-01&dateEnd=2999-12-31`);
    const ours = await count(`fromMe=true&dateStart=2020-01-01&dateEnd=2999-12-31`);
    const theirs = await count(`fromMe=false&dateStart=2020-01-01&dateEnd=2999-12-31`);
    expect(ours).toBeGreaterThan(0);
    expect(theirs).toBeGreaterThan(0);
    expect(ours + theirs).toBe(all);
    expect(await count(`dateStart=2020-01-01&dateEnd=2020-01-02`)).toBe(0);
    expect(await count(`dateStart=${yesterday}&dateEnd=${tomorrow}`)).toBe(all);
    expect((await t.request(agentToken, 'GET', `/messages-allMe?dateStart=${yesterday}&dateEnd=${tomorrow}`)).statusCode).toBe(403);
    expect((await t.request(adminToken, 'GET', '/messages-allMe?dateStart=2020-02-30&dateEnd=2020-03-01')).statusCode).toBe(400);
  });
});

describe('stickers (GET/POST /stickers, DELETE /stickers/:stickerId)', () => {
  const WEBP = Buffer.from('524946461a000000574542505650384c0d0000002f0000000000000000000000', 'hex');
  const upload = (token: string, fields: Record<string, string> = {}, mimeType = 'image/webp') => {
    const form = multipartForm({ typeArch: 'stickers', ...fields, sticker: { fileName: 'feliz.webp', mimeType, data: WEBP } });
    return t.app.inject({ method: 'POST', url: '/stickers', headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
  };

  it("saves an agent's own and the company's shared stickers; each sees the shared ones and their own; files signed", async () => {
    const own = await upload(agentToken);
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ userId: agent.id, name: 'feliz.webp', mimetype: 'image/webp' });
    const shared = await upload(agentToken, { isShared: 'true' });
    expect(shared.json().userId).toBeNull();
    const image = await t.app.inject({ method: 'GET', url: own.json().url });
    expect([image.statusCode, image.rawPayload.equals(WEBP)]).toEqual([200, true]);
    const ids = async (token: string) => ((await t.request(token, 'GET', '/stickers')).json() as { id: number }[]).map((s) => s.id);
    expect(await ids(agentToken)).toEqual([shared.json().id, own.json().id]);
    expect(await ids(otherToken)).toEqual([shared.json().id]);
    // Another agent's own sticker is not theirs to delete; a shared one is.
    expect((await t.request(otherToken, 'DELETE', `/stickers/${own.json().id}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'DELETE', `/stickers/${shared.json().id}`)).statusCode).toBe(200);
    expect(await ids(agentToken)).toEqual([own.json().id]);
    expect((await t.app.inject({ method: 'GET', url: shared.json().url })).statusCode).toBe(404);
  });

  it("v6's picker address (/public/company{id}/{path}, no token) shows the signed image, only its company's", async () => {
    const sticker = (await upload(agentToken)).json();
    expect(sticker.path).toMatch(/^stickers\/salvos\/[\w-]+$/);
    const v6 = await t.app.inject({ method: 'GET', url: `/public/company${agent.companyId}/${sticker.path}` });
    expect([v6.statusCode, v6.headers['content-type'], v6.rawPayload.equals(WEBP)]).toEqual([200, 'image/webp', true]);
    // Another company's folder, a name that is no link, and a forged signature show nothing.
    expect((await t.app.inject({ method: 'GET', url: `/public/company${agent.companyId + 1}/${sticker.path}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/public/company${agent.companyId}/stickers/salvos/feliz.webp` })).statusCode).toBe(400);
    const forged = Buffer.from(String(sticker.url).replace(/signature=[\w-]+/, 'signature=AAAA')).toString('base64url');
    expect((await t.app.inject({ method: 'GET', url: `/public/company${agent.companyId}/stickers/salvos/${forged}` })).statusCode).toBe(404);
  });

  it('an agent sends a saved sticker into a ticket (after the text, if any); one of another company is not found', async () => {
    const { ticketId } = await openTicket('5511970000041');
    const sticker = (await upload(agentToken)).json();
    const sent = await t.request(agentToken, 'POST', `/messages/${ticketId}`, { body: 'Parabéns!', stickerId: sticker.id });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().map((m: { body: string; mediaType: string; dataJson: unknown }) => [m.mediaType, m.dataJson])).toEqual([
      ['chat', null],
      ['image', { sticker: true }],
    ]);
    expect((await outbox('5511970000041')).map((entry) => entry.mediaName ?? entry.body)).toEqual(['Parabéns!', 'feliz.webp']);
    // v6's picker uploads the sticker's file with forceMediaType 'sticker'.
    const form = multipartForm({ fromMe: 'true', body: '', forceMediaType: 'sticker', stickerPath: 'stickers/salvos/x.webp', medias: { fileName: 'x.webp', mimeType: 'image/webp', data: WEBP } });
    const v6 = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { authorization: `Bearer ${agentToken}`, ...form.headers }, payload: form.payload });
    expect(v6.json().map((m: { mediaType: string; dataJson: unknown }) => [m.mediaType, m.dataJson])).toEqual([['image', { sticker: true }]]);
    const stranger = await t.factories.buildCompany();
    const strangerSticker = (await upload((await stranger.admin.login()).token)).json();
    const refused = await t.request(agentToken, 'POST', `/messages/${ticketId}`, { body: '', stickerId: strangerSticker.id });
    expect([refused.statusCode, refused.json().error]).toEqual([404, 'ERR_NO_STICKER_FOUND']);
  });

  it("refuses what is not an image, and another company's sticker is not found", async () => {
    const text = await upload(agentToken, {}, 'text/plain');
    expect([text.statusCode, text.json().error]).toEqual([400, 'ERR_INVALID_FILE_TYPE']);
    const noFile = await t.request(agentToken, 'POST', '/stickers', {});
    expect(noFile.statusCode).toBe(400);
    const mine = (await upload(agentToken, { isShared: 'true' })).json();
    const stranger = await t.factories.buildCompany();
    const strangerToken = (await stranger.admin.login()).token;
    expect((await t.request(strangerToken, 'GET', '/stickers')).json()).toEqual([]);
    expect((await t.request(strangerToken, 'DELETE', `/stickers/${mine.id}`)).json()).toMatchObject({ error: 'ERR_NO_STICKER_FOUND' });
  });
});
