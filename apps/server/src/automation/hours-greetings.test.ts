import { DEFAULT_SCHEDULES } from '@atende/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestMessage } from '../inbound/ingest.js';
import { contacts, tickets } from '../platform/db/schema.js';
import { createAutomationHarness, linkQueues, sandboxPhone, type AutomationHarness } from '../test/automation-harness.js';
import { automationTexts, chatbotMenuTexts } from './automation-texts.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = { ...automationTexts({ language: 'pt' }), ...chatbotMenuTexts({}) };

let h: AutomationHarness;
let seq = 0;
const nextNumber = () => `5521980000${String(++seq).padStart(3, '0')}`;

beforeAll(async () => {
  h = await createAutomationHarness();
});
afterAll(() => h.close());

/** A company with a sandbox connection; `settings` are set through the API. */
async function setup(settings: Record<string, string> = {}, connection: Record<string, unknown> = {}) {
  const company = await h.factories.buildCompany();
  const token = (await company.admin.login()).token;
  for (const [key, value] of Object.entries(settings)) {
    expect((await h.request(token, 'PUT', `/settings/${key}`, { value })).statusCode).toBe(200);
  }
  const whatsapp = await h.desk.buildConnection(company.id, connection);
  const phone = () => sandboxPhone(h, token, whatsapp.id, nextNumber());
  return { company, token, whatsapp, phone };
}

async function queue(token: string, body: Record<string, unknown>) {
  const response = await h.request(token, 'POST', '/queue', { color: `#${String(++seq).padStart(6, '0')}`, ...body });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number; name: string }>();
}

async function ticketRow(id: number | null) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0));
  if (!row) throw new Error('ticket not found');
  return row;
}

describe('a connection with one queue', () => {
  it('assigns the queue directly; the greeting goes out only with sendGreetingMessageOneQueues', async () => {
    const on = await setup({}, { greetingMessage: 'Olá {{firstName}} ({nome}), bem-vindo! Protocolo {protocolo}.' });
    const only = await queue(on.token, { name: 'Atendimento' });
    await linkQueues(h.database, on.company.id, on.whatsapp.id, [only.id]);
    const phone = on.phone();
    const { ticketId } = await phone.say('Oi', { name: 'Ana Lima' });
    expect(await phone.received()).toEqual([`Olá Ana (Ana Lima), bem-vindo! Protocolo ${ticketId}.`]);
    expect(await ticketRow(ticketId)).toMatchObject({ queueId: only.id, chatbot: false, status: 'pending' });

    const off = await setup({ sendGreetingMessageOneQueues: 'disabled' }, { greetingMessage: 'Olá!' });
    const single = await queue(off.token, { name: 'Atendimento', greetingMessage: 'Fila única' });
    await linkQueues(h.database, off.company.id, off.whatsapp.id, [single.id]);
    const quiet = off.phone();
    const created = await quiet.say('Oi');
    expect(await quiet.received()).toEqual([]);
    expect(await ticketRow(created.ticketId)).toMatchObject({ queueId: single.id, chatbot: false });
  });

  it("offers the queue's option tree straight away", async () => {
    const { company, token, whatsapp, phone } = await setup({}, { greetingMessage: 'Bem-vindo!' });
    const only = await queue(token, { name: 'Suporte' });
    await linkQueues(h.database, company.id, whatsapp.id, [only.id]);
    expect((await h.request(token, 'POST', '/queue-options', { queueId: only.id, title: 'Boleto', message: 'Segue a segunda via.' })).statusCode).toBe(201);
    const customer = phone();
    await customer.say('Oi');
    expect(await customer.received()).toEqual(['Bem-vindo!', `${AUTOMATION_TEXTS.chooseOption}\n\n*1* - Boleto\n\n${AUTOMATION_TEXTS.backAndMainMenu}`]);
    await customer.say('1');
    expect(await customer.received()).toEqual(['Segue a segunda via.']);
  });
});

// America/Sao_Paulo is UTC-3 all year.
const SUNDAY_10H = new Date('2024-06-02T13:00:00Z');
const MONDAY_09H = new Date('2024-06-03T12:00:00Z');
const MONDAY_19H = new Date('2024-06-03T22:00:00Z');
const TUESDAY_07H = new Date('2024-06-04T10:00:00Z');

describe('business hours', () => {
  it('company mode: the out-of-hours message once per closed period, then the bot inside hours', async () => {
    const { company, token, whatsapp, phone } = await setup(
      { scheduleType: 'company' },
      { greetingMessage: 'Escolha:', outOfHoursMessage: '{{ms}}, {{firstName}}! Estamos fechados. Protocolo {{protocol}}, {{hora}}.' },
    );
    expect((await h.request(token, 'PUT', `/companies/${company.id}/schedules`, { schedules: DEFAULT_SCHEDULES })).statusCode).toBe(200);
    const a = await queue(token, { name: 'Fila A' });
    const b = await queue(token, { name: 'Fila B' });
    await linkQueues(h.database, company.id, whatsapp.id, [a.id, b.id]);
    const customer = phone();
    try {
      h.setNow(SUNDAY_10H);
      const { ticketId } = await customer.say('Oi', { name: 'Ana Lima' });
      expect(await customer.received()).toEqual([`Bom dia, Ana! Estamos fechados. Protocolo ${ticketId}, 10:00:00.`]);
      await customer.say('Tem alguém aí?');
      expect(await customer.received()).toEqual([]);
      h.setNow(MONDAY_09H);
      await customer.say('Bom dia');
      expect(await customer.received()).toEqual(['Escolha:\n\n*1* - Fila A\n*2* - Fila B']);
      await customer.say('1');
      await customer.received();
      // In the queue, waiting: closing time brings one notice for the whole night.
      h.setNow(MONDAY_19H);
      await customer.say('Ainda aguardando');
      expect(await customer.received()).toEqual([`Boa noite, Ana! Estamos fechados. Protocolo ${ticketId}, 19:00:00.`]);
      h.setNow(TUESDAY_07H);
      await customer.say('Bom dia?');
      expect(await customer.received()).toEqual([]);
      const stored = (await h.request(token, 'GET', `/messages/${ticketId}`)).json().messages as { source: string; body: string }[];
      expect(stored.filter((m) => m.body.includes('fechados')).map((m) => m.source)).toEqual(['system', 'system']);
    } finally {
      h.setNow(null);
    }
  });

  it('company mode, one queue: a new conversation out of hours waits in the queue; inside hours the bot meets it as a first contact', async () => {
    const { company, token, whatsapp, phone } = await setup({ scheduleType: 'company' }, { greetingMessage: 'Bem-vindo!', outOfHoursMessage: 'Fechado agora.' });
    expect((await h.request(token, 'PUT', `/companies/${company.id}/schedules`, { schedules: DEFAULT_SCHEDULES })).statusCode).toBe(200);
    const only = await queue(token, { name: 'Atendimento' });
    await linkQueues(h.database, company.id, whatsapp.id, [only.id]);
    expect((await h.request(token, 'POST', '/queue-options', { queueId: only.id, title: 'Boleto', message: 'Segue a segunda via.' })).statusCode).toBe(201);
    const customer = phone();
    try {
      h.setNow(SUNDAY_10H);
      const { ticketId } = await customer.say('Oi');
      expect(await customer.received()).toEqual(['Fechado agora.']);
      // Only the queue's users (and admins) see it meanwhile; its bot has not started.
      const waiting = await ticketRow(ticketId);
      expect(waiting).toMatchObject({ queueId: only.id, chatbot: false, amountUsedBotQueues: 0 });
      expect(waiting.botState).not.toHaveProperty('started');
      h.setNow(MONDAY_09H);
      await customer.say('Bom dia');
      expect(await customer.received()).toEqual(['Bem-vindo!', `${AUTOMATION_TEXTS.chooseOption}\n\n*1* - Boleto\n\n${AUTOMATION_TEXTS.backAndMainMenu}`]);
      expect(await ticketRow(ticketId)).toMatchObject({ queueId: only.id, chatbot: true, botState: { started: true } });
      await customer.say('1');
      expect(await customer.received()).toEqual(['Segue a segunda via.']);
    } finally {
      h.setNow(null);
    }
  });

  it("queue mode: choosing a closed queue gets that queue's message; an open one goes on", async () => {
    const { company, token, whatsapp, phone } = await setup({ scheduleType: 'queue' }, { greetingMessage: 'Escolha:' });
    const closedAllWeek = DEFAULT_SCHEDULES.map((s) => ({ ...s, startTime: '00:00', endTime: '00:00' }));
    const night = await queue(token, { name: 'Noturno', outOfHoursMessage: 'Noturno fechado agora.', schedules: closedAllWeek });
    const day = await queue(token, { name: 'Diurno', greetingMessage: 'Diurno aberto!' });
    await linkQueues(h.database, company.id, whatsapp.id, [night.id, day.id]);
    try {
      h.setNow(MONDAY_09H);
      const first = phone();
      const { ticketId } = await first.say('Oi');
      expect(await first.received()).toEqual(['Escolha:\n\n*1* - Diurno\n*2* - Noturno']);
      await first.say('2');
      expect(await first.received()).toEqual(['Noturno fechado agora.']);
      expect(await ticketRow(ticketId)).toMatchObject({ queueId: night.id, chatbot: false });
      await first.say('alô');
      expect(await first.received()).toEqual([]);
      const second = phone();
      await second.say('Oi');
      await second.received();
      await second.say('1');
      expect(await second.received()).toEqual(['Diurno aberto!']);
    } finally {
      h.setNow(null);
    }
  });
});

describe('greetings and notices on agent actions', () => {
  it('sendGreetingAccepted: accepting posts a greeting with the agent name; never for groups; off by default', async () => {
    const { company, whatsapp, phone } = await setup({ sendGreetingAccepted: 'enabled' });
    const agent = await h.factories.buildUser(company.id, { name: 'Carla Dias', profile: 'admin' });
    const agentToken = (await agent.login()).token;
    const customer = phone();
    const { ticketId } = await customer.say('Oi', { name: 'Bruno Reis' });
    try {
      h.setNow(new Date('2024-06-03T18:30:00Z'));
      expect((await h.request(agentToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    } finally {
      h.setNow(null);
    }
    expect(await customer.received()).toEqual(['Boa tarde, Bruno! Meu nome é *Carla Dias* e vou continuar o seu atendimento.']);
    const greeting = (await h.request(agentToken, 'GET', `/messages/${ticketId}`)).json().messages.at(-1);
    expect(greeting).toMatchObject({ source: 'system', fromMe: true, userId: agent.id });

    const group = await h.desk.buildTicket(company.id, { whatsappId: whatsapp.id, isGroup: true });
    await h.database.db.update(contacts).set({ isGroup: true }).where(eq(contacts.id, group.contactId));
    expect((await h.request(agentToken, 'PUT', `/tickets/${group.id}`, { status: 'open' })).statusCode).toBe(200);
    const groupMessages = (await h.request(agentToken, 'GET', `/messages/${group.id}`)).json().messages;
    expect(groupMessages).toEqual([]);

    const english = await setup({ sendGreetingAccepted: 'enabled', language: 'en' });
    const englishAgent = await h.factories.buildUser(english.company.id, { name: 'Carla Dias', profile: 'admin' });
    const englishCustomer = english.phone();
    const englishTicket = await englishCustomer.say('Hi', { name: 'Bruce Reed' });
    try {
      h.setNow(new Date('2024-06-03T18:30:00Z'));
      expect((await h.request((await englishAgent.login()).token, 'PUT', `/tickets/${englishTicket.ticketId}`, { status: 'open' })).statusCode).toBe(200);
    } finally {
      h.setNow(null);
    }
    expect(await englishCustomer.received()).toEqual(['Good afternoon, Bruce! My name is *Carla Dias* and I will continue helping you.']);

    const plain = await setup();
    const other = plain.phone();
    const created = await other.say('Oi');
    await h.request(plain.token, 'PUT', `/tickets/${created.ticketId}`, { status: 'open' });
    expect(await other.received()).toEqual([]);
  });

  it('sendMsgTransfTicket: the customer is told the queue or the agent it was transferred to', async () => {
    const { company, token, phone } = await setup({ sendMsgTransfTicket: 'enabled' });
    const billing = await queue(token, { name: 'Financeiro' });
    const customer = phone();
    const { ticketId } = await customer.say('Oi');
    await h.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    expect((await h.request(token, 'PUT', `/tickets/${ticketId}`, { queueId: billing.id })).statusCode).toBe(200);
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.transferToQueue.replace('{queue}', 'Financeiro')]);
    const colleague = await h.factories.buildUser(company.id, { name: 'Davi Melo' });
    await h.request(token, 'PUT', `/tickets/${ticketId}`, { queueId: billing.id, userId: colleague.id });
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.transferToUser.replace('{user}', 'Davi Melo')]);
  });
});

describe('calls and groups', () => {
  it('with calls disabled a caller is told to write; enabled (default) says nothing', async () => {
    const off = await setup({ call: 'disabled' });
    const caller = off.phone();
    await caller.say('', { type: 'call' });
    expect(await caller.received()).toEqual([AUTOMATION_TEXTS.callRejected]);
    const on = await setup();
    const other = on.phone();
    await other.say('', { type: 'call' });
    expect(await other.received()).toEqual([]);
  });

  it('CheckMsgIsGroup enabled (default) ignores group messages; disabled stores them without any bot', async () => {
    const ignoring = await setup();
    const result = await ingestMessage(h.app.services, {
      channel: 'sandbox',
      companyId: ignoring.company.id,
      whatsappId: ignoring.whatsapp.id,
      from: '120363000000000001',
      body: 'mensagem do grupo',
      isGroup: true,
      senderName: 'Alguém',
    });
    expect(result).toMatchObject({ ignored: true, ticketId: null, messageId: null });

    const storing = await setup({ CheckMsgIsGroup: 'disabled' }, { greetingMessage: 'Escolha:' });
    const a = await queue(storing.token, { name: 'Fila A' });
    const b = await queue(storing.token, { name: 'Fila B' });
    await linkQueues(h.database, storing.company.id, storing.whatsapp.id, [a.id, b.id]);
    const stored = await ingestMessage(h.app.services, {
      channel: 'sandbox',
      companyId: storing.company.id,
      whatsappId: storing.whatsapp.id,
      from: '120363000000000002',
      body: 'mensagem do grupo',
      isGroup: true,
    });
    expect(stored.ticketCreated).toBe(true);
    const messages = (await h.request(storing.token, 'GET', `/messages/${stored.ticketId}`)).json().messages;
    expect(messages.map((m: { source: string }) => m.source)).toEqual(['customer']);
  });
});
