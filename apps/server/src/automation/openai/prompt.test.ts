import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, tickets } from '../../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../test/fake-openai.js';
import { automationTexts } from '../automation-texts.js';
import { HANDOVER_MARKER } from './prompt-turn.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = automationTexts({ language: 'pt' });

const API_KEY = 'sk-test-0123456789abcdefghij';
const INSTRUCTIONS = 'Você é o assistente da Loja Exemplo. Responda com educação e de forma curta, em português.';

let h: AutomationHarness;
let openai: FakeOpenAi;
let token: string;
let whatsappId: number;
let supportId: number;
let planId: number;
let seq = 0;

beforeAll(async () => {
  openai = await startFakeOpenAi({
    apiKey: API_KEY,
    transcript: 'Qual o prazo de entrega?',
    answer: (chat) => {
      const last = chat.messages.at(-1)?.content ?? '';
      if (last.includes('humano')) return `Claro, vou transferir você. ${HANDOVER_MARKER}`;
      if (last.includes('prazo')) return 'O prazo é de 5 dias úteis.';
      return `Resposta ${chat.messages.length}`;
    },
  });
  h = await createAutomationHarness({ env: { OPENAI_BASE_URL: openai.baseUrl } });
  const company = await h.factories.buildCompany();
  planId = company.planId;
  token = (await company.admin.login()).token;
  supportId = (await h.request(token, 'POST', '/queue', { name: 'Suporte', color: '#445566' })).json().id;
  const created = await h.request(token, 'POST', '/prompt', {
    name: 'Assistente da loja',
    prompt: INSTRUCTIONS,
    apiKey: API_KEY,
    queueId: supportId,
    model: 'gpt-4o-mini',
    maxTokens: 150,
    temperature: 0.7,
    maxMessages: 3,
  });
  expect(created.statusCode).toBe(201);
  whatsappId = (await h.desk.buildConnection(company.id, { promptId: created.json().id })).id;
});
afterAll(async () => {
  await h.close();
  await openai.close();
});

const phone = () => sandboxPhone(h, token, whatsappId, `5581990000${String(++seq).padStart(3, '0')}`);

async function ticket(id: number | null) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0));
  if (!row) throw new Error('ticket not found');
  return row;
}

describe('a ticket handled by an AI prompt', () => {
  it('answers with the last maxMessages messages as context, oldest first, under the prompt as system message', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Oi');
    expect(await customer.received()).toEqual(['Resposta 2']);
    expect(await ticket(ticketId)).toMatchObject({ chatbot: true, status: 'pending' });
    const first = openai.chats.at(-1);
    expect(first).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 150 });
    expect(first?.temperature).toBeCloseTo(0.7);
    expect(first?.messages[0]?.role).toBe('system');
    expect(first?.messages[0]?.content.startsWith(INSTRUCTIONS)).toBe(true);
    expect(first?.messages.slice(1)).toEqual([{ role: 'user', content: 'Oi' }]);

    await customer.say('Quero saber dos planos');
    await customer.say('E o preço?');
    const context = openai.chats.at(-1)?.messages.slice(1);
    // maxMessages is 3: the newest three, in the order they were written.
    expect(context).toEqual([
      { role: 'user', content: 'Quero saber dos planos' },
      { role: 'assistant', content: 'Resposta 4' },
      { role: 'user', content: 'E o preço?' },
    ]);
    const stored = (await h.request(token, 'GET', `/messages/${ticketId}`)).json().messages as { source: string }[];
    expect(stored.map((m) => m.source)).toEqual(['customer', 'bot', 'customer', 'bot', 'customer', 'bot']);
  });

  it("the handover phrase moves the ticket to the prompt's queue for the agents", async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Quero falar com um humano');
    expect(await customer.received()).toEqual(['Claro, vou transferir você.']);
    expect(await ticket(ticketId)).toMatchObject({ queueId: supportId, promptId: null, chatbot: false, status: 'pending' });
    const calls = openai.chats.length;
    await customer.say('Obrigado');
    expect(openai.chats.length).toBe(calls);
  });

  it('transcribes audio before answering', async () => {
    const boundary = '----atende-audio';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="from"\r\n\r\n5581999999001\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="voz.mp3"\r\nContent-Type: audio/mpeg\r\n\r\nID3-fake-audio\r\n` +
      `--${boundary}--\r\n`;
    const response = await h.app.inject({
      method: 'POST',
      url: `/sandbox/${whatsappId}/inbound`,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode).toBe(201);
    expect(openai.transcriptions).toBe(1);
    expect(openai.chats.at(-1)?.messages.at(-1)).toEqual({ role: 'user', content: 'Qual o prazo de entrega?' });
    expect(await sandboxPhone(h, token, whatsappId, '5581999999001').inbox()).toEqual(['O prazo é de 5 dias úteis.']);
  });

  it('an OpenAI failure answers the customer and hands the ticket to the prompt queue', async () => {
    openai.failNext({ status: 500, json: { error: { message: 'The server had an error', type: 'server_error' } } });
    const customer = phone();
    const { ticketId } = await customer.say('Oi');
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(ticketId)).toMatchObject({ queueId: supportId, promptId: null, chatbot: false });

    openai.failNext({ delayMs: 1500, json: {} });
    const slow = phone();
    const late = await slow.say('Oi');
    expect(await slow.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(late.ticketId)).toMatchObject({ queueId: supportId, promptId: null });
  });

  it('when the plan loses useOpenAi the prompt stops answering and the agents take over', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Oi');
    await customer.received();
    await h.database.db.update(plans).set({ useOpenAi: false }).where(eq(plans.id, planId));
    try {
      const calls = openai.chats.length;
      await customer.say('Ainda está aí?');
      expect(openai.chats.length).toBe(calls);
      expect(await customer.received()).toEqual([]);
      expect(await ticket(ticketId)).toMatchObject({ promptId: null, chatbot: false, status: 'pending' });
    } finally {
      await h.database.db.update(plans).set({ useOpenAi: true }).where(eq(plans.id, planId));
    }
  });
});
