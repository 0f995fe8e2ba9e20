import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/**
 * The contract of issue 17: the payloads a client written for the spec's calls
 * (spec part 1 §7, part 2 §7) sends, exactly as it sends them, answer 2xx with
 * the fields it reads; declared fields of the wrong type still answer 400.
 * (Trailing slashes: platform/http/trailing-slash.test.ts walks every route.)
 */
let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let sandboxId: number;
let sequence = 0;

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  const created = await t.request(adminToken, 'POST', '/whatsapp', { name: 'Contract sandbox', provider: 'sandbox' });
  expect(created.statusCode).toBe(201);
  sandboxId = created.json().id;
});
afterAll(() => t.close());

/** A customer writes in; the admin accepts the ticket. */
async function openTicket(): Promise<number> {
  const from = `55119877${String(++sequence).padStart(5, '0')}`;
  const inbound = await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from, name: `Customer ${sequence}`, body: 'Oi' });
  expect(inbound.statusCode).toBe(201);
  const { ticketId } = inbound.json<{ ticketId: number }>();
  expect((await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
  return ticketId;
}

describe('flags as numbers or strings', () => {
  it('sends the composer\'s text message: {read: 1, fromMe: true, mediaUrl: "", body, quotedMsg: null}', async () => {
    const ticketId = await openTicket();
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { read: 1, fromMe: true, mediaUrl: '', body: 'Bom dia!', quotedMsg: null });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0]).toMatchObject({ body: 'Bom dia!', fromMe: true, ticketId });
    const history = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json<{ messages: { body: string; fromMe: boolean }[] }>();
    expect(history.messages.map((message) => [message.body, message.fromMe])).toEqual([
      ['Oi', false],
      ['Bom dia!', true],
    ]);
  });

  it('reads "1", "true" and 1 as true, "0", "false" and 0 as false (the sign switch)', async () => {
    const ticketId = await openTicket();
    for (const sign of [1, '1', 'true', true]) {
      const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: `signed ${String(sign)}`, sign });
      expect(response.statusCode, String(sign)).toBe(201);
      expect(response.json()[0].body, String(sign)).toMatch(/^\*.+:\*\nsigned /);
    }
    for (const sign of [0, '0', 'false', false]) {
      const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: `plain ${String(sign)}`, sign });
      expect(response.statusCode, String(sign)).toBe(201);
      expect(response.json()[0].body, String(sign)).toBe(`plain ${String(sign)}`);
    }
  });

  it('reads flags of multipart sends the same way', async () => {
    const ticketId = await openTicket();
    const boundary = '----contract-flags';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nsegue a nota\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="fromMe"\r\n\r\ntrue\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="sign"\r\n\r\n1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="nota.txt"\r\nContent-Type: text/plain\r\n\r\nconteudo\r\n` +
      `--${boundary}--\r\n`;
    const response = await t.app.inject({
      method: 'POST',
      url: `/messages/${ticketId}`,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0]).toMatchObject({ mediaName: 'nota.txt', fromMe: true });
    expect(response.json()[0].body).toMatch(/^\*.+:\*\nsegue a nota$/);
  });

  it('accepts super: 0 from the user modal', async () => {
    const created = await t.request(adminToken, 'POST', '/users', {
      name: 'Flag user',
      email: `flag-user-${Date.now()}@example.com`,
      password: 'Secret123',
      profile: 'user',
      super: 0,
      queueIds: [],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Flag user', super: false });
  });

  it('lists tickets with showAll=1 and withUnreadMessages=0 in the query', async () => {
    const ticketId = await openTicket();
    const response = await t.request(adminToken, 'GET', '/tickets?showAll=1&withUnreadMessages=0&status=open&pageNumber=1');
    expect(response.statusCode).toBe(200);
    expect(response.json<{ tickets: { id: number }[] }>().tickets.map((ticket) => ticket.id)).toContain(ticketId);
  });

  it('still refuses a flag that is neither boolean, 0/1 nor its string (400)', async () => {
    const ticketId = await openTicket();
    for (const read of [2, 'yes', 'TRUE', {}]) {
      const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'x', read });
      expect(response.statusCode, JSON.stringify(read)).toBe(400);
    }
    expect((await t.request(adminToken, 'GET', '/tickets?showAll=maybe')).statusCode).toBe(400);
  });
});

describe('false, empty or null meaning "none"', () => {
  it('closes a ticket with the Resolve button\'s {status: "closed", promptId: false, integrationId: false, useIntegration: false}', async () => {
    const ticketId = await openTicket();
    const response = await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'closed', promptId: false, integrationId: false, useIntegration: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: ticketId, status: 'closed' });
  });

  it('transfers with the dialog\'s empty choices: userId "", whatsappId false', async () => {
    const ticketId = await openTicket();
    const queue = await t.factories.buildQueue(company.id, { name: 'Contract transfer queue' });
    const response = await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { userId: '', queueId: queue.id, status: 'pending', whatsappId: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'pending', queueId: queue.id, userId: null, whatsappId: sandboxId });
  });

  it('saves the user modal\'s {whatsappId: false, language: null}: no connection, the language kept', async () => {
    const user = await t.factories.buildUser(company.id, { name: 'Modal user', whatsappId: sandboxId, language: 'es' });
    const response = await t.request(adminToken, 'PUT', `/users/${user.id}`, {
      name: 'Modal user',
      email: user.email,
      password: '',
      profile: 'user',
      allTicket: 'desabled',
      whatsappId: false,
      language: null,
      queueIds: [],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ whatsappId: null, whatsapp: null, language: 'es' });
    const created = await t.request(adminToken, 'POST', '/users', {
      name: 'Modal new user',
      email: `modal-new-${Date.now()}@example.com`,
      password: 'Secret123',
      profile: 'user',
      allTicket: 'desabled',
      whatsappId: '',
      language: '',
      queueIds: [],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ whatsappId: null, language: null });
  });

  it('creates a webhook integration sent with language "" (and saves a queue with promptId false, integrationId "")', async () => {
    const created = await t.request(adminToken, 'POST', '/queueIntegration', {
      type: 'webhook',
      name: `contract-hook-${Date.now()}`,
      projectName: '',
      jsonContent: '',
      language: '',
      urlN8N: 'https://hooks.example.com/hook',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ type: 'webhook', language: 'pt-BR' });
    const edited = await t.request(adminToken, 'PUT', `/queueIntegration/${created.json().id}`, { language: false });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ language: 'pt-BR' });

    const queue = await t.request(adminToken, 'POST', '/queue', { name: 'Contract queue', color: '#123456', promptId: false, integrationId: '', greetingMessage: '' });
    expect(queue.statusCode).toBe(201);
    expect(queue.json()).toMatchObject({ promptId: null, integrationId: null });
  });

  it('saves a connection edit that sends back cloudApi: null and empty references', async () => {
    const before = await t.request(adminToken, 'GET', `/whatsapp/${sandboxId}?session=0`);
    expect(before.json().cloudApi).toBeNull();
    const response = await t.request(adminToken, 'PUT', `/whatsapp/${sandboxId}`, {
      name: 'Contract sandbox',
      cloudApi: null,
      promptId: '',
      integrationId: false,
      transferQueueId: 0,
      greetingMessage: 'Olá',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ greetingMessage: 'Olá', cloudApi: null, promptId: null, integrationId: null, transferQueueId: null });
  });

  it('still refuses a reference or an enum of the wrong type (400)', async () => {
    const ticketId = await openTicket();
    for (const promptId of [true, 'abc', -3, { id: 1 }]) {
      const response = await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'closed', promptId });
      expect(response.statusCode, JSON.stringify(promptId)).toBe(400);
    }
    const user = await t.factories.buildUser(company.id, { name: 'Wrong language user' });
    expect((await t.request(adminToken, 'PUT', `/users/${user.id}`, { language: 'xx' })).statusCode).toBe(400);
    expect((await t.request(adminToken, 'PUT', `/whatsapp/${sandboxId}`, { cloudApi: 'none' })).statusCode).toBe(400);
  });
});
