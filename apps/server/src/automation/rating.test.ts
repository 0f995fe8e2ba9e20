import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, userRatings } from '../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../test/automation-harness.js';
import type { BuiltUser } from '../test/factories.js';
import { automationTexts } from './automation-texts.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = automationTexts({ language: 'pt' });

let h: AutomationHarness;
let token: string;
let agent: BuiltUser;
let agentToken: string;
let whatsappId: number;
let seq = 0;

const REQUEST = `Avalie o atendimento, {{firstName}}!`;
const prompt = (name: string) => `Avalie o atendimento, ${name}!\n\n${AUTOMATION_TEXTS.ratingOptions}`;

beforeAll(async () => {
  h = await createAutomationHarness();
  const company = await h.factories.buildCompany();
  token = (await company.admin.login()).token;
  expect((await h.request(token, 'PUT', '/settings/userRating', { value: 'enabled' })).statusCode).toBe(200);
  whatsappId = (await h.desk.buildConnection(company.id, { ratingMessage: REQUEST, complationMessage: 'Obrigado, {primeiroNome}! Até logo.' })).id;
  agent = await h.factories.buildUser(company.id);
  agentToken = (await agent.login()).token;
});
afterAll(() => h.close());

/** A conversation an agent accepted and then closed; answers the phone and the ticket id. */
async function closedConversation() {
  const phone = sandboxPhone(h, token, whatsappId, `5531990000${String(++seq).padStart(3, '0')}`);
  const { ticketId } = await phone.say('Preciso de ajuda', { name: 'Paula Nunes' });
  if (!ticketId) throw new Error('no ticket');
  expect((await h.request(agentToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
  expect((await h.request(agentToken, 'PUT', `/tickets/${ticketId}`, { status: 'closed' })).statusCode).toBe(200);
  return { phone, ticketId };
}

async function ticket(id: number) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id));
  return row;
}

async function ratings(ticketId: number) {
  return h.database.db.select({ rate: userRatings.rate, userId: userRatings.userId }).from(userRatings).where(eq(userRatings.ticketId, ticketId));
}

describe('rating on close (userRating)', () => {
  it('asks 1–3 on close; the reply is recorded for the agent, answered with the completion message, and the ticket stays closed', async () => {
    const { phone, ticketId } = await closedConversation();
    expect(await phone.received()).toEqual([prompt('Paula')]);
    expect(await ticket(ticketId)).toMatchObject({ status: 'closed', ratingState: 'awaiting' });

    const reply = await phone.say('3');
    expect(reply).toMatchObject({ ticketId, ticketCreated: false });
    expect(await ratings(ticketId)).toEqual([{ rate: 3, userId: agent.id }]);
    expect(await phone.received()).toEqual(['Obrigado, Paula! Até logo.']);
    expect(await ticket(ticketId)).toMatchObject({ status: 'closed', ratingState: null, unreadMessages: 0 });
    // The reply is kept in the closed ticket's history.
    const history = (await h.request(token, 'GET', `/messages/${ticketId}`)).json().messages as { body: string }[];
    expect(history.at(-2)?.body).toBe('3');

    // The next message is a new conversation (decision 2).
    const next = await phone.say('Outra dúvida');
    expect(next.ticketCreated).toBe(true);
    expect(next.ticketId).not.toBe(ticketId);
  });

  it('a non-numeric reply gets one re-prompt; a valid answer after it still counts', async () => {
    const { phone, ticketId } = await closedConversation();
    await phone.received();
    await phone.say('foi ótimo');
    expect(await phone.received()).toEqual([`${AUTOMATION_TEXTS.ratingInvalid}\n\nAvalie o atendimento, Paula!\n\n${AUTOMATION_TEXTS.ratingOptions}`]);
    expect(await ticket(ticketId)).toMatchObject({ status: 'closed', ratingState: 'reprompted' });
    await phone.say('2');
    expect(await ratings(ticketId)).toEqual([{ rate: 2, userId: agent.id }]);
    expect(await phone.received()).toEqual(['Obrigado, Paula! Até logo.']);
  });

  it('a second non-numeric reply ends the wait and starts a new conversation; the rating never reopens the ticket', async () => {
    const { phone, ticketId } = await closedConversation();
    await phone.say('hum');
    await phone.received();
    const second = await phone.say('quero comprar outra coisa');
    expect(second.ticketCreated).toBe(true);
    expect(second.ticketId).not.toBe(ticketId);
    expect(await ticket(ticketId)).toMatchObject({ status: 'closed', ratingState: null });
    expect(await ratings(ticketId)).toEqual([]);
    expect(await ticket(second.ticketId ?? 0)).toMatchObject({ status: 'pending' });
  });

  it('without userRating the completion message says goodbye on close', async () => {
    expect((await h.request(token, 'PUT', '/settings/userRating', { value: 'disabled' })).statusCode).toBe(200);
    try {
      const { phone, ticketId } = await closedConversation();
      expect(await phone.received()).toEqual(['Obrigado, Paula! Até logo.']);
      expect(await ticket(ticketId)).toMatchObject({ ratingState: null });
    } finally {
      await h.request(token, 'PUT', '/settings/userRating', { value: 'enabled' });
    }
  });
});
