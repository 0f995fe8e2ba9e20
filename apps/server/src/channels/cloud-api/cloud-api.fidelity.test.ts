import { MEDIA_PREVIEWS } from '@atende/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, outboundSends, tickets, whatsapps } from '../../platform/db/schema.js';
import { idempotencyKey } from '../../outbound/outbound-engine.js';
import { recoverStaleClaims } from '../../outbound/outbound-sweep.js';
import { queueSends } from '../../outbound/outbound.repo.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { metaSignature, startFakeGraphApi, webhookEnvelope, type FakeGraphApi } from '../../test/fake-graph-api.js';

/*
 * Channel fidelity (issue 19): every message kind, status and error Meta's Cloud
 * API documents, delivered through the signed webhook and the Graph API fake,
 * each checked on what the agent's conversation shows (`GET /messages/{ticketId}`).
 */

const APP_SECRET = 'fidelity-app-secret-0123456789';

let t: ChannelTestContext;
let fake: FakeGraphApi;
let adminToken: string;
let adminId: number;
let connectionId: number;
let counter = 0;
let numberSeed = 5511970000000;

const nextNumber = () => String(++numberSeed);
const nextId = () => `wamid.FID${++counter}`;
const now = () => String(Math.floor(Date.now() / 1000));

function postWebhook(values: Record<string, unknown>[]) {
  const raw = JSON.stringify(webhookEnvelope(fake, values));
  return t.app.inject({
    method: 'POST',
    url: '/cloud-api/webhook',
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, APP_SECRET) },
  });
}

/** One customer message (Meta's shape: from, id, timestamp, type and the type's object). */
async function receive(from: string, message: Record<string, unknown>, name = 'Cliente Teste') {
  const full = { from, id: nextId(), timestamp: now(), ...message };
  expect((await postWebhook([{ contacts: [{ wa_id: from, profile: { name } }], messages: [full] }])).statusCode).toBe(200);
  return full;
}

async function ticketOf(number: string) {
  const [row] = await t.database.db
    .select({ id: tickets.id, lastMessage: tickets.lastMessage, lastCustomerMessageAt: tickets.lastCustomerMessageAt, updatedAt: tickets.updatedAt })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, number)));
  return row ?? null;
}

interface Shown {
  id: number;
  body: string;
  source: string;
  mediaType: string | null;
  mediaUrl: string | null;
  mediaName: string | null;
  sendStatus: string | null;
  sendError: string | null;
  ack: number;
  senderName: string | null;
  dataJson: Record<string, unknown> | null;
}

/** The conversation as the agent's screen reads it. */
async function conversation(number: string): Promise<Shown[]> {
  const ticket = await waitUntil(() => ticketOf(number), 10_000, `ticket of ${number}`);
  return (await t.request(adminToken, 'GET', `/messages/${ticket.id}`)).json().messages as Shown[];
}

/** The message the agent sees for a channel id, once it satisfies `ready`. */
async function shown(number: string, externalId: string, ready: (m: Shown) => boolean = () => true): Promise<Shown> {
  return waitUntil(
    async () => {
      const [row] = await t.database.db.select({ id: messages.id }).from(messages).where(and(eq(messages.whatsappId, connectionId), eq(messages.externalId, externalId)));
      if (!row) return null;
      const found = (await conversation(number)).find((m) => m.id === row.id);
      return found && ready(found) ? found : null;
    },
    15_000,
    `message ${externalId}`,
  );
}

/** An agent's message to the customer; answers what the agent sees of it afterwards. */
async function agentSends(number: string, body: string): Promise<Shown> {
  const ticket = await waitUntil(() => ticketOf(number), 10_000, 'ticket');
  await t.request(adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: adminId });
  await t.request(adminToken, 'POST', `/messages/${ticket.id}`, { body });
  const page = (await t.request(adminToken, 'GET', `/messages/${ticket.id}`)).json().messages as Shown[];
  return page.filter((m) => m.body === body).at(-1)!;
}

async function externalIdOf(messageId: number): Promise<string> {
  const [row] = await t.database.db.select({ externalId: messages.externalId }).from(messages).where(eq(messages.id, messageId));
  return row!.externalId!;
}

beforeAll(async () => {
  fake = await startFakeGraphApi();
  t = await createChannelTestContext({ jobs: true, env: { GRAPH_API_BASE_URL: fake.baseUrl } });
  const company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  adminId = company.admin.id;
  const created = await t.request(adminToken, 'POST', '/whatsapp', {
    name: 'Oficial',
    provider: 'cloud-api',
    cloudApi: { phoneNumberId: fake.phoneNumberId, wabaId: fake.wabaId, accessToken: fake.accessToken, appSecret: APP_SECRET, verifyToken: 'fidelity-verify-token' },
  });
  expect(created.statusCode).toBe(201);
  connectionId = created.json().id;
}, 30_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('inbound message kinds', () => {
  it('text keeps the ad that brought the customer and the forwarded mark', async () => {
    const from = nextNumber();
    const message = await receive(from, {
      type: 'text',
      text: { body: 'Vi o anúncio' },
      context: { forwarded: true, frequently_forwarded: true },
      referral: { source_url: 'https://fb.me/ad1', source_type: 'ad', source_id: '120200', headline: 'Promoção de verão', body: 'Até 50% off', media_type: 'image', image_url: 'https://x/img.jpg', ctwa_clid: 'clid-1' },
    });
    const seen = await shown(from, message.id);
    expect(seen.body).toBe('Vi o anúncio');
    expect(seen.dataJson).toEqual({
      forwarded: 'frequently',
      referral: { sourceUrl: 'https://fb.me/ad1', sourceType: 'ad', sourceId: '120200', headline: 'Promoção de verão', body: 'Até 50% off', mediaType: 'image', mediaUrl: 'https://x/img.jpg', ctwaClid: 'clid-1' },
    });
  });

  it('media is shown at once as pending, then with its file; voice, sticker and file names are kept', async () => {
    const from = nextNumber();
    const voice = Buffer.from('OggS-voice-note');
    const audio = await receive(from, { type: 'audio', audio: { id: fake.addMedia(voice, 'audio/ogg; codecs=opus'), mime_type: 'audio/ogg; codecs=opus', voice: true } });
    const sticker = await receive(from, { type: 'sticker', sticker: { id: fake.addMedia(Buffer.from('RIFF-webp'), 'image/webp'), mime_type: 'image/webp', animated: false } });
    const document = await receive(from, { type: 'document', document: { id: fake.addMedia(Buffer.from('%PDF-1.4'), 'application/pdf'), mime_type: 'application/pdf', filename: 'Orçamento março.pdf', caption: 'Segue' } });
    const video = await receive(from, { type: 'video', video: { id: fake.addMedia(Buffer.from('mp4'), 'video/mp4'), mime_type: 'video/mp4', caption: 'Olha' } });

    const shownAudio = await shown(from, audio.id, (m) => m.mediaUrl !== null);
    expect(shownAudio).toMatchObject({ mediaType: 'audio', dataJson: { voice: true } });
    expect((await t.app.inject({ method: 'GET', url: shownAudio.mediaUrl! })).rawPayload.equals(voice)).toBe(true);
    expect(await shown(from, sticker.id, (m) => m.mediaUrl !== null)).toMatchObject({ mediaType: 'image', dataJson: { sticker: true } });
    expect(await shown(from, document.id, (m) => m.mediaUrl !== null)).toMatchObject({ mediaType: 'application', mediaName: 'Orçamento março.pdf', body: 'Segue' });
    expect(await shown(from, video.id, (m) => m.mediaUrl !== null)).toMatchObject({ mediaType: 'video', body: 'Olha' });
  });

  it('media without a caption names its kind in the ticket preview; a document its file name', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'image', image: { id: fake.addMedia(Buffer.from('jpeg'), 'image/jpeg'), mime_type: 'image/jpeg' } }, MEDIA_PREVIEWS.image],
      [{ type: 'audio', audio: { id: fake.addMedia(Buffer.from('mp3'), 'audio/mpeg'), mime_type: 'audio/mpeg' } }, MEDIA_PREVIEWS.audio],
      [{ type: 'audio', audio: { id: fake.addMedia(Buffer.from('OggS'), 'audio/ogg'), mime_type: 'audio/ogg', voice: true } }, MEDIA_PREVIEWS.voice],
      [{ type: 'sticker', sticker: { id: fake.addMedia(Buffer.from('RIFF'), 'image/webp'), mime_type: 'image/webp' } }, MEDIA_PREVIEWS.sticker],
      [{ type: 'video', video: { id: fake.addMedia(Buffer.from('mp4'), 'video/mp4'), mime_type: 'video/mp4' } }, MEDIA_PREVIEWS.video],
      [{ type: 'document', document: { id: fake.addMedia(Buffer.from('%PDF'), 'application/pdf'), mime_type: 'application/pdf', filename: 'nota.pdf' } }, 'nota.pdf'],
    ];
    for (const [message, preview] of cases) {
      const from = nextNumber();
      const sent = await receive(from, message);
      await shown(from, sent.id, (m) => m.mediaUrl !== null);
      expect((await ticketOf(from))?.lastMessage, String(message.type)).toBe(preview);
    }
  });

  it('a media message delivered twice is stored and downloaded once', async () => {
    const from = nextNumber();
    const mediaId = fake.addMedia(Buffer.from('jpeg-twice'), 'image/jpeg');
    const message = { from, id: nextId(), timestamp: now(), type: 'image', image: { id: mediaId, mime_type: 'image/jpeg', caption: 'Duas vezes' } };
    const downloads = () => fake.requests.filter((request) => request.endsWith(`/${mediaId}`) && !request.includes('/download/')).length;
    expect((await postWebhook([{ contacts: [{ wa_id: from, profile: { name: 'Cliente' } }], messages: [message] }])).statusCode).toBe(200);
    await shown(from, message.id, (m) => m.mediaUrl !== null);
    expect((await postWebhook([{ contacts: [{ wa_id: from, profile: { name: 'Cliente' } }], messages: [message] }])).statusCode).toBe(200);
    // The second delivery's jobs run (a later message of the same chat is shown after them).
    const later = await receive(from, { type: 'text', text: { body: 'Depois' } });
    await shown(from, later.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await conversation(from)).filter((m) => m.body === 'Duas vezes')).toHaveLength(1);
    expect(downloads()).toBe(1);
  });

  it('media WhatsApp no longer has, or that arrives corrupt, says so with the reason', async () => {
    const from = nextNumber();
    const gone = await receive(from, { type: 'image', image: { id: '999999999', mime_type: 'image/jpeg', caption: 'Foto' } });
    const corrupt = await receive(from, { type: 'image', image: { id: fake.addMedia(Buffer.from('jpeg'), 'image/jpeg'), mime_type: 'image/jpeg', sha256: 'not-the-hash' } });
    expect(await shown(from, gone.id, (m) => (m.dataJson?.media as { status?: string })?.status === 'unavailable')).toMatchObject({
      body: 'Foto',
      mediaUrl: null,
      dataJson: { media: { status: 'unavailable', reason: 'ERR_MEDIA_EXPIRED' } },
    });
    expect(await shown(from, corrupt.id, (m) => (m.dataJson?.media as { status?: string })?.status === 'unavailable')).toMatchObject({
      dataJson: { media: { status: 'unavailable', reason: 'ERR_MEDIA_CHECKSUM' } },
    });
  });

  it('location keeps its name, address and url', async () => {
    const from = nextNumber();
    const message = await receive(from, { type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Loja Centro', address: 'Rua A, 1', url: 'https://loja.example' } });
    const seen = await shown(from, message.id);
    expect(seen.mediaType).toBe('locationMessage');
    expect(seen.body).toContain('Loja Centro - Rua A, 1');
    expect(seen.dataJson).toEqual({ location: { latitude: -23.55, longitude: -46.63, name: 'Loja Centro', address: 'Rua A, 1', url: 'https://loja.example' } });
  });

  it('shared contacts keep every phone with its type, e-mails, company, addresses, birthday and URLs', async () => {
    const from = nextNumber();
    const message = await receive(from, {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Rita Lima', first_name: 'Rita' },
          phones: [
            { phone: '+55 11 3333-4444', type: 'WORK' },
            { phone: '+55 11 98888-7777', wa_id: '5511988887777', type: 'CELL' },
          ],
          emails: [{ email: 'rita@example.com', type: 'WORK' }],
          org: { company: 'Lima & Cia' },
          addresses: [{ street: 'Rua das Flores, 10', city: 'São Paulo', state: 'SP', zip: '01000-000', country: 'Brasil', country_code: 'BR', type: 'WORK' }],
          birthday: '1990-05-17',
          urls: [{ url: 'https://lima.example.com', type: 'WORK' }],
        },
      ],
    });
    const seen = await shown(from, message.id);
    expect(seen.mediaType).toBe('vcard');
    expect(seen.body).toContain('TEL;type=WORK:+55 11 3333-4444');
    expect(seen.body).toContain('EMAIL;type=WORK:rita@example.com');
    expect(seen.dataJson?.contacts).toEqual([
      {
        name: 'Rita Lima',
        phones: [
          { phone: '+55 11 3333-4444', type: 'WORK' },
          { phone: '+55 11 98888-7777', type: 'CELL', waId: '5511988887777' },
        ],
        emails: [{ email: 'rita@example.com', type: 'WORK' }],
        organization: 'Lima & Cia',
        addresses: [{ address: 'Rua das Flores, 10, São Paulo, SP, 01000-000, Brasil', type: 'WORK' }],
        birthday: '1990-05-17',
        urls: [{ url: 'https://lima.example.com', type: 'WORK' }],
      },
    ]);
    expect(seen.body).toContain('BDAY:1990-05-17');
    expect(seen.body).toContain('URL;type=WORK:https://lima.example.com');
    expect(seen.body).toContain('ADR;type=WORK:;;Rua das Flores, 10, São Paulo, SP, 01000-000, Brasil;;;;');
  });

  it('button and list replies keep their ids and descriptions; template buttons their payload', async () => {
    const from = nextNumber();
    const button = await receive(from, { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'opt-yes', title: 'Sim' } } });
    const list = await receive(from, { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Suporte', description: 'Falar com o suporte' } } });
    const template = await receive(from, { type: 'button', button: { text: 'Parar promoções', payload: 'STOP_PROMO' } });
    expect(await shown(from, button.id)).toMatchObject({ body: 'Sim', dataJson: { reply: { kind: 'button', id: 'opt-yes', title: 'Sim' } } });
    expect(await shown(from, list.id)).toMatchObject({ body: 'Suporte', dataJson: { reply: { kind: 'list', id: 'row-2', title: 'Suporte', description: 'Falar com o suporte' } } });
    expect(await shown(from, template.id)).toMatchObject({ body: 'Parar promoções', dataJson: { button: { text: 'Parar promoções', payload: 'STOP_PROMO' } } });
  });

  it('a Flows reply shows the submitted fields', async () => {
    const from = nextNumber();
    const message = await receive(from, {
      type: 'interactive',
      interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: JSON.stringify({ flow_token: 'secret-token', nome: 'Ana', pessoas: 3 }) } },
    });
    const seen = await shown(from, message.id);
    expect(seen.body).toBe('Sent\nnome: Ana\npessoas: 3');
    expect(seen.dataJson).toEqual({ flow: { name: 'flow', fields: { nome: 'Ana', pessoas: 3 } } });
  });

  it('an order shows as a card: items, quantities and total', async () => {
    const from = nextNumber();
    const message = await receive(from, {
      type: 'order',
      order: {
        catalog_id: 'cat-1',
        text: 'Entregar à tarde',
        product_items: [
          { product_retailer_id: 'SKU-1', quantity: 2, item_price: 10.5, currency: 'BRL' },
          { product_retailer_id: 'SKU-2', quantity: 1, item_price: 5, currency: 'BRL' },
        ],
      },
    });
    const seen = await shown(from, message.id);
    expect(seen.body).toBe('Entregar à tarde\n2 × SKU-1 (BRL 10.50)\n1 × SKU-2 (BRL 5.00)\nTotal: BRL 26.00');
    expect(seen.dataJson).toEqual({
      order: {
        catalogId: 'cat-1',
        text: 'Entregar à tarde',
        items: [
          { productId: 'SKU-1', quantity: 2, price: 10.5, currency: 'BRL' },
          { productId: 'SKU-2', quantity: 1, price: 5, currency: 'BRL' },
        ],
      },
    });
  });

  it('a reaction shows on the message it reacts to, is replaced, and goes away when removed', async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Chegou?' } });
    const sent = await agentSends(from, 'Chegou sim!');
    const sentId = await externalIdOf(sent.id);
    await receive(from, { type: 'reaction', reaction: { message_id: sentId, emoji: '👍' } });
    expect((await shown(from, sentId, (m) => Boolean(m.dataJson?.reactions))).dataJson?.reactions).toEqual([{ from, emoji: '👍' }]);
    await receive(from, { type: 'reaction', reaction: { message_id: sentId, emoji: '❤️' } });
    expect((await shown(from, sentId, (m) => JSON.stringify(m.dataJson).includes('❤️'))).dataJson?.reactions).toEqual([{ from, emoji: '❤️' }]);
    await receive(from, { type: 'reaction', reaction: { message_id: sentId } });
    expect((await shown(from, sentId, (m) => (m.dataJson?.reactions as unknown[]).length === 0)).dataJson?.reactions).toEqual([]);
    // No message of its own for a reaction to a message we have.
    expect((await conversation(from)).map((m) => m.body)).toEqual(['Chegou?', 'Chegou sim!']);

    const stray = await receive(from, { type: 'reaction', reaction: { message_id: 'wamid.UNKNOWN', emoji: '😂' } });
    expect(await shown(from, stray.id)).toMatchObject({ body: '😂', dataJson: { reaction: { emoji: '😂', messageId: 'wamid.UNKNOWN' } } });
  });

  it('a number change updates the contact and shows a system line the bot does not answer', async () => {
    const from = nextNumber();
    const newNumber = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    const ticket = await waitUntil(() => ticketOf(from), 10_000, 'ticket');
    const message = await receive(from, { type: 'system', system: { body: 'Cliente mudou de número', new_wa_id: newNumber, type: 'customer_changed_number' } });
    const seen = await waitUntil(async () => {
      const page = (await t.request(adminToken, 'GET', `/messages/${ticket.id}`)).json().messages as Shown[];
      return page.find((m) => m.source === 'system') ?? null;
    });
    expect(seen).toMatchObject({ body: 'Cliente mudou de número', dataJson: { system: { kind: 'customer_changed_number', text: 'Cliente mudou de número', newNumber } } });
    // The contact follows right after the line is stored (same webhook, next statement).
    const numberOf = async () => (await t.database.db.select({ number: contacts.number }).from(contacts).innerJoin(tickets, eq(tickets.contactId, contacts.id)).where(eq(tickets.id, ticket.id)))[0]?.number;
    expect(await waitUntil(async () => ((await numberOf()) === newNumber ? newNumber : null), 10_000, 'number change')).toBe(newNumber);
    expect(message.id).toBeTruthy();
  });

  it('an unsupported message says so with its type and error', async () => {
    const from = nextNumber();
    const message = await receive(from, { type: 'unsupported', unsupported: { type: 'edit' }, errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown' }] });
    expect(await shown(from, message.id)).toMatchObject({
      body: 'message type not supported by WhatsApp Cloud API (edit)',
      dataJson: { unsupported: { type: 'edit', code: 131051, title: 'Message type unknown' } },
    });
  });

  it('a message delivered late (older timestamp) takes its place without moving the preview, the window or the ticket back', async () => {
    const from = nextNumber();
    const newer = await receive(from, { type: 'text', text: { body: 'Mensagem nova' } });
    await shown(from, newer.id);
    const before = (await ticketOf(from))!;
    const late = { from, id: nextId(), timestamp: String(Number(now()) - 3600), type: 'text', text: { body: 'Mensagem antiga' } };
    await postWebhook([{ messages: [late] }]);
    await shown(from, late.id);
    const after = (await ticketOf(from))!;
    expect(after.lastMessage).toBe('Mensagem nova');
    expect(after.lastCustomerMessageAt?.getTime()).toBe(before.lastCustomerMessageAt?.getTime());
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    expect((await conversation(from)).map((m) => m.body)).toEqual(['Mensagem antiga', 'Mensagem nova']);
  });
});

describe('groups (group_id)', () => {
  const groupMessage = (from: string, group: string, body: string) => ({ from, group_id: group, id: nextId(), timestamp: now(), type: 'text', text: { body } });
  const allowGroups = async () => expect((await t.request(adminToken, 'PUT', '/settings/CheckMsgIsGroup', { value: 'disabled' })).statusCode).toBe(200);

  it('are ignored while the company ignores groups (the default): no ticket, not even for the member', async () => {
    const group = fake.addGroup('Grupo ignorado');
    const member = nextNumber();
    const message = groupMessage(member, group, 'Alguém aí?');
    expect((await postWebhook([{ contacts: [{ wa_id: member, profile: { name: 'Carla' } }], messages: [message] }])).statusCode).toBe(200);
    // A later private message of the same member is stored: the group's was skipped, not left waiting.
    const after = await receive(member, { type: 'text', text: { body: 'Oi, no privado' } }, 'Carla');
    await shown(member, after.id);
    expect(await ticketOf(group)).toBeNull();
    expect((await conversation(member)).map((m) => m.body)).toEqual(['Oi, no privado']);
    expect(fake.requests.some((request) => request.endsWith(group))).toBe(false);
  });

  it("a group's messages land on one group ticket named after the group, each with its member's name; the reply goes to the group", async () => {
    await allowGroups();
    const group = fake.addGroup('Equipe de Compras');
    const [ana, bruno] = [nextNumber(), nextNumber()];
    const first = groupMessage(ana, group, 'Bom dia, pessoal');
    const second = groupMessage(bruno, group, 'Precisamos do orçamento');
    expect((await postWebhook([{ contacts: [{ wa_id: ana, profile: { name: 'Ana' } }], messages: [first] }])).statusCode).toBe(200);
    await shown(group, first.id);
    expect((await postWebhook([{ contacts: [{ wa_id: bruno, profile: { name: 'Bruno' } }], messages: [second] }])).statusCode).toBe(200);
    await shown(group, second.id);

    const ticket = (await ticketOf(group))!;
    const detail = (await t.request(adminToken, 'GET', `/tickets/${ticket.id}`)).json();
    expect(detail).toMatchObject({ isGroup: true, contact: { name: 'Equipe de Compras', number: group, isGroup: true } });
    expect((await conversation(group)).map((m) => [m.body, m.senderName])).toEqual([
      ['Bom dia, pessoal', 'Ana'],
      ['Precisamos do orçamento', 'Bruno'],
    ]);
    // The members get no ticket of their own, and the group's name was asked of the Graph API once.
    expect(await ticketOf(ana)).toBeNull();
    expect(await ticketOf(bruno)).toBeNull();
    expect(fake.requests.filter((request) => request === `GET /v21.0/${group}`)).toHaveLength(1);

    const reply = await agentSends(group, 'Segue o orçamento');
    expect(reply.sendStatus).not.toBe('failed');
    const sent = fake.sends().at(-1)!.body;
    expect(sent).toMatchObject({ recipient_type: 'group', to: group, type: 'text', text: { body: expect.stringContaining('Segue o orçamento') } });
    // Meta's statuses of a group send name the group as recipient.
    const externalId = await externalIdOf(reply.id);
    await postWebhook([{ statuses: [{ id: externalId, recipient_id: group, recipient_type: 'group', status: 'delivered', timestamp: now() }] }]);
    expect((await shown(group, externalId, (m) => m.ack === 2)).ack).toBe(2);
  });

  it('a member without a profile name is shown by number; a group whose info Meta does not give keeps its id as name', async () => {
    await allowGroups();
    const group = 'Y2FwaV9ncm91cDp1bmtub3du';
    const member = nextNumber();
    const message = groupMessage(member, group, 'Olá');
    expect((await postWebhook([{ messages: [message] }])).statusCode).toBe(200);
    const seen = await shown(group, message.id);
    expect(seen.senderName).toBe(member);
    const ticket = (await ticketOf(group))!;
    expect((await t.request(adminToken, 'GET', `/tickets/${ticket.id}`)).json()).toMatchObject({ isGroup: true, contact: { number: group, isGroup: true } });
  });
});

describe('statuses and errors', () => {
  it('statuses move the ticks forward only; failed marks the message failed with the reason; delivered after failed wins', async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    const first = await agentSends(from, 'Primeira');
    const second = await agentSends(from, 'Segunda');
    const firstId = await externalIdOf(first.id);
    const secondId = await externalIdOf(second.id);
    const status = (id: string, value: string, errors?: unknown[]) => ({ id, status: value, timestamp: now(), recipient_id: from, ...(errors ? { errors } : {}) });

    await postWebhook([{ statuses: [status(firstId, 'read'), status(firstId, 'delivered'), status(firstId, 'sent')] }]);
    expect(await shown(from, firstId, (m) => m.ack === 3)).toMatchObject({ ack: 3, sendStatus: 'sent' });
    // A voice note the customer heard: played, as Baileys reports it.
    const voiceNote = await agentSends(from, 'Nota de voz');
    const voiceNoteId = await externalIdOf(voiceNote.id);
    await postWebhook([{ statuses: [status(voiceNoteId, 'played'), status(voiceNoteId, 'read')] }]);
    expect(await shown(from, voiceNoteId, (m) => m.ack === 4)).toMatchObject({ ack: 4, sendStatus: 'sent' });
    // Failed after read: delivery was proven, the failure is out of order.
    await postWebhook([{ statuses: [status(firstId, 'failed', [{ code: 131026, title: 'Message undeliverable' }])] }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await shown(from, firstId)).toMatchObject({ ack: 3, sendStatus: 'sent' });

    await postWebhook([{ statuses: [status(secondId, 'failed', [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'Receiver is incapable' } }])] }]);
    expect(await shown(from, secondId, (m) => m.sendStatus === 'failed')).toMatchObject({
      sendError: 'ERR_WA_UNDELIVERABLE',
      dataJson: { failure: { code: 131026, title: 'Message undeliverable', details: 'Receiver is incapable' } },
    });
    await postWebhook([{ statuses: [status(secondId, 'delivered')] }]);
    expect(await shown(from, secondId, (m) => m.ack === 2)).toMatchObject({ sendStatus: 'sent', sendError: null });
  });

  it('a status that overtakes the answer to its send is applied once the send stored its id', async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    const sent = await agentSends(from, 'Corrida');
    const wamid = await externalIdOf(sent.id);
    // As if the Graph API's answer (with the id) were still on its way.
    await t.database.db.update(messages).set({ externalId: null }).where(eq(messages.id, sent.id));
    await postWebhook([{ statuses: [{ id: wamid, status: 'failed', timestamp: now(), recipient_id: from, errors: [{ code: 131026, title: 'Message undeliverable' }] }] }]);
    // The first try found no send and queued the next one.
    await waitUntil(async () => {
      const retries = (await t.database.db.execute(
        sql`select 1 from pgboss.job where name = 'cloud-api-webhook' and data ->> 'attempt' = '2' and data::text like ${`%${wamid}%`}`,
      )) as unknown as { rows: unknown[] };
      return retries.rows.length > 0 ? true : null;
    }, 10_000, 'status retry');
    await t.database.db.update(messages).set({ externalId: wamid }).where(eq(messages.id, sent.id));
    expect(await shown(from, wamid, (m) => m.sendStatus === 'failed')).toMatchObject({ sendError: 'ERR_WA_UNDELIVERABLE' });
  });

  it('a send Meta took but never answered is settled by the status naming its key (biz_opaque_callback_data), not failed', async () => {
    const from = nextNumber();
    await shown(from, (await receive(from, { type: 'text', text: { body: 'Oi' } })).id);
    fake.dropAnswers(1);
    const lost = await agentSends(from, 'Resposta sem retorno');
    expect(lost.sendStatus).toBe('failed');
    const posted = fake.sends().at(-1)!.body;
    expect(posted).toMatchObject({ to: from, biz_opaque_callback_data: `message-${lost.id}` });
    await postWebhook([{ statuses: [{ id: 'wamid.TAKEN1', recipient_id: from, status: 'delivered', timestamp: now(), biz_opaque_callback_data: posted.biz_opaque_callback_data }] }]);
    const settled = await shown(from, 'wamid.TAKEN1', (m) => m.ack === 2);
    expect(settled).toMatchObject({ id: lost.id, sendStatus: 'sent', sendError: null, ack: 2 });
    // A key that names nothing of ours changes nothing.
    await postWebhook([{ statuses: [{ id: 'wamid.OTHER1', recipient_id: from, status: 'delivered', timestamp: now(), biz_opaque_callback_data: 'ob-999999999-0' }] }]);
    expect((await conversation(from)).filter((m) => m.body === 'Resposta sem retorno')).toHaveLength(1);
  });

  it('a campaign send interrupted by a crash after Meta took it is reported sent, whether its status comes before or after the sweep', async () => {
    const services = t.app.services;
    const [connection] = await services.db.select().from(whatsapps).where(eq(whatsapps.id, connectionId));
    const numbers = [nextNumber(), nextNumber()];
    for (const number of numbers) await shown(number, (await receive(number, { type: 'text', text: { body: 'Quero ofertas' } })).id);
    const sourceId = 900_000 + counter;
    await queueSends(services.db, { companyId: connection!.companyId }, numbers.map((number) => ({ kind: 'campaign' as const, sourceId, recipient: number, whatsappId: connectionId, number, items: [{ body: 'Oferta' }] })));
    const rows = await services.db.select().from(outboundSends).where(eq(outboundSends.sourceId, sourceId)).orderBy(outboundSends.id);
    const statusOf = async (id: number) => (await services.db.select().from(outboundSends).where(eq(outboundSends.id, id)))[0]!;
    // A worker claimed both and Meta took both, then the worker died before storing Meta's ids.
    const taken: { id: number; wamid: string; key: string }[] = [];
    for (const row of rows) {
      await services.db.update(outboundSends).set({ state: 'sending', attempts: 1, claimedAt: new Date(Date.now() - 60 * 60_000) }).where(eq(outboundSends.id, row.id));
      const key = idempotencyKey(row.id, 0);
      const sent = await services.channels.providerFor(connection!).send(connection!, { to: row.number, body: 'Oferta', idempotencyKey: key });
      expect(fake.sends().at(-1)!.body.biz_opaque_callback_data).toBe(key);
      taken.push({ id: row.id, wamid: sent.externalId, key });
    }
    const [first, second] = taken;
    // The first one's status comes before the sweep re-checks the claim: the sweep finds it sent.
    await postWebhook([{ statuses: [{ id: first!.wamid, recipient_id: rows[0]!.number, status: 'sent', timestamp: now(), biz_opaque_callback_data: first!.key }] }]);
    await waitUntil(async () => ((await statusOf(first!.id)).details as { confirmedItems?: number[] }).confirmedItems?.length === 1, 10_000, 'confirmed item');
    await recoverStaleClaims(services);
    expect(await statusOf(first!.id)).toMatchObject({ state: 'sent', reason: null, externalId: first!.wamid });
    expect(await statusOf(second!.id)).toMatchObject({ state: 'failed', reason: 'ERR_SEND_INTERRUPTED' });
    // The second one's comes after the sweep failed it: it becomes delivered, and so does the first.
    await postWebhook([{ statuses: [{ id: second!.wamid, recipient_id: rows[1]!.number, status: 'delivered', timestamp: now(), biz_opaque_callback_data: second!.key }] }]);
    await postWebhook([{ statuses: [{ id: first!.wamid, recipient_id: rows[0]!.number, status: 'delivered', timestamp: now(), biz_opaque_callback_data: first!.key }] }]);
    await waitUntil(async () => (await statusOf(second!.id)).state === 'delivered' && (await statusOf(first!.id)).state === 'delivered', 10_000, 'both delivered');
    expect(await statusOf(second!.id)).toMatchObject({ reason: null, externalId: second!.wamid });
  });

  it('a change-level error is kept on the connection for its admins', async () => {
    await postWebhook([{ errors: [{ code: 130429, title: 'Rate limit hit', message: '(#130429) Rate limit hit', error_data: { details: 'Cloud API message throughput has been reached.' } }] }]);
    const connection = await waitUntil(async () => {
      const shownConnection = (await t.request(adminToken, 'GET', `/whatsapp/${connectionId}`)).json();
      return shownConnection.problem ? shownConnection : null;
    });
    expect(connection).toMatchObject({ status: 'CONNECTED', problem: { code: 'ERR_WA_RATE_LIMITED', detail: 'Rate limit hit: Cloud API message throughput has been reached.' } });
  });

  it('130429 on send is waited out and retried; when it persists, and for 131026, the message fails with a clear reason', async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    const sentBefore = fake.sends().length;
    fake.failSends(130429, 2);
    expect(await agentSends(from, 'Depois da espera')).toMatchObject({ sendStatus: 'sent', sendError: null });
    expect(fake.sends().length - sentBefore).toBe(3);

    fake.failSends(130429, 3);
    expect(await agentSends(from, 'Limite persistente')).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WA_RATE_LIMITED' });
    fake.failSends(131026, 1);
    expect(await agentSends(from, 'Número incapaz')).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WA_UNDELIVERABLE' });
  });

  it("Meta's temporary failures (5xx, codes 2 and 131000) are retried; when they persist the send answers 503 and the message keeps Meta's title and details", async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    for (const [code, status] of [[2, 503], [131000, 500], [1, 500]] as const) {
      const before = fake.sends().length;
      fake.failSends(code, 2, status);
      expect(await agentSends(from, `Depois da falha ${code}`), `code ${code}`).toMatchObject({ sendStatus: 'sent', sendError: null });
      expect(fake.sends().length - before, `code ${code}`).toBe(3);
    }

    const ticket = await waitUntil(() => ticketOf(from), 10_000, 'ticket');
    fake.failSends(131000, 3, 500);
    const answer = await t.request(adminToken, 'POST', `/messages/${ticket.id}`, { body: 'Falha persistente' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ error: 'ERR_WA_UNAVAILABLE', failure: { code: 131000, title: '(#131000) Error 131000', details: 'Details of error 131000' } });
    const [failed] = (await conversation(from)).filter((m) => m.body === 'Falha persistente');
    expect(failed).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WA_UNAVAILABLE', dataJson: { failure: { code: 131000, title: '(#131000) Error 131000', details: 'Details of error 131000' } } });

    // A refusal for good is not repeated, and keeps what Meta said too.
    const before = fake.sends().length;
    fake.failSends(131026, 1);
    expect(await agentSends(from, 'Número incapaz')).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WA_UNDELIVERABLE', dataJson: { failure: { code: 131026, details: 'Details of error 131026' } } });
    expect(fake.sends().length - before).toBe(1);
  });

  it("keeps what Meta bills for a send: the statuses' conversation and pricing", async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    const sent = await agentSends(from, 'Cobrada');
    const id = await externalIdOf(sent.id);
    const expires = Math.floor(Date.UTC(2026, 10, 29, 12) / 1000);
    await postWebhook([
      {
        statuses: [
          {
            id,
            status: 'sent',
            timestamp: now(),
            recipient_id: from,
            conversation: { id: 'conv-1', expiration_timestamp: String(expires), origin: { type: 'service' } },
            pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
          },
          { id, status: 'delivered', timestamp: now(), recipient_id: from, conversation: { id: 'conv-1', origin: { type: 'service' } }, pricing: { billable: false, pricing_model: 'PMP', category: 'service' } },
        ],
      },
    ]);
    const shownSend = await shown(from, id, (m) => m.ack === 2);
    expect(shownSend.dataJson?.billing).toEqual({
      conversationId: 'conv-1',
      conversationCategory: 'service',
      conversationExpiresAt: '2026-11-29T12:00:00.000Z',
      billable: false,
      pricingModel: 'PMP',
      pricingCategory: 'service',
    });
  });

  it("keeps Meta's message_status of a send", async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    const ticket = await waitUntil(() => ticketOf(from), 10_000, 'ticket');
    await t.request(adminToken, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: adminId });
    fake.templates.push({ name: 'hello', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Olá!' }] });
    const template = await t.request(adminToken, 'POST', `/messages/${ticket.id}/template`, { name: 'hello', language: 'pt_BR', parameters: [] });
    expect(template.statusCode).toBe(201);
    const [row] = await t.database.db.select({ dataJson: messages.dataJson }).from(messages).where(eq(messages.id, template.json()[0].id));
    expect(row?.dataJson).toEqual({ channelStatus: 'accepted' });
  });

  it('a revoked token (190) fails the send and disconnects the connection with the reason', async () => {
    const from = nextNumber();
    await receive(from, { type: 'text', text: { body: 'Oi' } });
    fake.revokeToken();
    expect(await agentSends(from, 'Token vencido')).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WA_TOKEN_INVALID' });
    const connection = (await t.request(adminToken, 'GET', `/whatsapp/${connectionId}`)).json();
    expect(connection).toMatchObject({ status: 'DISCONNECTED', problem: { code: 'ERR_WA_TOKEN_INVALID' } });
  });
});
