import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { aesEncryptGCM, hmacSign, proto, WAMessageStubType, type AnyMessageContent, type MiscMessageGenerationOptions, type WAMessage, type WASocket } from 'baileys';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSetting } from '../../modules/settings/settings.repo.js';
import { contacts, messages, tickets, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import type { BuiltCompany } from '../../test/factories.js';
import { startFakeWaWebSocket, type FakeWaWebSocket } from '../../test/fake-wa-websocket.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { hasFfmpeg } from '../voice-note.js';
import { startBaileysSession, type BaileysSession } from './baileys-session.js';

/**
 * The Baileys adapter fed with events of the shapes Baileys emits (its own event
 * emitter, on a socket connected to a local endpoint): what each kind of message
 * becomes in the ticket, and what each send asks Baileys to do.
 */

let t: ChannelTestContext;
let company: BuiltCompany;
let adminToken: string;
let ws: FakeWaWebSocket;
let session: BaileysSession;
let socket: WASocket;
let connection: WhatsappRow;
let downloads = 0;
const sentByBaileys: { jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions }[] = [];
const rejected: string[] = [];

const pn = (number: string) => `${number}@s.whatsapp.net`;
const CUSTOMER = '5511987650001';
const GROUP = '120363025555123456';

function message(id: string, content: proto.IMessage, key: Partial<WAMessage['key']> = {}, extra: Partial<WAMessage> = {}): WAMessage {
  return { key: { remoteJid: pn(CUSTOMER), fromMe: false, id, ...key }, messageTimestamp: 1_700_000_000, pushName: 'Maria', message: content, ...extra };
}

async function upsert(...list: WAMessage[]) {
  socket.ev.emit('messages.upsert', { messages: list, type: 'notify' });
  // Baileys starts buffering its events while it waits for WhatsApp's offline batch (which this
  // local endpoint never sends): release them, as that batch's end would.
  if (socket.ev.isBuffering()) socket.ev.flush();
  await session.idle();
}

async function stored(externalId: string) {
  const [row] = await t.database.db
    .select({ message: messages, number: contacts.number, contactName: contacts.name, isGroup: contacts.isGroup })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contactId))
    .where(and(eq(messages.whatsappId, connection.id), eq(messages.externalId, externalId)));
  return row ?? null;
}

beforeAll(async () => {
  t = await createChannelTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  ws = await startFakeWaWebSocket('hold');
  connection = await createServiceDeskFactories(t.database.db).buildConnection(company.id, { provider: 'beta', status: 'OPENING' });
  session = await startBaileysSession(t.app.services, {
    ref: { companyId: company.id, whatsappId: connection.id },
    hub: t.app.services.channels.baileysSessions,
    leaseNodeId: null,
    options: {
      waWebSocketUrl: ws.url,
      connectTimeoutMs: 120_000,
      downloadMedia: async (m) => {
        downloads += 1;
        // Media WhatsApp no longer serves (Baileys throws, e.g. a 410 from the media host).
        if (m.key.id?.startsWith('GONE-')) throw new Error('Failed to fetch stream from https://mmg.whatsapp.net/x: 410');
        return Buffer.from(`media-of-${m.key.id}`);
      },
    },
  });
  const current = session.currentSocket();
  if (!current) throw new Error('no socket');
  socket = current;
  // Sending and call rejection go to WhatsApp's servers, which are not here: record what is asked.
  socket.sendMessage = async (jid, content, options) => {
    sentByBaileys.push({ jid, content, options });
    return { key: { remoteJid: jid, fromMe: true, id: `OUT-${sentByBaileys.length}` }, message: {} };
  };
  socket.rejectCall = async (callId) => {
    rejected.push(callId);
  };
  socket.readMessages = async (keys) => {
    sentByBaileys.push({ jid: keys[0]?.remoteJid ?? '', content: { text: `read:${keys.map((k) => k.id).join(',')}` } });
  };
  socket.onWhatsApp = async (...numbers) => numbers.map((n) => ({ jid: pn(n.replace(/\D/g, '')), exists: !n.endsWith('0000') }));
  // Let the socket's start-up tick pass first: with credentials already paired Baileys would buffer events until WhatsApp's offline batch.
  await new Promise((resolve) => setImmediate(resolve));
  socket.ev.emit('creds.update', { me: { id: '5511940000000:2@s.whatsapp.net' } });
  socket.ev.emit('connection.update', { connection: 'open' });
  await session.idle();
}, 30_000);
afterAll(async () => {
  await session?.stop('release');
  await t?.close();
  await ws?.close();
});

describe('incoming messages, by kind', () => {
  it('text: the contact (named by its push name) and a pending ticket', async () => {
    await upsert(message('TXT-1', { conversation: 'Olá, bom dia' }));
    expect(await stored('TXT-1')).toMatchObject({ number: CUSTOMER, contactName: 'Maria', message: { body: 'Olá, bom dia', fromMe: false, source: 'customer' } });
    expect((await stored('TXT-1'))?.message.createdAt.getTime()).toBe(1_700_000_000_000);
  });

  it('a reply keeps its quote; disappearing-mode wrappers are unwrapped', async () => {
    await upsert(
      message('TXT-2', { extendedTextMessage: { text: 'Sobre isso', contextInfo: { stanzaId: 'TXT-1', participant: pn(CUSTOMER), quotedMessage: { conversation: 'Olá, bom dia' } } } }),
      message('TXT-3', { ephemeralMessage: { message: { extendedTextMessage: { text: 'Mensagem temporária' } } } }),
    );
    const quoted = await stored('TXT-1');
    expect((await stored('TXT-2'))?.message).toMatchObject({ body: 'Sobre isso', quotedMsgId: quoted?.message.id });
    expect((await stored('TXT-3'))?.message.body).toBe('Mensagem temporária');
  });

  it('media (image, audio, video, document, sticker) downloaded into the company storage', async () => {
    const before = downloads;
    await upsert(
      message('IMG-1', { imageMessage: { mimetype: 'image/jpeg', caption: 'Foto do pedido', url: 'https://mmg.whatsapp.net/x', mediaKey: Buffer.alloc(32) } }),
      message('AUD-1', { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } }),
      message('VID-1', { videoMessage: { mimetype: 'video/mp4', caption: '' } }),
      message('DOC-1', { documentWithCaptionMessage: { message: { documentMessage: { mimetype: 'application/pdf', fileName: 'boleto março.pdf', caption: 'Segue o boleto' } } } }),
      message('STK-1', { stickerMessage: { mimetype: 'image/webp' } }),
    );
    expect(downloads - before).toBe(5);
    expect((await stored('IMG-1'))?.message).toMatchObject({ mediaType: 'image', body: 'Foto do pedido', mediaName: 'image-IMG-1.jpeg' });
    expect((await stored('AUD-1'))?.message).toMatchObject({ mediaType: 'audio', dataJson: { voice: true } });
    expect((await stored('VID-1'))?.message).toMatchObject({ mediaType: 'video' });
    expect((await stored('DOC-1'))?.message).toMatchObject({ mediaType: 'application', body: 'Segue o boleto', mediaName: 'boleto_março.pdf' });
    expect((await stored('STK-1'))?.message).toMatchObject({ mediaType: 'image', dataJson: { sticker: true } });
    const image = await stored('IMG-1');
    expect(image?.message.mediaPath?.startsWith(`${company.id}/`)).toBe(true);
    const file = await t.app.inject({ method: 'GET', url: t.app.services.media.signedUrl(image?.message.mediaPath ?? '') });
    expect(file.body).toBe('media-of-IMG-1');
  });

  it('location (with its name) and contact cards; a reaction shows on its message, is replaced and taken back', async () => {
    await upsert(
      message('LOC-1', { locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' } }),
      message('VCF-1', { contactMessage: { displayName: 'João', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511955550000:+55 11 95555-0000\nEND:VCARD' } }),
      message('REA-1', { reactionMessage: { key: { remoteJid: pn(CUSTOMER), id: 'LOC-1', fromMe: false }, text: '👍' } }),
    );
    expect((await stored('LOC-1'))?.message).toMatchObject({
      mediaType: 'locationMessage',
      body: expect.stringContaining('-23.5505,-46.6333'),
      dataJson: { location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' }, reactions: [{ from: CUSTOMER, emoji: '👍' }] },
    });
    expect((await stored('VCF-1'))?.message).toMatchObject({ mediaType: 'vcard', body: expect.stringContaining('FN:João') });
    // A reaction is not a message of its own.
    expect(await stored('REA-1')).toBeNull();
    await upsert(message('REA-2', { reactionMessage: { key: { remoteJid: pn(CUSTOMER), id: 'LOC-1', fromMe: false }, text: '❤️' } }));
    expect((await stored('LOC-1'))?.message.dataJson?.reactions).toEqual([{ from: CUSTOMER, emoji: '❤️' }]);
    await upsert(message('REA-3', { reactionMessage: { key: { remoteJid: pn(CUSTOMER), id: 'LOC-1', fromMe: false }, text: '' } }));
    expect((await stored('LOC-1'))?.message.dataJson?.reactions).toEqual([]);
    // To a message we do not have: its own line, so it is not lost.
    await upsert(message('REA-4', { reactionMessage: { key: { remoteJid: pn(CUSTOMER), id: 'NOT-HERE', fromMe: true }, text: '😂' } }));
    expect((await stored('REA-4'))?.message).toMatchObject({ body: '😂', dataJson: { reaction: { emoji: '😂', messageId: 'NOT-HERE' } } });
  });

  it('media that cannot be downloaded still shows, named, with the reason; forwarded marks and picked options are kept', async () => {
    await upsert(
      message('GONE-1', { documentMessage: { mimetype: 'application/pdf', fileName: 'nota.pdf' } }),
      message('FWD-1', { extendedTextMessage: { text: 'Corrente', contextInfo: { isForwarded: true, forwardingScore: 7 } } }),
      message('BTN-1', { buttonsResponseMessage: { selectedButtonId: 'yes', selectedDisplayText: 'Sim' } }),
      message('LST-1', { listResponseMessage: { title: 'Suporte', description: 'Falar com o suporte', singleSelectReply: { selectedRowId: 'row-2' } } }),
    );
    expect((await stored('GONE-1'))?.message).toMatchObject({ body: 'nota.pdf', mediaPath: null, dataJson: { media: { status: 'unavailable', reason: 'ERR_MEDIA_DOWNLOAD' } } });
    expect((await stored('FWD-1'))?.message).toMatchObject({ body: 'Corrente', dataJson: { forwarded: 'frequently' } });
    expect((await stored('BTN-1'))?.message).toMatchObject({ body: 'Sim', dataJson: { reply: { kind: 'button', id: 'yes', title: 'Sim' } } });
    expect((await stored('LST-1'))?.message).toMatchObject({ body: 'Suporte', dataJson: { reply: { kind: 'list', id: 'row-2', title: 'Suporte', description: 'Falar com o suporte' } } });
  });

  it("a number change (WhatsApp's notice) is a system line and the contact follows", async () => {
    const old = '5511987650007';
    const next = '5511987650077';
    await upsert(message('CHG-0', { conversation: 'Oi' }, { remoteJid: pn(old) }, { pushName: 'Gil' }));
    await upsert(message('CHG-1', undefined as unknown as proto.IMessage, { remoteJid: pn(old) }, { messageStubType: WAMessageStubType.INDIVIDUAL_CHANGE_NUMBER, messageStubParameters: [pn(old), pn(next)] }));
    expect((await stored('CHG-1'))).toMatchObject({ number: next, message: { source: 'system', dataJson: { system: { kind: 'customer_changed_number', newNumber: next } } } });
  });

  it('a message typed on the phone itself is stored once, as fromMe', async () => {
    const typed = message('PHONE-1', { conversation: 'Respondi pelo celular' }, { fromMe: true }, { pushName: 'Loja' });
    await upsert(typed);
    await upsert(typed);
    const rows = await t.database.db.select().from(messages).where(eq(messages.externalId, 'PHONE-1'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ fromMe: true, source: 'phone' });
    // Our own push name never renames the customer.
    expect((await stored('PHONE-1'))?.contactName).toBe('Maria');
  });

  it('LID addressing resolves to the phone number: one person is one contact', async () => {
    await upsert(message('PN-1', { conversation: 'pelo número' }, { remoteJid: pn('5511987650002') }, { pushName: 'Bruno' }));
    await upsert(message('LID-1', { conversation: 'pelo LID' }, { remoteJid: '99887766554433@lid', remoteJidAlt: pn('5511987650002'), addressingMode: 'lid' }, { pushName: 'Bruno' }));
    await socket.signalRepository.lidMapping.storeLIDPNMappings([{ lid: '11223344556677@lid', pn: pn('5511987650003') }]);
    await upsert(message('LID-2', { conversation: 'LID sem alt' }, { remoteJid: '11223344556677@lid', addressingMode: 'lid' }, { pushName: 'Carla' }));
    expect((await stored('LID-1'))?.number).toBe('5511987650002');
    expect((await stored('LID-1'))?.message.contactId).toBe((await stored('PN-1'))?.message.contactId);
    expect((await stored('LID-2'))?.number).toBe('5511987650003');
  });

  it('groups: ignored while CheckMsgIsGroup is enabled; otherwise stored under the group with the sender name', async () => {
    socket.ev.emit('groups.upsert', [{ id: `${GROUP}@g.us`, subject: 'Equipe Vendas', participants: [], owner: undefined }]);
    const group = (id: string) => message(id, { conversation: 'Mensagem no grupo' }, { remoteJid: `${GROUP}@g.us`, participant: '55667788@lid', participantAlt: pn('5511987650004') }, { pushName: 'Dani' });
    await upsert(group('GRP-1'));
    expect(await stored('GRP-1')).toBeNull();
    await upsertSetting(t.database.db, { companyId: company.id }, 'CheckMsgIsGroup', 'disabled');
    await upsert(group('GRP-2'));
    expect(await stored('GRP-2')).toMatchObject({ number: GROUP, contactName: 'Equipe Vendas', isGroup: true, message: { senderName: 'Dani', fromMe: false } });
    const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.id, (await stored('GRP-2'))?.message.ticketId ?? 0));
    expect(ticket?.isGroup).toBe(true);
  });

  it('edits and revokes change the stored message', async () => {
    socket.ev.emit('messages.update', [{ key: { remoteJid: pn(CUSTOMER), id: 'TXT-3', fromMe: false }, update: { message: { editedMessage: { message: { conversation: 'Mensagem corrigida' } } } } }]);
    socket.ev.emit('messages.update', [{ key: { remoteJid: pn(CUSTOMER), id: 'TXT-2', fromMe: false }, update: { message: null, messageStubType: WAMessageStubType.REVOKE } }]);
    await session.idle();
    expect((await stored('TXT-3'))?.message).toMatchObject({ body: 'Mensagem corrigida', isEdited: true });
    expect((await stored('TXT-2'))?.message.isDeleted).toBe(true);
  });

  it('acks of our messages map to 1–4 and only move forward', async () => {
    const status = (value: proto.WebMessageInfo.Status) => socket.ev.emit('messages.update', [{ key: { remoteJid: pn(CUSTOMER), id: 'PHONE-1', fromMe: true }, update: { status: value } }]);
    status(proto.WebMessageInfo.Status.DELIVERY_ACK);
    await session.idle();
    expect((await stored('PHONE-1'))?.message.ack).toBe(2);
    status(proto.WebMessageInfo.Status.READ);
    status(proto.WebMessageInfo.Status.DELIVERY_ACK);
    await session.idle();
    expect((await stored('PHONE-1'))?.message.ack).toBe(3);
    status(proto.WebMessageInfo.Status.PLAYED);
    await session.idle();
    expect((await stored('PHONE-1'))?.message.ack).toBe(4);
    // An error after delivery is out of order: the message was delivered.
    status(proto.WebMessageInfo.Status.ERROR);
    await session.idle();
    expect((await stored('PHONE-1'))?.message).toMatchObject({ ack: 4, sendStatus: null });
    await upsert(message('PHONE-2', { conversation: 'Outra pelo celular' }, { fromMe: true }));
    socket.ev.emit('messages.update', [{ key: { remoteJid: pn(CUSTOMER), id: 'PHONE-2', fromMe: true }, update: { status: proto.WebMessageInfo.Status.ERROR } }]);
    await session.idle();
    expect((await stored('PHONE-2'))?.message).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
  });

  it('missed calls become call_log; with the call setting disabled the call is refused with a message', async () => {
    const caller = pn('5511987650005');
    const call = (id: string, status: 'offer' | 'timeout') => socket.ev.emit('call', [{ chatId: caller, from: caller, id, date: new Date(), offline: false, status, isVideo: false }]);
    call('CALL-1', 'offer');
    await session.idle();
    expect(await stored('call-CALL-1')).toBeNull();
    call('CALL-1', 'timeout');
    await session.idle();
    expect((await stored('call-CALL-1'))?.message).toMatchObject({ mediaType: 'call_log', fromMe: false });
    expect(rejected).toEqual([]);

    await upsertSetting(t.database.db, { companyId: company.id }, 'call', 'disabled');
    call('CALL-2', 'offer');
    await session.idle();
    expect(rejected).toEqual(['CALL-2']);
    const logged = await stored('call-CALL-2');
    expect(logged?.message.mediaType).toBe('call_log');
    // The automation answers a refused call in its ticket, through this session.
    const notice = await waitUntil(async () => {
      const rows = await t.database.db.select().from(messages).where(and(eq(messages.ticketId, logged?.message.ticketId ?? 0), eq(messages.fromMe, true)));
      return rows.find((row) => row.source === 'system');
    }, 5000, 'call notice');
    expect(sentByBaileys.some((sent) => sent.jid === caller && 'text' in sent.content && sent.content.text === notice.body)).toBe(true);
    await upsertSetting(t.database.db, { companyId: company.id }, 'call', 'enabled');
  });
});

/**
 * A customer's vote on a poll as WhatsApp sends it: the picked options' SHA-256, encrypted
 * with a key derived from the poll's secret (AES-256-GCM), as Baileys' decryptPollVote reads it.
 */
function encryptedVote(secret: Buffer, pollId: string, creator: string, voter: string, options: string[]): proto.Message.IPollEncValue {
  const selectedOptions = options.map((option) => createHash('sha256').update(option).digest());
  const plain = proto.Message.PollVoteMessage.encode({ selectedOptions }).finish();
  const sign = Buffer.concat([Buffer.from(pollId), Buffer.from(creator), Buffer.from(voter), Buffer.from('Poll Vote'), Buffer.from([1])]);
  const key = hmacSign(sign, hmacSign(secret, new Uint8Array(32)));
  const encIv = randomBytes(12);
  return { encPayload: aesEncryptGCM(plain, key, encIv, Buffer.from(`${pollId}\u0000${voter}`)), encIv };
}

describe('polls, events, native-flow replies and live locations (WhatsApp Web)', () => {
  it('a poll shows its question and options; votes count, a changed vote moves, a withdrawn one goes; its key is never shown', async () => {
    const secret = randomBytes(32);
    await upsert(message('POLL-1', { pollCreationMessageV3: { name: 'Melhor horário?', options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }], selectableOptionsCount: 1 }, messageContextInfo: { messageSecret: secret } }));
    expect((await stored('POLL-1'))?.message).toMatchObject({
      body: '📊 Melhor horário?\n- Manhã\n- Tarde',
      dataJson: { poll: { name: 'Melhor horário?', options: [{ name: 'Manhã', votes: 0 }, { name: 'Tarde', votes: 0 }], selectableCount: 1, voters: 0 } },
    });
    const vote = (id: string, voter: string, options: string[], key: Partial<WAMessage['key']> = {}) =>
      message(id, { pollUpdateMessage: { pollCreationMessageKey: { remoteJid: pn(CUSTOMER), id: 'POLL-1', fromMe: false }, vote: encryptedVote(secret, 'POLL-1', pn(CUSTOMER), voter, options), senderTimestampMs: 1_700_000_100_000 } }, key);
    await upsert(vote('VOTE-1', pn(CUSTOMER), ['Tarde']));
    const poll = async () => (await stored('POLL-1'))?.message.dataJson?.poll;
    expect(await poll()).toMatchObject({ options: [{ name: 'Manhã', votes: 0 }, { name: 'Tarde', votes: 1 }], voters: 1 });
    await upsert(vote('VOTE-2', pn(CUSTOMER), ['Manhã']));
    expect(await poll()).toMatchObject({ options: [{ name: 'Manhã', votes: 1 }, { name: 'Tarde', votes: 0 }], voters: 1 });
    // A vote is no message of its own; one that does not decrypt (another key) changes nothing.
    expect(await stored('VOTE-1')).toBeNull();
    const forged = message('VOTE-3', { pollUpdateMessage: { pollCreationMessageKey: { remoteJid: pn(CUSTOMER), id: 'POLL-1', fromMe: false }, vote: encryptedVote(randomBytes(32), 'POLL-1', pn(CUSTOMER), pn(CUSTOMER), ['Tarde']) } });
    await upsert(forged);
    expect(await poll()).toMatchObject({ options: [{ name: 'Manhã', votes: 1 }, { name: 'Tarde', votes: 0 }] });
    await upsert(vote('VOTE-4', pn(CUSTOMER), []));
    expect(await poll()).toMatchObject({ options: [{ name: 'Manhã', votes: 0 }, { name: 'Tarde', votes: 0 }], voters: 0 });
    // What the agent's screen receives: the poll, without its key or who voted.
    const ticketId = (await stored('POLL-1'))?.message.ticketId;
    const shown = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages.find((m: { body: string }) => m.body.startsWith('📊'));
    expect(shown.dataJson.poll.name).toBe('Melhor horário?');
    expect(shown.dataJson.pollSecret).toBeUndefined();
    expect(shown.dataJson.pollVotes).toBeUndefined();
  });

  it('an event invitation keeps its name, place, times, link and cancellation; a native-flow reply its name and parameters', async () => {
    await upsert(
      message('EVT-1', { eventMessage: { name: 'Visita técnica', description: 'Levar o orçamento', location: { name: 'Loja Centro', address: 'Praça da Sé' }, joinLink: 'https://call.whatsapp.com/x', startTime: 1_800_000_000, endTime: 1_800_003_600, isCanceled: true } }),
      message('NFR-1', { interactiveResponseMessage: { body: { text: 'Pedido enviado' }, nativeFlowResponseMessage: { name: 'address_message', paramsJson: '{"city":"São Paulo","zip":"01001-000"}', version: 1 } } }),
    );
    expect((await stored('EVT-1'))?.message).toMatchObject({
      body: '📅 Visita técnica',
      dataJson: { event: { name: 'Visita técnica', description: 'Levar o orçamento', location: 'Loja Centro - Praça da Sé', joinLink: 'https://call.whatsapp.com/x', startsAt: '2027-01-15T08:00:00.000Z', endsAt: '2027-01-15T09:00:00.000Z', cancelled: true } },
    });
    expect((await stored('NFR-1'))?.message).toMatchObject({ body: 'Pedido enviado', dataJson: { flow: { name: 'address_message', fields: { city: 'São Paulo', zip: '01001-000' } } } });
  });

  it("a live location's later positions move its message instead of adding lines", async () => {
    const customer = '5511987650044';
    const live = (id: string, sequence: number, latitude: number, timestamp: number) =>
      message(id, { liveLocationMessage: { degreesLatitude: latitude, degreesLongitude: -46.6333, sequenceNumber: sequence, caption: 'A caminho', accuracyInMeters: 8 } }, { remoteJid: pn(customer) }, { messageTimestamp: timestamp, pushName: 'Davi' });
    const now = Math.floor(Date.now() / 1000);
    await upsert(live('LIVE-1', 1, -23.55, now));
    await upsert(live('LIVE-2', 2, -23.56, now + 30));
    await upsert(live('LIVE-3', 3, -23.57, now + 60));
    expect(await stored('LIVE-2')).toBeNull();
    expect(await stored('LIVE-3')).toBeNull();
    expect((await stored('LIVE-1'))?.message).toMatchObject({
      mediaType: 'locationMessage',
      body: expect.stringContaining('-23.57,-46.6333'),
      dataJson: { location: { latitude: -23.57, longitude: -46.6333 }, live: { sequence: 3, updatedAt: new Date((now + 60) * 1000).toISOString(), caption: 'A caminho', accuracyMeters: 8 } },
    });
    // An update that arrives late (a lower sequence) does not move it back.
    await upsert(live('LIVE-0', 2, -23.5, now + 90));
    expect((await stored('LIVE-1'))?.message.dataJson?.location?.latitude).toBe(-23.57);
  });
});

interface WireFixture {
  name: string;
  id: string;
  /** The WebMessageInfo protobuf, base64, as WhatsApp Web delivers it (after decryption). */
  wire: string;
  expect: {
    body?: string;
    mediaType?: string;
    mediaName?: string;
    dataJson?: Record<string, unknown>;
    quotes?: string;
    senderName?: string;
    chat?: string;
    isGroup?: boolean;
    reactionOn?: string;
    emoji?: string;
  };
}

/*
 * The wire contract: messages of every kind the adapter reads, frozen as WhatsApp Web's own
 * protobuf bytes (fixtures/wire-messages.json), decoded by the installed Baileys and fed through
 * the real session. A Baileys upgrade that renames, renumbers or reshapes one of these fails here.
 */
describe('wire contract: frozen WhatsApp Web payloads through the real session', () => {
  const file = JSON.parse(readFileSync(new URL('./fixtures/wire-messages.json', import.meta.url), 'utf8')) as { fixtures: WireFixture[] };

  it('every kind decodes and is stored as it was the day it was recorded', async () => {
    await upsertSetting(t.database.db, { companyId: company.id }, 'CheckMsgIsGroup', 'disabled');
    for (const fixture of file.fixtures) await upsert(proto.WebMessageInfo.decode(Buffer.from(fixture.wire, 'base64')) as WAMessage);
    const problems: string[] = [];
    for (const { name, id, expect: wanted } of file.fixtures) {
      const check = (ok: boolean, what: string) => {
        if (!ok) problems.push(`${name}: ${what}`);
      };
      if (wanted.reactionOn) {
        const target = await stored(wanted.reactionOn);
        check(Boolean(target?.message.dataJson?.reactions?.some((reaction) => reaction.emoji === wanted.emoji)), `reaction ${wanted.emoji ?? ''} on ${wanted.reactionOn}`);
        check((await stored(id)) === null, 'a reaction is no message of its own');
        continue;
      }
      const row = await stored(id);
      if (!row) {
        problems.push(`${name}: not stored`);
        continue;
      }
      if (wanted.body !== undefined) check(row.message.body === wanted.body, `body ${JSON.stringify(row.message.body)}`);
      if (wanted.mediaType) check(row.message.mediaType === wanted.mediaType, `mediaType ${row.message.mediaType ?? 'null'}`);
      if (wanted.mediaName) check(row.message.mediaName === wanted.mediaName, `mediaName ${row.message.mediaName ?? 'null'}`);
      if (wanted.quotes) check(row.message.quotedMsgId === (await stored(wanted.quotes))?.message.id, 'quote');
      if (wanted.senderName) check(row.message.senderName === wanted.senderName, `senderName ${row.message.senderName ?? 'null'}`);
      if (wanted.chat) check(row.number === wanted.chat && row.isGroup === Boolean(wanted.isGroup), `chat ${row.number}`);
      if (wanted.dataJson) {
        try {
          expect(row.message.dataJson).toMatchObject(wanted.dataJson);
        } catch {
          problems.push(`${name}: dataJson ${JSON.stringify(row.message.dataJson)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    await upsertSetting(t.database.db, { companyId: company.id }, 'CheckMsgIsGroup', 'enabled');
  });
});

describe('outgoing through the session', () => {
  const provider = () => t.app.services.channels.providerFor(connection);

  it('an agent message in a ticket goes out as text, with its quote, and is stored with its WhatsApp id', async () => {
    const ticketId = (await stored('TXT-1'))?.message.ticketId ?? 0;
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: company.admin.id });
    const quotedId = (await stored('PHONE-1'))?.message.id;
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Como posso ajudar?', quotedMsg: { id: quotedId } });
    expect(response.statusCode).toBe(201);
    const call = sentByBaileys.at(-1);
    expect(call).toMatchObject({ jid: pn(CUSTOMER), content: { text: 'Como posso ajudar?' } });
    expect(call?.options?.quoted?.key).toMatchObject({ id: 'PHONE-1', fromMe: true, remoteJid: pn(CUSTOMER) });
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, response.json()[0].id));
    expect(row).toMatchObject({ externalId: `OUT-${sentByBaileys.length}`, ack: 1, source: 'agent' });
  });

  it('media with caption, documents with their name, groups by their group address', async () => {
    const image = await t.app.services.media.save({ companyId: company.id }, { data: Buffer.from('png-bytes'), fileName: 'foto.png', mimeType: 'image/png' });
    await provider().send(connection, { to: CUSTOMER, body: 'Veja a foto', media: image });
    expect(sentByBaileys.at(-1)).toMatchObject({ jid: pn(CUSTOMER), content: { caption: 'Veja a foto', mimetype: 'image/png' } });
    expect((sentByBaileys.at(-1)?.content as { image: Buffer }).image.toString()).toBe('png-bytes');
    const webp = await t.app.services.media.save({ companyId: company.id }, { data: Buffer.from('RIFF-webp'), fileName: 'feliz.webp', mimeType: 'image/webp' });
    await provider().send(connection, { to: CUSTOMER, body: '', media: webp, sticker: true });
    expect((sentByBaileys.at(-1)?.content as { sticker: Buffer }).sticker.toString()).toBe('RIFF-webp');
    const pdf = await t.app.services.media.save({ companyId: company.id }, { data: Buffer.from('%PDF'), fileName: 'nota fiscal.pdf', mimeType: 'application/pdf' });
    await provider().send(connection, { to: GROUP, body: '', media: pdf });
    expect(sentByBaileys.at(-1)).toMatchObject({ jid: `${GROUP}@g.us`, content: { fileName: 'nota_fiscal.pdf', mimetype: 'application/pdf' } });
  });

  it('audio goes as a voice note (Ogg/Opus via ffmpeg when present, else as plain audio)', async () => {
    const mp3 = hasFfmpeg()
      ? execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-f', 'mp3', 'pipe:1'])
      : Buffer.from('ID3-not-really-mp3');
    const audio = await t.app.services.media.save({ companyId: company.id }, { data: mp3, fileName: 'audio.mp3', mimeType: 'audio/mpeg' });
    await provider().send(connection, { to: CUSTOMER, body: '', media: audio });
    const content = sentByBaileys.at(-1)?.content as { audio: Buffer; mimetype: string; ptt: boolean };
    if (hasFfmpeg()) {
      expect(content).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true });
      expect(content.audio.subarray(0, 4).toString()).toBe('OggS');
    } else {
      expect(content).toMatchObject({ mimetype: 'audio/mpeg', ptt: false });
    }
  }, 30_000);

  it('delete for everyone, read receipts and number checks', async () => {
    await provider().deleteMessage(connection, CUSTOMER, 'OUT-1');
    expect(sentByBaileys.at(-1)).toMatchObject({ jid: pn(CUSTOMER), content: { delete: { remoteJid: pn(CUSTOMER), fromMe: true, id: 'OUT-1' } } });
    await provider().markRead(connection, CUSTOMER, ['TXT-1', 'TXT-2']);
    expect(sentByBaileys.at(-1)).toMatchObject({ content: { text: 'read:TXT-1,TXT-2' } });
    expect(await provider().checkNumber(connection, '+55 11 98765-0009')).toEqual({ exists: true, number: '5511987650009' });
    expect((await provider().checkNumber(connection, '5511987650000')).exists).toBe(false);
  });

  it("edit, react and forward (issue 32): WhatsApp Web's edit of our text, a reaction by key, a forward marked forwarded", async () => {
    const ticketId = (await stored('TXT-1'))?.message.ticketId ?? 0;
    const sent = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Preço: R$ 10' });
    const ours = sent.json()[0];
    const outId = `OUT-${sentByBaileys.length}`;
    const edited = await t.request(adminToken, 'POST', `/messages/edit/${ours.id}`, { body: 'Preço: R$ 12' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ body: 'Preço: R$ 12', isEdited: true, mediaType: 'chat' });
    expect(sentByBaileys.at(-1)).toMatchObject({ jid: pn(CUSTOMER), content: { text: 'Preço: R$ 12', edit: { remoteJid: pn(CUSTOMER), fromMe: true, id: outId } } });

    const customer = (await stored('TXT-1'))?.message.id;
    const reacted = await t.request(adminToken, 'POST', `/messages/${customer}/reactions`, { type: '❤️' });
    expect(reacted.statusCode).toBe(200);
    expect(sentByBaileys.at(-1)).toMatchObject({ jid: pn(CUSTOMER), content: { react: { text: '❤️', key: { remoteJid: pn(CUSTOMER), fromMe: false, id: 'TXT-1' } } } });
    expect(reacted.json().message.dataJson.reactions).toContainEqual({ from: 'me', emoji: '❤️' });
    // WhatsApp Web echoes our reaction back (fromMe): it replaces ours, never adds a second one.
    await upsert(message('REACT-ECHO', { reactionMessage: { key: { remoteJid: pn(CUSTOMER), id: 'TXT-1', fromMe: false }, text: '❤️' } }, { fromMe: true }));
    expect((await stored('TXT-1'))?.message.dataJson?.reactions?.filter((r) => r.from === 'me')).toEqual([{ from: 'me', emoji: '❤️' }]);

    const other = await createServiceDeskFactories(t.database.db).buildContact(company.id, { number: '5548999112233', name: 'Outro' });
    const forwarded = await t.request(adminToken, 'POST', '/message/forward', { messageId: customer, contactId: other.id });
    expect(forwarded.statusCode).toBe(200);
    expect(sentByBaileys.at(-1)).toMatchObject({ jid: pn('5548999112233'), content: { text: 'Olá, bom dia', contextInfo: { isForwarded: true } } });
    expect(forwarded.json().messages[0]).toMatchObject({ body: 'Olá, bom dia', fromMe: true, dataJson: { forwarded: 'forwarded' } });
  });

  it('a connection whose session is not open here answers ERR_WAPP_NOT_INITIALIZED', async () => {
    const [other] = await t.database.db
      .insert(whatsapps)
      .values({ companyId: company.id, name: 'Sem sessão', provider: 'beta', status: 'DISCONNECTED' })
      .returning();
    if (!other) throw new Error('no row');
    await expect(provider().send(other, { to: CUSTOMER, body: 'x' })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await expect(provider().send(other, { to: CUSTOMER, body: 'x' })).rejects.toBeInstanceOf(AppError);
  });
});
