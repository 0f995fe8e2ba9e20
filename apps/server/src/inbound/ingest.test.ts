import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets } from '../platform/db/schema.js';
import { createAutomationHarness, linkQueues, type AutomationHarness } from '../test/automation-harness.js';
import type { InboundMessage } from './inbound-message.js';
import { ingestMessage } from './ingest.js';
import { storeSlowly } from './ingest-steps.js';
import { inTenant } from '../platform/db/tenant.js';

let h: AutomationHarness;
let seq = 0;
const nextNumber = () => `5531970000${String(++seq).padStart(3, '0')}`;

beforeAll(async () => {
  h = await createAutomationHarness();
});
afterAll(() => h.close());

async function setup() {
  const company = await h.factories.buildCompany();
  const whatsapp = await h.desk.buildConnection(company.id);
  const inbound = (from: string, body: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
    channel: 'sandbox',
    companyId: company.id,
    whatsappId: whatsapp.id,
    from,
    body,
    externalId: `in-${++seq}`,
    ...extra,
  });
  /** Queues created through the API and offered by the connection's bot; answers their ids in the order given. */
  const offerQueues = async (names: string[]) => {
    const token = (await company.admin.login()).token;
    const queueIds: number[] = [];
    for (const name of names) {
      const response = await h.request(token, 'POST', '/queue', { name, color: `#${String(++seq).padStart(6, '0')}` });
      expect(response.statusCode).toBe(201);
      queueIds.push(response.json<{ id: number }>().id);
    }
    await linkQueues(h.database, company.id, whatsapp.id, queueIds);
    return queueIds;
  };
  return { company, whatsapp, inbound, offerQueues };
}

/** A chat's stored messages, in the order the conversation shows them. */
async function chatBodies(ticketId: number) {
  const rows = await h.database.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(asc(messages.createdAt), asc(messages.id));
  return rows.map((row) => row.body);
}

async function ticketsOf(companyId: number, number: string) {
  return h.database.db
    .select({ ticket: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(inTenant(tickets, { companyId }, eq(contacts.number, number)));
}

describe('ingest under a burst (messages stored in batches)', () => {
  it('gives each new chat one contact and one pending ticket, counted, previewed and ordered as the messages arrived', async () => {
    const { company, whatsapp, inbound } = await setup();
    const contact = await h.desk.buildTicketContact(company.id);
    const open = await h.desk.buildTicket(company.id, { contactId: contact.id, whatsappId: whatsapp.id, status: 'open', unreadMessages: 2 });
    const created: string[] = [];
    h.app.services.events.on('message.created', ({ companyId, message }) => {
      if (companyId === company.id) created.push(message.body);
    });

    const chats = Array.from({ length: 12 }, () => nextNumber());
    // Interleaved: a chat's three messages are spread through the burst, with the known contact's among them.
    const burst = [0, 1, 2].flatMap((round) => [
      ...chats.map((number) => inbound(number, `${number} #${round}`)),
      inbound(contact.number, `known #${round}`),
    ]);
    const results = await Promise.all(burst.map((message) => ingestMessage(h.app.services, message)));

    expect(results.every((r) => !r.duplicate && r.messageId !== null)).toBe(true);
    for (const number of chats) {
      const rows = await ticketsOf(company.id, number);
      expect(rows).toHaveLength(1);
      const ticket = rows[0]!.ticket;
      expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 3, lastMessage: `${number} #2` });
      expect(await chatBodies(ticket.id)).toEqual([`${number} #0`, `${number} #1`, `${number} #2`]);
      const mine = results.filter((_, i) => burst[i]!.from === number);
      expect(mine.map((r) => r.ticketCreated)).toEqual([true, false, false]);
      expect(created.filter((body) => body.startsWith(number))).toEqual([`${number} #0`, `${number} #1`, `${number} #2`]);
    }
    const [known] = await h.database.db.select().from(tickets).where(eq(tickets.id, open.id));
    expect(known).toMatchObject({ status: 'open', unreadMessages: 5, lastMessage: 'known #2' });
    expect(await chatBodies(open.id)).toEqual(['known #0', 'known #1', 'known #2']);
    expect(created).toHaveLength(burst.length);
  });

  it('stores a redelivered id once, whether it comes again in the same burst or later', async () => {
    const { company, inbound } = await setup();
    const number = nextNumber();
    const first = inbound(number, 'pedido 1');
    const results = await Promise.all([first, { ...first }, inbound(number, 'pedido 2')].map((m) => ingestMessage(h.app.services, m)));
    expect(results.map((r) => r.duplicate)).toEqual([false, true, false]);
    const again = await ingestMessage(h.app.services, { ...first });
    expect(again.duplicate).toBe(true);
    const [row] = await ticketsOf(company.id, number);
    expect(row?.ticket).toMatchObject({ unreadMessages: 2, lastMessage: 'pedido 2' });
    expect(await chatBodies(row!.ticket.id)).toEqual(['pedido 1', 'pedido 2']);
  });

  it('opens a new pending ticket for a known contact whose ticket is closed, without reopening it', async () => {
    const { company, whatsapp, inbound } = await setup();
    const contact = await h.desk.buildTicketContact(company.id);
    const closed = await h.desk.buildTicket(company.id, { contactId: contact.id, whatsappId: whatsapp.id, status: 'closed' });
    const results = await Promise.all(['voltei', 'tudo bem?'].map((body) => ingestMessage(h.app.services, inbound(contact.number, body))));
    expect(results.map((r) => r.ticketCreated)).toEqual([true, false]);
    expect(results[0]?.ticketId).toBe(results[1]?.ticketId);
    expect(results[0]?.ticketId).not.toBe(closed.id);
    const rows = await ticketsOf(company.id, contact.number);
    expect(rows.map((r) => r.ticket.status).sort()).toEqual(['closed', 'pending']);
    expect(rows.find((r) => r.ticket.status === 'pending')?.ticket).toMatchObject({ unreadMessages: 2, lastMessage: 'tudo bem?' });
  });

  it('starts the bot once on each of many new conversations arriving together', async () => {
    const { inbound, offerQueues } = await setup();
    await offerQueues(['Financeiro', 'Comercial']);
    const numbers = Array.from({ length: 8 }, () => nextNumber());
    const results = await Promise.all(numbers.map((number) => ingestMessage(h.app.services, inbound(number, 'Bom dia'))));
    for (const result of results) {
      expect(result.ticketCreated).toBe(true);
      const [ticket] = await h.database.db.select().from(tickets).where(eq(tickets.id, result.ticketId!));
      expect(ticket).toMatchObject({ amountUsedBotQueues: 1, botState: { started: true } });
      const replies = await h.database.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.ticketId, result.ticketId!), eq(messages.fromMe, true)));
      expect(replies).toHaveLength(1);
      expect(replies[0]?.body).toContain('*1* - Comercial');
    }
  });

  it('leaves a new conversation alone on a connection without a bot, and meets the bot once the connection has queues', async () => {
    const { inbound, offerQueues } = await setup();
    const number = nextNumber();
    const first = await ingestMessage(h.app.services, inbound(number, 'Oi'));
    const ticketRow = async () => (await h.database.db.select().from(tickets).where(eq(tickets.id, first.ticketId!)))[0];
    expect(await ticketRow()).toMatchObject({ status: 'pending', botState: {}, amountUsedBotQueues: 0 });

    await offerQueues(['Compras', 'Trocas']);
    await ingestMessage(h.app.services, inbound(number, 'Tem alguém aí?'));
    expect(await ticketRow()).toMatchObject({ amountUsedBotQueues: 1, botState: { started: true } });
    const replies = await h.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, first.ticketId!), eq(messages.fromMe, true)));
    expect(replies.map((r) => r.body)).toEqual([expect.stringContaining('*1* - Compras')]);
  });

  it("runs the bot on a new chat's messages in their order: the menu goes out once and the second message answers it", async () => {
    const { inbound, offerQueues } = await setup();
    const queueIds = await offerQueues(['Vendas', 'Suporte']);
    const number = nextNumber();
    const [hello] = await Promise.all(['Oi', '2'].map((body) => ingestMessage(h.app.services, inbound(number, body))));
    const [ticket] = await h.database.db.select().from(tickets).where(eq(tickets.id, hello!.ticketId!));
    // The menu lists the queues by name: 1 Suporte, 2 Vendas.
    expect(ticket?.queueId).toBe(queueIds[0]);
    const replies = await h.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, hello!.ticketId!), eq(messages.fromMe, true)));
    expect(replies.filter((r) => r.body.includes('Vendas'))).toHaveLength(1);
  });
});

describe('a new conversation on a connection with one queue', () => {
  it('is created in that queue, even when our side opened it; the bot meets the customer’s first message; groups stay without a queue', async () => {
    const { company, whatsapp, inbound } = await setup();
    const token = (await company.admin.login()).token;
    const created = await h.request(token, 'POST', '/queue', { name: 'Único', color: '#123456', greetingMessage: 'Bem-vindo ao Único!' });
    expect(created.statusCode).toBe(201);
    const only = created.json<{ id: number }>().id;
    await linkQueues(h.database, company.id, whatsapp.id, [only]);
    const ticketRow = async (id: number | null) => (await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0)))[0];
    const replies = async (ticketId: number | null) =>
      (await h.database.db.select({ body: messages.body }).from(messages).where(and(eq(messages.ticketId, ticketId ?? 0), eq(messages.source, 'bot')))).map((m) => m.body);

    // Typed on the phone to a new number (the batch creates the ticket), and to a known contact without a ticket (one by one).
    const known = await h.desk.buildTicketContact(company.id);
    const opened = await Promise.all([
      ingestMessage(h.app.services, inbound(nextNumber(), 'Olá, aqui é a loja', { fromMe: true })),
      ingestMessage(h.app.services, inbound(known.number, 'Seu pedido chegou', { fromMe: true })),
    ]);
    for (const result of opened) {
      expect(result.ticketCreated).toBe(true);
      expect(await ticketRow(result.ticketId)).toMatchObject({ status: 'pending', queueId: only, chatbot: false, botState: { startDue: true } });
      expect(await replies(result.ticketId)).toEqual([]);
    }
    const answer = await ingestMessage(h.app.services, inbound(known.number, 'Obrigado!'));
    expect(answer.ticketId).toBe(opened[1]?.ticketId);
    expect(await replies(answer.ticketId)).toEqual(['Bem-vindo ao Único!']);
    expect(await ticketRow(answer.ticketId)).toMatchObject({ queueId: only, botState: { started: true } });
    expect((await ticketRow(answer.ticketId))?.botState).not.toHaveProperty('startDue');

    expect((await h.request(token, 'PUT', '/settings/CheckMsgIsGroup', { value: 'disabled' })).statusCode).toBe(200);
    const group = await ingestMessage(h.app.services, inbound('120363000000000777', 'no grupo', { isGroup: true }));
    expect(await ticketRow(group.ticketId)).toMatchObject({ queueId: null, botState: {} });
  });

  it('an agent taking the ticket before the bot met the customer drops the bot’s start', async () => {
    const { company, inbound, offerQueues } = await setup();
    const [only] = await offerQueues(['Único']);
    const opened = await ingestMessage(h.app.services, inbound(nextNumber(), 'Olá', { fromMe: true }));
    const token = (await company.admin.login()).token;
    expect((await h.request(token, 'PUT', `/tickets/${opened.ticketId}`, { status: 'open' })).statusCode).toBe(200);
    const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, opened.ticketId!));
    expect(row).toMatchObject({ status: 'open', queueId: only });
    expect(row?.botState).not.toHaveProperty('startDue');
  });
});

describe('a message that arrives late (a webhook job re-run after a crash)', () => {
  it('takes its place in the chat by its timestamp, and the ticket keeps the newest message as preview and last customer time', async () => {
    const { company, inbound } = await setup();
    const number = nextNumber();
    const t0 = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    await ingestMessage(h.app.services, inbound(number, 'primeira', { timestamp: at(0) }));
    await ingestMessage(h.app.services, inbound(number, 'terceira', { timestamp: at(60) }));
    await ingestMessage(h.app.services, inbound(number, 'segunda', { timestamp: at(30) }));

    const [row] = await ticketsOf(company.id, number);
    expect(row?.ticket).toMatchObject({ lastMessage: 'terceira', unreadMessages: 3, lastCustomerMessageAt: at(60) });
    expect(await chatBodies(row!.ticket.id)).toEqual(['primeira', 'segunda', 'terceira']);

    // The one-by-one path (taken when a batch fails) keeps the same rule; a newer message still moves both.
    await storeSlowly(h.app.services, { input: inbound(number, 'atrasada', { timestamp: at(45) }), number, preview: 'atrasada' });
    const [afterLate] = await ticketsOf(company.id, number);
    expect(afterLate?.ticket).toMatchObject({ lastMessage: 'terceira', unreadMessages: 4, lastCustomerMessageAt: at(60) });
    await storeSlowly(h.app.services, { input: inbound(number, 'quinta', { timestamp: at(90) }), number, preview: 'quinta' });
    const [afterNew] = await ticketsOf(company.id, number);
    expect(afterNew?.ticket).toMatchObject({ lastMessage: 'quinta', unreadMessages: 5, lastCustomerMessageAt: at(90) });
    expect(await chatBodies(row!.ticket.id)).toEqual(['primeira', 'segunda', 'atrasada', 'terceira', 'quinta']);
  });
});

describe("a received message's number (the normaliser's received side)", () => {
  it('is stored as the channel gave it, digits only: never given the default country, never refused; a group id untouched', async () => {
    const { company, inbound } = await setup();
    const numberOf = async (contactId: number) => (await h.database.db.select({ number: contacts.number, isGroup: contacts.isGroup }).from(contacts).where(eq(contacts.id, contactId)))[0];
    const contactOf = async (ticketId: number | null) => (await h.database.db.select({ contactId: tickets.contactId }).from(tickets).where(eq(tickets.id, ticketId!)))[0]!.contactId;
    const received = {
      // A number an entry would complete with 55, or refuse: a channel's id is where the reply goes.
      '11912340002': { number: '11912340002', isGroup: false },
      '5215512345678': { number: '5215512345678', isGroup: false },
      '+55 31 8888-7777': { number: '553188887777', isGroup: false },
    };
    for (const [from, stored] of Object.entries(received)) {
      const result = await ingestMessage(h.app.services, inbound(from, `de ${from}`));
      expect(result.messageId, from).not.toBeNull();
      expect(await numberOf(await contactOf(result.ticketId)), from).toEqual(stored);
    }
    // Groups are ignored unless the company takes them.
    expect((await h.request((await company.admin.login()).token, 'PUT', '/settings/CheckMsgIsGroup', { value: 'disabled' })).statusCode).toBe(200);
    for (const from of ['120363025246125888', '5511999999999-1600000000']) {
      const result = await ingestMessage(h.app.services, inbound(from, 'no grupo', { isGroup: true, senderName: 'Ana' }));
      expect(result.messageId, from).not.toBeNull();
      expect(await numberOf(await contactOf(result.ticketId)), from).toEqual({ number: from, isGroup: true });
    }
    expect((await ticketsOf(company.id, '5511912340002')).length).toBe(0);
  });
});
