import { addToCalendarDate, dayIn } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutomationHarness, linkQueues, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import { multipart } from '../../test/multipart.js';

/**
 * whaticket v6's connection extras (issue 32): holiday periods (the days a connection is
 * closed), the greeting's file, and "restart all".
 */

let h: AutomationHarness;
let seq = 0;
const nextNumber = () => `5521970000${String(++seq).padStart(3, '0')}`;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

beforeAll(async () => {
  h = await createAutomationHarness();
});
afterAll(() => h.close());

async function setup(connection: Record<string, unknown> = {}) {
  const company = await h.factories.buildCompany();
  const token = (await company.admin.login()).token;
  const whatsapp = await h.desk.buildConnection(company.id, connection);
  return { company, token, whatsapp, phone: () => sandboxPhone(h, token, whatsapp.id, nextNumber()) };
}

const upload = (token: string, url: string, fileName = 'boas-vindas.png', mimeType = 'image/png') => {
  const form = multipart(fileName, mimeType, PNG);
  return h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
};

describe('holiday periods of a connection', () => {
  it('are listed, created, edited (v6 sends the whole record back) and deleted; bad input is 400 with its field', async () => {
    const { token, whatsapp } = await setup();
    const base = `/whatsapp/${whatsapp.id}/holiday-periods`;
    const created = await h.request(token, 'POST', base, { startDate: '2024-12-24', endDate: '2024-12-26', message: 'Estamos em recesso', active: true, repeatIntervalHours: 24 });
    expect(created.statusCode).toBe(200);
    const period = created.json<{ id: number }>();
    expect(period).toMatchObject({ whatsappId: whatsapp.id, startDate: '2024-12-24', endDate: '2024-12-26', message: 'Estamos em recesso', active: true, repeatIntervalHours: 24 });

    // The switch: the record as loaded, with ISO dates and a typed interval as text.
    const toggled = await h.request(token, 'PUT', `${base}/${period.id}`, { ...period, startDate: '2024-12-24T00:00:00.000Z', active: false, repeatIntervalHours: '12' });
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json()).toMatchObject({ startDate: '2024-12-24', active: false, repeatIntervalHours: 12 });
    expect((await h.request(token, 'GET', base)).json()).toEqual([expect.objectContaining({ id: period.id, active: false })]);

    const reversed = await h.request(token, 'POST', base, { startDate: '2024-12-26', endDate: '2024-12-24' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fields.endDate).toBeDefined();
    const notADate = await h.request(token, 'POST', base, { startDate: '2024-02-30', endDate: '2024-03-01', repeatIntervalHours: 0 });
    expect(notADate.statusCode).toBe(400);
    expect(Object.keys(notADate.json().fields).sort()).toEqual(['repeatIntervalHours', 'startDate']);
    // One date moved alone past the other.
    expect((await h.request(token, 'PUT', `${base}/${period.id}`, { endDate: '2024-12-01' })).statusCode).toBe(400);

    expect((await h.request(token, 'DELETE', `${base}/${period.id}`)).statusCode).toBe(200);
    expect((await h.request(token, 'GET', base)).json()).toEqual([]);
  });

  it("another company's connection or period is not found; an agent may not manage them", async () => {
    const mine = await setup();
    const theirs = await setup();
    const period = (await h.request(theirs.token, 'POST', `/whatsapp/${theirs.whatsapp.id}/holiday-periods`, { startDate: '2024-01-01', endDate: '2024-01-02' })).json<{ id: number }>();
    expect((await h.request(mine.token, 'GET', `/whatsapp/${theirs.whatsapp.id}/holiday-periods`)).statusCode).toBe(404);
    expect((await h.request(mine.token, 'POST', `/whatsapp/${theirs.whatsapp.id}/holiday-periods`, { startDate: '2024-01-01', endDate: '2024-01-02' })).statusCode).toBe(404);
    // Their period under my connection's path: not mine either.
    expect((await h.request(mine.token, 'PUT', `/whatsapp/${mine.whatsapp.id}/holiday-periods/${period.id}`, { message: 'x' })).statusCode).toBe(404);
    expect((await h.request(mine.token, 'DELETE', `/whatsapp/${mine.whatsapp.id}/holiday-periods/${period.id}`)).statusCode).toBe(404);
    const agent = await h.factories.buildUser(mine.company.id, { profile: 'user' });
    const agentToken = (await agent.login()).token;
    expect((await h.request(agentToken, 'GET', `/whatsapp/${mine.whatsapp.id}/holiday-periods`)).statusCode).toBe(403);
  });

  it("close the connection: a new conversation gets the period's message instead of the bot, again only after repeatIntervalHours", async () => {
    const { company, token, whatsapp, phone } = await setup({ greetingMessage: 'Escolha:', outOfHoursMessage: 'Fora do horário.' });
    const sales = (await h.request(token, 'POST', '/queue', { name: 'Vendas', color: '#123456' })).json<{ id: number }>();
    const help = (await h.request(token, 'POST', '/queue', { name: 'Suporte', color: '#654321' })).json<{ id: number }>();
    await linkQueues(h.database, company.id, whatsapp.id, [sales.id, help.id]);
    const base = `/whatsapp/${whatsapp.id}/holiday-periods`;
    await h.request(token, 'POST', base, { startDate: '2024-12-24', endDate: '2024-12-25', message: 'Feliz Natal! Voltamos dia 26.', repeatIntervalHours: 12 });
    // Inactive periods and other days do nothing.
    await h.request(token, 'POST', base, { startDate: '2024-12-31', endDate: '2024-12-31', message: 'Réveillon', active: false });
    try {
      h.setNow(new Date('2024-12-24T13:00:00Z')); // 10:00 in São Paulo
      const customer = phone();
      await customer.say('Oi');
      expect(await customer.received()).toEqual(['Feliz Natal! Voltamos dia 26.']);
      h.setNow(new Date('2024-12-24T20:00:00Z'));
      await customer.say('Alguém?');
      expect(await customer.received()).toEqual([]);
      h.setNow(new Date('2024-12-25T02:00:00Z')); // 13 hours later, still the 24th in São Paulo
      await customer.say('Oi de novo');
      expect(await customer.received()).toEqual(['Feliz Natal! Voltamos dia 26.']);

      h.setNow(new Date('2024-12-31T13:00:00Z'));
      const other = phone();
      await other.say('Oi');
      expect(await other.received()).toEqual(['Escolha:\n\n*1* - Suporte\n*2* - Vendas']);

      // Switched off by the company: periods are ignored.
      expect((await h.request(token, 'PUT', '/settings/holidayPeriodEnabled', { value: 'disabled' })).statusCode).toBe(200);
      h.setNow(new Date('2024-12-24T15:00:00Z'));
      const third = phone();
      await third.say('Oi');
      expect(await third.received()).toEqual(['Escolha:\n\n*1* - Suporte\n*2* - Vendas']);
    } finally {
      h.setNow(null);
    }
  });

  it("close a connection without a bot too; a period without a message sends the connection's out-of-hours message", async () => {
    // Today (the real clock: the ingest asks the database which periods are not over yet).
    const { token, whatsapp, phone } = await setup({ outOfHoursMessage: 'Fechados hoje.' });
    const today = dayIn(new Date(), 'America/Sao_Paulo');
    const yesterday = addToCalendarDate(today, { days: -1 });
    const tomorrow = addToCalendarDate(today, { days: 1 });
    await h.request(token, 'POST', `/whatsapp/${whatsapp.id}/holiday-periods`, { startDate: yesterday, endDate: tomorrow });
    const customer = phone();
    await customer.say('Oi');
    expect(await customer.received()).toEqual(['Fechados hoje.']);
  });
});

describe("the greeting's file", () => {
  it('is stored, shown by name, sent with the queue menu, replaced and removed', async () => {
    const { company, token, whatsapp, phone } = await setup({ greetingMessage: 'Bem-vindo!' });
    const sales = (await h.request(token, 'POST', '/queue', { name: 'Vendas', color: '#223344' })).json<{ id: number }>();
    const help = (await h.request(token, 'POST', '/queue', { name: 'Suporte', color: '#443322' })).json<{ id: number }>();
    await linkQueues(h.database, company.id, whatsapp.id, [sales.id, help.id]);
    const stored = await upload(token, `/whatsapp/${whatsapp.id}/greeting-media`);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ id: whatsapp.id, greetingMediaName: 'boas-vindas.png', greetingMediaPath: 'boas-vindas.png' });
    expect((await h.request(token, 'GET', `/whatsapp/${whatsapp.id}`)).json()).toMatchObject({ greetingMediaName: 'boas-vindas.png' });

    const customer = phone();
    await customer.say('Oi');
    expect(await customer.receivedWithMedia()).toEqual([{ body: 'Bem-vindo!\n\n*1* - Suporte\n*2* - Vendas', mediaName: 'boas-vindas.png', mediaType: 'image' }]);
    // An invalid answer repeats the menu without the file.
    await customer.say('9');
    expect((await customer.receivedWithMedia())[0]?.mediaName).toBeNull();

    const removed = await h.request(token, 'DELETE', `/whatsapp/${whatsapp.id}/greeting-media`);
    expect(removed.json()).toMatchObject({ greetingMediaName: null, greetingMediaPath: null });
    const later = phone();
    await later.say('Oi');
    expect((await later.receivedWithMedia())[0]?.mediaName).toBeNull();
  });

  it("another company's connection is not found; without a file it is 400", async () => {
    const mine = await setup();
    const theirs = await setup();
    expect((await upload(mine.token, `/whatsapp/${theirs.whatsapp.id}/greeting-media`)).statusCode).toBe(404);
    expect((await h.request(mine.token, 'DELETE', `/whatsapp/${theirs.whatsapp.id}/greeting-media`)).statusCode).toBe(404);
    expect((await h.request(mine.token, 'POST', `/whatsapp/${mine.whatsapp.id}/greeting-media`, {})).statusCode).toBe(400);
  });
});

describe('restart all', () => {
  it("restarts the company's sessions (admins only)", async () => {
    const { company, token } = await setup();
    const response = await h.request(token, 'POST', '/whatsapp-restart/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Whatsapp restart.' });
    const agent = await h.factories.buildUser(company.id, { profile: 'user' });
    expect((await h.request((await agent.login()).token, 'POST', '/whatsapp-restart')).statusCode).toBe(403);
  });
});

describe("whaticket v6's notice texts and the queue's greeting file", () => {
  it('sendGreetingAcceptedMessage and sendMsgTransfTicketMessage replace the notices, with {{agent}} and {{queue}}', async () => {
    const { company, token, phone } = await setup();
    for (const [key, value] of Object.entries({
      sendGreetingAccepted: 'enabled',
      sendGreetingAcceptedMessage: '{{ms}} {{name}}, sou {{agent}}!',
      sendMsgTransfTicket: 'enabled',
      sendMsgTransfTicketMessage: 'Transferido para {{queue}}.',
    })) {
      expect((await h.request(token, 'PUT', `/settings/${key}`, { value })).statusCode).toBe(200);
    }
    const queue = (await h.request(token, 'POST', '/queue', { name: 'Financeiro', color: '#0a0b0c' })).json<{ id: number }>();
    const agent = await h.factories.buildUser(company.id, { name: 'Carla Dias', profile: 'admin' });
    const agentToken = (await agent.login()).token;
    const customer = phone();
    const { ticketId } = await customer.say('Oi', { name: 'Bruno Reis' });
    try {
      h.setNow(new Date('2024-06-03T18:30:00Z')); // 15:30 in São Paulo
      expect((await h.request(agentToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
      expect((await h.request(agentToken, 'PUT', `/tickets/${ticketId}`, { queueId: queue.id, status: 'pending' })).statusCode).toBe(200);
    } finally {
      h.setNow(null);
    }
    expect(await customer.received()).toEqual(['Boa tarde Bruno Reis, sou Carla Dias!', 'Transferido para Financeiro.']);
  });

  it("the queue's file goes with the queue's greeting when the customer chooses it", async () => {
    const { company, token, whatsapp, phone } = await setup({ greetingMessage: 'Escolha:' });
    const sales = (await h.request(token, 'POST', '/queue', { name: 'Vendas', color: '#0c0b0a', greetingMessage: 'Bem-vindo às vendas!' })).json<{ id: number }>();
    const help = (await h.request(token, 'POST', '/queue', { name: 'Suporte', color: '#0d0e0f' })).json<{ id: number }>();
    await linkQueues(h.database, company.id, whatsapp.id, [sales.id, help.id]);
    expect((await upload(token, `/queue/${sales.id}/media-upload`, 'catalogo.pdf', 'application/pdf')).statusCode).toBe(200);
    const customer = phone();
    await customer.say('Oi');
    await customer.received();
    await customer.say('2');
    expect(await customer.receivedWithMedia()).toEqual([{ body: 'Bem-vindo às vendas!', mediaName: 'catalogo.pdf', mediaType: 'application' }]);
  });
});
