import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, whatsapps } from '../platform/db/schema.js';
import { createAutomationHarness, linkQueues, sandboxPhone, type AutomationHarness } from '../test/automation-harness.js';
import type { BuiltCompany } from '../test/factories.js';
import { automationTexts, chatbotMenuTexts } from './automation-texts.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = { ...automationTexts({ language: 'pt' }), ...chatbotMenuTexts({}) };

let h: AutomationHarness;
let company: BuiltCompany;
let token: string;
let connectionId: number;
let sales: { id: number };
let support: { id: number };
let phoneSeq = 0;

const GREETING = 'Olá {{firstName}}! Seu protocolo é {{protocol}}. Escolha um setor:';

async function option(body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await h.request(token, 'POST', '/queue-options', body);
  expect(response.statusCode).toBe(201);
  return response.json();
}

beforeAll(async () => {
  h = await createAutomationHarness();
  company = await h.factories.buildCompany();
  token = (await company.admin.login()).token;
  connectionId = (await h.desk.buildConnection(company.id, { greetingMessage: GREETING })).id;
  const created = await h.request(token, 'POST', '/queue', { name: 'Vendas', color: '#0000FF', orderQueue: 1, greetingMessage: 'Bem-vindo a Vendas!' });
  expect(created.statusCode).toBe(201);
  sales = created.json();
  support = (await h.request(token, 'POST', '/queue', { name: 'Suporte', color: '#00FF00', orderQueue: 2, greetingMessage: 'Suporte técnico.' })).json();
  await linkQueues(h.database, company.id, connectionId, [support.id, sales.id]);
  // Suporte: 1 Internet (1 Lenta, 2 Sem conexão), 2 Financeiro
  const internet = await option({ queueId: support.id, parentId: -1, title: 'Internet', message: 'Qual o problema da internet?' });
  await option({ queueId: support.id, parentId: internet.id, title: 'Lenta', message: 'Reinicie o roteador. Um técnico vai falar com você.' });
  await option({ queueId: support.id, parentId: internet.id, title: 'Sem conexão', message: 'Vamos verificar a sua linha.' });
  await option({ queueId: support.id, title: 'Financeiro', message: 'Um atendente do financeiro vai ajudar.' });
});
afterAll(() => h.close());

function newPhone(name = 'Maria Souza') {
  phoneSeq += 1;
  const phone = sandboxPhone(h, token, connectionId, `5511970000${String(phoneSeq).padStart(3, '0')}`);
  return { ...phone, say: (body: string) => phone.say(body, { name }) };
}

async function ticketRow(id: number) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id));
  if (!row) throw new Error('ticket not found');
  return row;
}

const menu = (ticketId: number) => `Olá Maria! Seu protocolo é ${ticketId}. Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte`;

describe('the queue menu and the option tree', () => {
  it('menu, valid choice, option tree level by level, leaf: the leaf answers and the agents take over', async () => {
    const phone = newPhone();
    const { ticketId } = await phone.say('Oi, boa tarde');
    if (!ticketId) throw new Error('no ticket');
    expect(await phone.received()).toEqual([menu(ticketId)]);
    expect(await ticketRow(ticketId)).toMatchObject({ status: 'pending', queueId: null, chatbot: true, amountUsedBotQueues: 1 });

    await phone.say('2');
    expect(await phone.received()).toEqual([`Suporte técnico.\n\n*1* - Internet\n*2* - Financeiro\n\n${AUTOMATION_TEXTS.backAndMainMenu}`]);
    expect(await ticketRow(ticketId)).toMatchObject({ queueId: support.id, chatbot: true, queueOptionId: null });

    await phone.say('1');
    expect(await phone.received()).toEqual([`Qual o problema da internet?\n\n*1* - Lenta\n*2* - Sem conexão\n\n${AUTOMATION_TEXTS.backAndMainMenu}`]);

    await phone.say('1');
    expect(await phone.received()).toEqual(['Reinicie o roteador. Um técnico vai falar com você.']);
    const done = await ticketRow(ticketId);
    expect(done).toMatchObject({ status: 'pending', queueId: support.id, chatbot: false });
    expect(done.queueOptionId).not.toBeNull();

    // With the agents now: further messages get no bot answer.
    await phone.say('Obrigada');
    expect(await phone.received()).toEqual([]);

    // Bot messages are stored in the ticket, marked as the bot's.
    const history = (await h.request(token, 'GET', `/messages/${ticketId}`)).json().messages as { body: string; fromMe: boolean; source: string }[];
    expect(history.map((m) => [m.source, m.fromMe])).toEqual([
      ['customer', false],
      ['bot', true],
      ['customer', false],
      ['bot', true],
      ['customer', false],
      ['bot', true],
      ['customer', false],
      ['bot', true],
      ['customer', false],
    ]);
  });

  it("a contact with the chatbot switched off (whaticket v6's disableBot) gets no menu: the ticket waits for an agent", async () => {
    const phone = newPhone();
    const number = `5511970000${String(phoneSeq).padStart(3, '0')}`;
    expect((await h.request(token, 'POST', '/contacts', { name: 'Maria Souza', number, disableBot: true })).statusCode).toBe(201);
    const { ticketId } = await phone.say('Oi, boa tarde');
    if (!ticketId) throw new Error('no ticket');
    expect(await phone.received()).toEqual([]);
    expect(await ticketRow(ticketId)).toMatchObject({ status: 'pending', queueId: null });
  });

  it('an invalid answer gets one clear invalid-option answer and the menu again; the bot stops after three', async () => {
    const phone = newPhone();
    const { ticketId } = await phone.say('Oi');
    if (!ticketId) throw new Error('no ticket');
    await phone.received();
    await phone.say('9');
    expect(await phone.received()).toEqual([`${AUTOMATION_TEXTS.invalidOption}\n\n${menu(ticketId)}`]);
    await phone.say('quero falar com alguém');
    expect(await phone.received()).toEqual([`${AUTOMATION_TEXTS.invalidOption}\n\n${menu(ticketId)}`]);
    await phone.say('???');
    // maxUseBotQueues (3) reached: no fourth menu, the agents take over.
    expect(await phone.received()).toEqual([AUTOMATION_TEXTS.handover]);
    expect(await ticketRow(ticketId)).toMatchObject({ chatbot: false, queueId: null, amountUsedBotQueues: 3 });
    await phone.say('alô?');
    expect(await phone.received()).toEqual([]);
  });

  it('inside the tree an invalid answer repeats the current level; 0 goes back, # returns to the main menu', async () => {
    const phone = newPhone();
    const { ticketId } = await phone.say('Oi');
    if (!ticketId) throw new Error('no ticket');
    await phone.say('2');
    await phone.say('1');
    await phone.received();
    await phone.say('7');
    expect((await phone.received())[0]).toBe(`${AUTOMATION_TEXTS.invalidOption}\n\nQual o problema da internet?\n\n*1* - Lenta\n*2* - Sem conexão\n\n${AUTOMATION_TEXTS.backAndMainMenu}`);
    await phone.say('0');
    expect(await phone.received()).toEqual([`Suporte técnico.\n\n*1* - Internet\n*2* - Financeiro\n\n${AUTOMATION_TEXTS.backAndMainMenu}`]);
    await phone.say('0');
    expect(await phone.received()).toEqual([menu(ticketId)]);
    expect(await ticketRow(ticketId)).toMatchObject({ queueId: null, chatbot: true });
    await phone.say('2');
    await phone.say('1');
    await phone.received();
    await phone.say('#');
    expect(await phone.received()).toEqual([menu(ticketId)]);
    await phone.say('1');
    // Vendas has no options: its greeting, then the agents.
    expect(await phone.received()).toEqual(['Bem-vindo a Vendas!']);
    expect(await ticketRow(ticketId)).toMatchObject({ queueId: sales.id, chatbot: false });
  });

  it('a restart in the middle of the tree resumes at the same node', async () => {
    const phone = newPhone();
    const { ticketId } = await phone.say('Oi');
    await phone.say('2');
    await phone.say('1');
    await phone.received();
    await h.restart();
    const again = sandboxPhone(h, token, connectionId, phone.number);
    await again.received();
    const { ticketId: same } = await again.say('2');
    expect(same).toBe(ticketId);
    expect(await again.received()).toEqual(['Vamos verificar a sua linha.']);
  });
});

describe('menu limits', () => {
  it('timeUseBotQueues: after the bot stopped, the menu is offered again only once the wait has passed', async () => {
    await h.database.db.update(whatsapps).set({ timeUseBotQueues: 10, maxUseBotQueues: 5 }).where(eq(whatsapps.id, connectionId));
    try {
      const start = new Date();
      h.setNow(start);
      const phone = newPhone();
      const { ticketId } = await phone.say('Oi');
      if (!ticketId) throw new Error('no ticket');
      await phone.received();
      // Within the wait an invalid answer is told so, without another menu.
      await phone.say('x');
      expect(await phone.received()).toEqual([AUTOMATION_TEXTS.invalidOption]);
      await phone.say('y');
      await phone.say('z');
      expect(await phone.received()).toEqual([AUTOMATION_TEXTS.invalidOption, AUTOMATION_TEXTS.handover]);
      h.setNow(new Date(start.getTime() + 5 * 60_000));
      await phone.say('oi?');
      expect(await phone.received()).toEqual([]);
      h.setNow(new Date(start.getTime() + 11 * 60_000));
      await phone.say('oi de novo');
      expect(await phone.received()).toEqual([menu(ticketId)]);
      expect(await ticketRow(ticketId)).toMatchObject({ chatbot: true, amountUsedBotQueues: 2 });
    } finally {
      h.setNow(null);
      await h.database.db.update(whatsapps).set({ timeUseBotQueues: 0, maxUseBotQueues: 3 }).where(eq(whatsapps.id, connectionId));
    }
  });
});

describe("the chatbot's menu words", () => {
  it('are the company settings: a company with English texts gets English menus, back and main-menu entries', async () => {
    const english = await h.factories.buildCompany();
    const englishToken = (await english.admin.login()).token;
    for (const [key, value] of Object.entries({ chatbotChooseOption: 'Choose one of the options below:', chatbotBack: 'Back', chatbotMainMenu: 'Main menu' })) {
      const saved = await h.request(englishToken, 'PUT', `/settings/${key}`, { key, value });
      expect(saved.statusCode, key).toBe(200);
    }
    // No greetings anywhere: every menu starts with the company's "choose" line.
    const englishConnection = (await h.desk.buildConnection(english.id, { greetingMessage: '' })).id;
    const billing = (await h.request(englishToken, 'POST', '/queue', { name: 'Billing', color: '#0000FF', orderQueue: 1, greetingMessage: '' })).json() as { id: number };
    const helpdesk = (await h.request(englishToken, 'POST', '/queue', { name: 'Helpdesk', color: '#00FF00', orderQueue: 2, greetingMessage: '' })).json() as { id: number };
    await linkQueues(h.database, english.id, englishConnection, [billing.id, helpdesk.id]);
    const invoices = await h.request(englishToken, 'POST', '/queue-options', { queueId: billing.id, parentId: -1, title: 'Invoices', message: '' });
    expect(invoices.statusCode).toBe(201);
    await h.request(englishToken, 'POST', '/queue-options', { queueId: billing.id, parentId: invoices.json().id, title: 'Overdue', message: 'We sent it again.' });

    const phone = sandboxPhone(h, englishToken, englishConnection, '5511970009901');
    await phone.say('Hi', { name: 'John Smith' });
    expect(await phone.received()).toEqual(['Choose one of the options below:\n\n*1* - Billing\n*2* - Helpdesk']);
    await phone.say('1', { name: 'John Smith' });
    expect(await phone.received()).toEqual(['Choose one of the options below:\n\n*1* - Invoices\n\n*0* - Back\n*#* - Main menu']);
    await phone.say('1', { name: 'John Smith' });
    expect(await phone.received()).toEqual(['Invoices\n\n*1* - Overdue\n\n*0* - Back\n*#* - Main menu']);
  });

  it("a company speaking Spanish (setting language) gets the bot's own texts and menu words in Spanish", async () => {
    const spanish = await h.factories.buildCompany();
    const spanishToken = (await spanish.admin.login()).token;
    expect((await h.request(spanishToken, 'PUT', '/settings/language', { value: 'es' })).statusCode).toBe(200);
    const spanishConnection = (await h.desk.buildConnection(spanish.id, { greetingMessage: '' })).id;
    const ventas = (await h.request(spanishToken, 'POST', '/queue', { name: 'Ventas', color: '#0000FF', orderQueue: 1, greetingMessage: '' })).json() as { id: number };
    const soporte = (await h.request(spanishToken, 'POST', '/queue', { name: 'Soporte', color: '#00FF00', orderQueue: 2, greetingMessage: '' })).json() as { id: number };
    await linkQueues(h.database, spanish.id, spanishConnection, [ventas.id, soporte.id]);
    const says = automationTexts({ language: 'es' });
    const menu = 'Elija una de las opciones a continuación:\n\n*1* - Ventas\n*2* - Soporte';

    const phone = sandboxPhone(h, spanishToken, spanishConnection, '5511970009903');
    await phone.say('Hola', { name: 'Lucía Pérez' });
    expect(await phone.received()).toEqual([menu]);
    await phone.say('9', { name: 'Lucía Pérez' });
    expect(await phone.received()).toEqual([`Opción inválida. Responda solo con el número de una de las opciones.\n\n${menu}`]);
    await phone.say('?', { name: 'Lucía Pérez' });
    await phone.say('??', { name: 'Lucía Pérez' });
    expect((await phone.received()).at(-1)).toBe(says.handover);
    expect(says.handover).toBe('¡Gracias! En instantes uno de nuestros agentes continuará su atención.');
  });

  it('a company that never set them reads the Portuguese defaults, and an emptied one falls back to its default', async () => {
    const other = await h.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    const listed = (await h.request(otherToken, 'GET', '/settings')).json() as { key: string; value: string }[];
    expect(listed.filter((row) => row.key.startsWith('chatbot') && row.key !== 'chatBotType')).toEqual([
      { key: 'chatbotBack', value: 'Voltar' },
      { key: 'chatbotChooseOption', value: 'Escolha uma das opções abaixo:' },
      { key: 'chatbotMainMenu', value: 'Menu principal' },
    ]);
    expect((await h.request(otherToken, 'PUT', '/settings/chatbotBack', { key: 'chatbotBack', value: '' })).statusCode).toBe(200);
    const otherConnection = (await h.desk.buildConnection(other.id, { greetingMessage: '' })).id;
    const one = (await h.request(otherToken, 'POST', '/queue', { name: 'Um', color: '#0000FF', orderQueue: 1, greetingMessage: '' })).json() as { id: number };
    const two = (await h.request(otherToken, 'POST', '/queue', { name: 'Dois', color: '#00FF00', orderQueue: 2, greetingMessage: '' })).json() as { id: number };
    await linkQueues(h.database, other.id, otherConnection, [one.id, two.id]);
    await h.request(otherToken, 'POST', '/queue-options', { queueId: one.id, parentId: -1, title: 'Opção', message: 'Fim.' });
    const phone = sandboxPhone(h, otherToken, otherConnection, '5511970009902');
    await phone.say('Oi', { name: 'Ana' });
    expect(await phone.received()).toEqual([`${AUTOMATION_TEXTS.chooseOption}\n\n*1* - Um\n*2* - Dois`]);
    await phone.say('1', { name: 'Ana' });
    expect(await phone.received()).toEqual([`${AUTOMATION_TEXTS.chooseOption}\n\n*1* - Opção\n\n*0* - Voltar\n*#* - Menu principal`]);
  });
});
