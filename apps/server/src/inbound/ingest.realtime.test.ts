import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { linkQueues } from '../test/automation-harness.js';
import { storeBatch } from './ingest-batch.js';
import { lastMessagePreview } from '../modules/messages/message-preview.js';
import type { InboundMessage } from './inbound-message.js';
import { createServiceDeskFactories } from '../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/**
 * Who hears a new conversation: the real app, real sockets, the sandbox phone
 * through the real ingest. A connection with one queue puts a new ticket in it
 * when the ticket is created, so nothing about it (its first message, the bot's
 * answer, the ticket's changes) reaches a user outside that queue.
 */
let t: TestContext;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

interface Heard {
  event: string;
  payload: { action?: string; ticketId?: number; ticket?: { id: number; queueId: number | null }; message?: { ticketId: number; body: string; fromMe: boolean } };
}

/** A signed-in user's socket, once its rooms are joined (`ready`), recording every event it hears. */
async function listen(token: string): Promise<Heard[]> {
  const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
  sockets.push(socket);
  const heard: Heard[] = [];
  socket.onAny((event: string, payload: Heard['payload']) => heard.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return heard;
}

const aboutTicket = (heard: Heard[], ticketId: number) =>
  heard.filter(({ payload }) => payload?.ticketId === ticketId || payload?.ticket?.id === ticketId || payload?.message?.ticketId === ticketId);

describe('the first events of a new conversation on a connection with one queue', () => {
  it('reach the admins and the queue’s users, never a user outside the queue (batch and one-by-one paths)', async () => {
    const company = await t.factories.buildCompany();
    const sd = createServiceDeskFactories(t.database.db);
    const token = (await company.admin.login()).token;
    const sales = await t.factories.buildQueue(company.id, { name: 'Vendas' });
    const support = await t.factories.buildQueue(company.id, { name: 'Suporte' });
    const single = await sd.buildConnection(company.id);
    await linkQueues(t.database, company.id, single.id, [sales.id]);
    // The queue's option tree: the bot answers the first message with it, one more event about the ticket.
    expect((await t.request(token, 'POST', '/queue-options', { queueId: sales.id, title: 'Pedidos', message: 'Informe o pedido.' })).statusCode).toBe(201);
    const plain = await sd.buildConnection(company.id);
    const salesAgent = await t.factories.buildUser(company.id, { queueIds: [sales.id] });
    const outsider = await t.factories.buildUser(company.id, { queueIds: [support.id] });

    const admin = await listen(token);
    const inQueue = await listen((await salesAgent.login()).token);
    const outside = await listen((await outsider.login()).token);

    const say = async (whatsappId: number, from: string, body: string) => {
      const response = await t.request(token, 'POST', `/sandbox/${whatsappId}/inbound`, { from, body });
      expect(response.statusCode).toBeLessThan(300);
      return response.json<{ ticketId: number; ticketCreated: boolean }>();
    };
    // A new contact: the batch statement creates its contact and ticket.
    const fresh = await say(single.id, '5511970001001', 'Olá, quero comprar');
    // A known contact whose last ticket is closed: the one-by-one path creates the new ticket.
    const known = await sd.buildTicketContact(company.id, { number: '5511970001002' });
    await sd.buildTicket(company.id, { contactId: known.id, whatsappId: single.id, status: 'closed' });
    const returning = await say(single.id, known.number, 'Voltei');
    expect([fresh.ticketCreated, returning.ticketCreated]).toEqual([true, true]);

    // Then a conversation everyone may see (no queue): once the outsider hears it, it has heard
    // everything published before it (one socket's events arrive in the order they were sent).
    const marker = await say(plain.id, '5511970001003', 'Bom dia');
    await vi.waitFor(
      () => {
        for (const heard of [admin, inQueue, outside]) expect(aboutTicket(heard, marker.ticketId).length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 20 },
    );

    expect(aboutTicket(outside, fresh.ticketId)).toEqual([]);
    expect(aboutTicket(outside, returning.ticketId)).toEqual([]);
    for (const heard of [admin, inQueue]) {
      for (const { ticketId } of [fresh, returning]) {
        const events = aboutTicket(heard, ticketId);
        const messages = events.filter((e) => e.event === `company-${company.id}-appMessage` && e.payload.action === 'create');
        // The customer's message and the bot's answer, each with the ticket already in its queue.
        expect(messages.map((e) => [e.payload.message?.fromMe, e.payload.ticket?.queueId])).toEqual([
          [false, sales.id],
          [true, sales.id],
        ]);
      }
    }
  });
});

describe('a message stored just before the process died (committed, never published)', () => {
  it('reaches a connected screen when the provider delivers it again', async () => {
    const company = await t.factories.buildCompany();
    const sd = createServiceDeskFactories(t.database.db);
    const token = (await company.admin.login()).token;
    const connection = await sd.buildConnection(company.id);
    const admin = await listen(token);
    const input = (externalId: string, from: string, body: string): InboundMessage => ({
      channel: 'sandbox',
      companyId: company.id,
      whatsappId: connection.id,
      externalId,
      from,
      body,
    });
    // The crash window, on the path every provider's message takes: the batch statement commits
    // (a new conversation, then a message into it), and nothing after it runs.
    const first = input('wamid.CRASH-1', '5511970002001', 'Primeira');
    const second = input('wamid.CRASH-2', '5511970002001', 'Segunda');
    const committed: { ticketId: number }[] = [];
    for (const message of [first, second]) {
      const [outcome] = await storeBatch(t.database.sql, [{ input: message, number: message.from, preview: lastMessagePreview(message) }]);
      if (outcome?.kind !== 'stored') throw new Error(`not stored: ${outcome?.kind}`);
      committed.push(outcome);
    }

    // The provider had no answer, so it delivers both again (here as the sandbox phone would).
    for (const message of [first, second]) {
      const response = await t.request(token, 'POST', `/sandbox/${connection.id}/inbound`, { from: message.from, id: message.externalId, body: message.body });
      expect(response.json()).toMatchObject({ duplicate: true });
    }
    await vi.waitFor(
      () => {
        const created = admin.filter((e) => e.event === `company-${company.id}-appMessage` && e.payload.action === 'create');
        expect(created.map((e) => [e.payload.message?.body, e.payload.ticket?.id])).toEqual([
          ['Primeira', committed[0]?.ticketId],
          ['Segunda', committed[0]?.ticketId],
        ]);
      },
      { timeout: 10_000, interval: 20 },
    );
    // Stored once each, whatever the redelivery announced.
    const history = (await t.request(token, 'GET', `/messages/${committed[0]?.ticketId}`)).json<{ messages: { body: string }[] }>();
    expect(history.messages.map((m) => m.body)).toEqual(['Primeira', 'Segunda']);
  });
});
