import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, whatsapps } from '../../platform/db/schema.js';
import { createAutomationHarness, linkQueues, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import { startFakeTypebot, type FakeTypebot } from '../../test/fake-typebot.js';
import { ALLOW_LOOPBACK_PEERS } from '../../test/test-app.js';
import { automationTexts } from '../automation-texts.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = automationTexts({ language: 'pt' });

let h: AutomationHarness;
let typebot: FakeTypebot;
let token: string;
let companyId: number;
let whatsappId: number;
let integrationId: number;
let humans: { id: number };
let seq = 0;

beforeAll(async () => {
  typebot = await startFakeTypebot({
    start: (vars) => ({ messages: [`Olá ${String(vars.pushName)}! Sou o assistente.`], choices: ['Planos', 'Falar com atendente'] }),
    answer: (session, reply) => {
      if (session.step === 0 && reply === 'Planos') return { messages: ['Temos planos a partir de **R$ 99**.', 'Qual o seu e-mail?'], askText: true };
      if (session.step === 0 && reply === 'Falar com atendente') return { messages: ['Vou te transferir.', `#{"queueId": ${humans.id}}`] };
      if (session.step === 1) return { messages: ['Obrigado! Enviaremos a proposta.'] };
      return null;
    },
  });
  h = await createAutomationHarness({ env: { ...ALLOW_LOOPBACK_PEERS } });
  const company = await h.factories.buildCompany();
  companyId = company.id;
  token = (await company.admin.login()).token;
  humans = (await h.request(token, 'POST', '/queue', { name: 'Humanos', color: '#AA0000' })).json();
  const created = await h.request(token, 'POST', '/queueIntegration', {
    type: 'typebot',
    name: 'Bot de vendas',
    urlN8N: typebot.url,
    typebotSlug: typebot.publicId,
    typebotExpires: 5,
    typebotDelayMessage: 1500,
    typebotKeywordFinish: 'sair',
    typebotKeywordRestart: 'reiniciar',
    typebotRestartMessage: 'Recomeçando...',
    typebotUnknownMessage: 'Não entendi, escolha uma opção.',
  });
  expect(created.statusCode).toBe(201);
  integrationId = created.json().id;
  whatsappId = (await h.desk.buildConnection(company.id, { integrationId })).id;
});
afterAll(async () => {
  await h.close();
  await typebot.close();
});

const phone = () => sandboxPhone(h, token, whatsappId, `5551990000${String(++seq).padStart(3, '0')}`);
const WELCOME = ['Olá Ana! Sou o assistente.', '*1* - Planos\n*2* - Falar com atendente'];

async function ticket(id: number | null) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0));
  if (!row) throw new Error('ticket not found');
  return row;
}

describe('typebot on a connection', () => {
  it('starts a chat, continues it (a number picks a button), and hands over when the flow ends', async () => {
    const slept: number[] = [];
    Object.assign(h.app.services.automation, { delayScale: 1, sleep: async (ms: number) => void slept.push(ms) });
    try {
      const customer = phone();
      const { ticketId } = await customer.say('Oi', { name: 'Ana' });
      expect(await customer.received()).toEqual(WELCOME);
      // Typebot's delay between messages, before every message but the first.
      expect(slept).toEqual([1500]);
      expect(await ticket(ticketId)).toMatchObject({ useIntegration: true, integrationId, chatbot: true, status: 'pending' });
      await customer.say('1');
      expect(typebot.requests.at(-1)?.json).toMatchObject({ message: { type: 'text', text: 'Planos' } });
      expect(await customer.received()).toEqual(['Temos planos a partir de *R$ 99*.', 'Qual o seu e-mail?']);
      await customer.say('ana@example.com');
      expect(await customer.received()).toEqual(['Obrigado! Enviaremos a proposta.']);
      expect(await ticket(ticketId)).toMatchObject({ useIntegration: false, integrationId: null, chatbot: false, status: 'pending' });
    } finally {
      Object.assign(h.app.services.automation, { delayScale: 0 });
    }
  });

  it('a bot command transfers to a queue instead of being sent', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Oi', { name: 'Ana' });
    await customer.received();
    await customer.say('2');
    expect(await customer.received()).toEqual(['Vou te transferir.']);
    expect(await ticket(ticketId)).toMatchObject({ queueId: humans.id, status: 'pending', useIntegration: false, chatbot: false });
  });

  it('an answer the bot does not take gets the unknown message; the finish keyword hands over', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Oi', { name: 'Ana' });
    await customer.received();
    await customer.say('banana');
    expect(await customer.received()).toEqual(['Não entendi, escolha uma opção.', WELCOME[1]]);
    await customer.say('SAIR');
    expect(await customer.received()).toEqual([]);
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: false, chatbot: false });
  });

  it('the restart keyword starts over with the restart message; an expired session starts a new chat', async () => {
    const customer = phone();
    const start = new Date();
    try {
      h.setNow(start);
      const { ticketId } = await customer.say('Oi', { name: 'Ana' });
      await customer.received();
      const first = (await ticket(ticketId)).botState as { typebot?: { sessionId: string } };
      await customer.say('reiniciar');
      expect(await customer.received()).toEqual(['Recomeçando...', ...WELCOME]);
      const second = (await ticket(ticketId)).botState as { typebot?: { sessionId: string } };
      expect(second.typebot?.sessionId).not.toBe(first.typebot?.sessionId);
      // typebotExpires is 5 minutes: after 6 the old session is not continued.
      h.setNow(new Date(start.getTime() + 6 * 60_000));
      await customer.say('1');
      expect(await customer.received()).toEqual(WELCOME);
      expect(typebot.requests.at(-1)?.path).toMatch(/startChat$/);
    } finally {
      h.setNow(null);
    }
  });

  it('a queue with typebot starts it when the customer picks the queue', async () => {
    const menuConnection = await h.desk.buildConnection(companyId, { greetingMessage: 'Escolha:' });
    const withBot = (await h.request(token, 'POST', '/queue', { name: 'Com bot', color: '#00AA00', integrationId })).json<{ id: number }>();
    await linkQueues(h.database, companyId, menuConnection.id, [humans.id, withBot.id]);
    const customer = sandboxPhone(h, token, menuConnection.id, '5551999999001');
    const { ticketId } = await customer.say('Oi', { name: 'Ana' });
    expect(await customer.received()).toEqual(['Escolha:\n\n*1* - Com bot\n*2* - Humanos']);
    await customer.say('1');
    expect(await customer.received()).toEqual(WELCOME);
    expect(await ticket(ticketId)).toMatchObject({ queueId: withBot.id, useIntegration: true, chatbot: true });
  });
});

describe('typebot failures', () => {
  it('an error status or no answer in time: the customer is told and the ticket goes to the agents', async () => {
    typebot.failNext({ status: 500, json: { message: 'Internal error' } });
    const failing = phone();
    const { ticketId } = await failing.say('Oi');
    expect(await failing.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(ticketId)).toMatchObject({ status: 'pending', useIntegration: false, chatbot: false });
    await failing.say('Alô?');
    expect(await failing.received()).toEqual([]);

    const slow = phone();
    const started = await slow.say('Oi', { name: 'Ana' });
    await slow.received();
    typebot.failNext({ delayMs: 1500, json: {} });
    await slow.say('1');
    expect(await slow.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(started.ticketId)).toMatchObject({ useIntegration: false, chatbot: false });
  });

  it('an agent accepting the ticket switches the bot off', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Oi', { name: 'Ana' });
    await customer.received();
    await h.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    expect(await ticket(ticketId)).toMatchObject({ status: 'open', useIntegration: false, chatbot: false });
    const calls = typebot.requests.length;
    await customer.say('1');
    expect(typebot.requests.length).toBe(calls);
    expect(await customer.received()).toEqual([]);
  });
});

// The connection's integration is read per message: clearing it stops new bots.
afterAll(async () => {
  await h.database.db.update(whatsapps).set({ integrationId: null }).where(eq(whatsapps.id, whatsappId));
});
