import { eq, inArray } from 'drizzle-orm';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, quickMessages, tags, users } from '../platform/db/schema.js';
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
  t = await createTestContext({ realtime: true, listen: true });
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  const created = await t.request(adminToken, 'POST', '/whatsapp', { name: 'Contract sandbox', provider: 'sandbox' });
  expect(created.statusCode).toBe(201);
  sandboxId = created.json().id;
});
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

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

describe('edit screens send back the whole record they loaded', () => {
  const LONG_PROMPT = 'You are the assistant of a small shop: answer politely, briefly and in the customer\'s language.';

  /** GET a record, PUT it back whole with one change, as an edit dialog does. */
  async function roundTrip(token: string, url: string, change: Record<string, unknown>, getUrl = url) {
    const loaded = await t.request(token, 'GET', getUrl);
    expect(loaded.statusCode, `GET ${getUrl}`).toBe(200);
    const saved = await t.request(token, 'PUT', url, { ...loaded.json<Record<string, unknown>>(), ...change });
    expect(saved.statusCode, `PUT ${url}: ${saved.body.slice(0, 200)}`).toBe(200);
    expect(saved.json()).toMatchObject(change);
    return saved.json();
  }

  it('saves every service-desk and admin edit dialog\'s whole record, read-only fields included', async () => {
    const user = await t.factories.buildUser(company.id, { name: 'Whole user' });
    await roundTrip(adminToken, `/users/${user.id}`, { name: 'Whole user renamed' });

    const contact = await t.request(adminToken, 'POST', '/contacts', { name: 'Whole contact', number: '5511977770001', extraInfo: [{ name: 'CPF', value: '123' }] });
    expect(contact.statusCode).toBe(201);
    const contactSaved = await roundTrip(adminToken, `/contacts/${contact.json().id}`, { name: 'Whole contact renamed' });
    expect(contactSaved.extraInfo).toMatchObject([{ name: 'CPF', value: '123' }]);

    const queue = await t.request(adminToken, 'POST', '/queue', { name: 'Whole queue', color: '#abcdef' });
    await roundTrip(adminToken, `/queue/${queue.json().id}`, { name: 'Whole queue renamed' });

    const option = await t.request(adminToken, 'POST', '/queue-options', { queueId: queue.json().id, title: 'Whole option' });
    expect(option.statusCode).toBe(201);
    await roundTrip(adminToken, `/queue-options/${option.json().id}`, { title: 'Whole option renamed' });

    await roundTrip(adminToken, `/whatsapp/${sandboxId}`, { name: 'Contract sandbox', greetingMessage: 'Whole record' }, `/whatsapp/${sandboxId}?session=0`);

    const tag = await t.request(adminToken, 'POST', '/tags', { name: 'Whole tag', color: '#123123', kanban: 0 });
    await roundTrip(adminToken, `/tags/${tag.json().id}`, { name: 'Whole tag renamed' });

    const quick = await t.request(adminToken, 'POST', '/quick-messages', { shortcode: 'whole', message: 'Olá' });
    await roundTrip(adminToken, `/quick-messages/${quick.json().id}`, { message: 'Olá de novo' });

    const prompt = await t.request(adminToken, 'POST', '/prompt', { name: 'Whole prompt', prompt: LONG_PROMPT, apiKey: 'sk-whole-record', queueId: queue.json().id });
    expect(prompt.statusCode).toBe(201);
    await roundTrip(adminToken, `/prompt/${prompt.json().id}`, { name: 'Whole prompt renamed' });

    const integration = await t.request(adminToken, 'POST', '/queueIntegration', { type: 'webhook', name: `whole-${Date.now()}`, urlN8N: 'https://hooks.example.com/whole' });
    await roundTrip(adminToken, `/queueIntegration/${integration.json().id}`, { name: `whole-renamed-${Date.now()}` });
  });

  it('saves the super user\'s company and plan dialogs with their whole records', async () => {
    const superToken = (await t.login('admin@admin.com', 'Admin123!')).token;
    await roundTrip(superToken, `/companies/${company.id}`, { name: 'Whole company' });
    await roundTrip(superToken, `/plans/${company.planId}`, { name: `Whole plan ${Date.now()}` });
  });

  it('sends a message quoting the whole message object the client holds', async () => {
    const ticketId = await openTicket();
    const [question] = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json<{ messages: Record<string, unknown>[] }>().messages;
    const response = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { read: 1, fromMe: true, mediaUrl: '', body: 'Respondendo', quotedMsg: question });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0]).toMatchObject({ body: 'Respondendo', quotedMsg: { id: question!.id, body: 'Oi' } });
  });
});

describe('no mass assignment', () => {
  it('writes none of companyId, super, id, tokenVersion, online, createdAt sent in a user\'s own edit', async () => {
    const other = await t.factories.buildCompany();
    const agent = await t.factories.buildUser(company.id, { name: 'Agent self edit', profile: 'user' });
    const token = (await agent.login()).token;
    const record = (await t.request(token, 'GET', `/users/${agent.id}`)).json<Record<string, unknown>>();
    const guarded = () =>
      t.database.db
        .select({ companyId: users.companyId, super: users.super, tokenVersion: users.tokenVersion, createdAt: users.createdAt, profile: users.profile, allTicket: users.allTicket })
        .from(users)
        .where(eq(users.id, agent.id));
    const before = await guarded();
    const response = await t.request(token, 'PUT', `/users/${agent.id}`, {
      ...record,
      name: 'Agent renamed',
      companyId: other.id,
      id: agent.id + 1000,
      tokenVersion: 42,
      online: true,
      createdAt: '2000-01-01T00:00:00.000Z',
      password: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: agent.id, companyId: company.id, name: 'Agent renamed', super: false, profile: 'user' });
    expect(before).toHaveLength(1);
    expect(await guarded()).toEqual(before);
    // The session is intact (tokenVersion was not bumped) and no other row took the id.
    expect((await t.request(token, 'GET', '/auth/me')).statusCode).toBe(200);
    expect(await t.database.db.select({ id: users.id }).from(users).where(eq(users.id, agent.id + 1000))).toEqual([]);

    // Fields the role may not change are refused, never written.
    for (const change of [{ super: true }, { profile: 'admin' }, { allTicket: 'enabled' }]) {
      const refused = await t.request(token, 'PUT', `/users/${agent.id}`, { ...record, ...change });
      expect(refused.statusCode, JSON.stringify(change)).toBe(403);
    }
    expect(await guarded()).toEqual(before);
  });

  it('creates records in the caller\'s company whatever companyId, userId or id the body names', async () => {
    const other = await t.factories.buildCompany();
    const colleague = await t.factories.buildUser(company.id, { name: 'Colleague' });
    const contact = await t.request(adminToken, 'POST', '/contacts', { name: 'Mass contact', number: '5511977770002', companyId: other.id, id: 987_654 });
    expect(contact.statusCode).toBe(201);
    expect(contact.json().id).not.toBe(987_654);
    const tag = await t.request(adminToken, 'POST', '/tags', { name: 'Mass tag', companyId: other.id, id: 987_654, ticketsCount: 99 });
    expect(tag.json().id).not.toBe(987_654);
    expect(tag.statusCode).toBe(201);
    const quick = await t.request(adminToken, 'POST', '/quick-messages', { shortcode: 'mass', message: 'x', companyId: other.id, userId: colleague.id });
    expect(quick.statusCode).toBe(201);
    const db = t.database.db;
    expect(await db.select({ companyId: contacts.companyId }).from(contacts).where(eq(contacts.id, contact.json().id))).toEqual([{ companyId: company.id }]);
    expect(await db.select({ companyId: tags.companyId }).from(tags).where(eq(tags.id, tag.json().id))).toEqual([{ companyId: company.id }]);
    expect(await db.select({ companyId: quickMessages.companyId, userId: quickMessages.userId }).from(quickMessages).where(eq(quickMessages.id, quick.json().id))).toEqual([
      { companyId: company.id, userId: company.admin.id },
    ]);
    // Nothing was written to the other company.
    expect(await db.select({ id: contacts.id }).from(contacts).where(inArray(contacts.companyId, [other.id]))).toEqual([]);
  });

  it('still answers 400 to a declared field of the wrong type inside a whole record', async () => {
    const user = await t.factories.buildUser(company.id, { name: 'Typed user' });
    const record = (await t.request(adminToken, 'GET', `/users/${user.id}`)).json<Record<string, unknown>>();
    const cases: [string, Record<string, unknown>][] = [
      [`/users/${user.id}`, { ...record, name: 5 }],
      [`/users/${user.id}`, { ...record, queueIds: 'all' }],
      [`/whatsapp/${sandboxId}`, { name: 'Contract sandbox', expiresTicket: 'soon' }],
      [`/whatsapp/${sandboxId}`, { name: 'Contract sandbox', isDefault: 'yes' }],
    ];
    for (const [url, body] of cases) {
      const response = await t.request(adminToken, 'PUT', url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
    }
    // A boolean is not an id, even where coercion would read `true` as 1.
    expect((await t.request(adminToken, 'POST', '/tickets', { contactId: true })).statusCode).toBe(400);
    expect((await t.request(adminToken, 'POST', '/ticket-notes', { note: 'Nota', ticketId: true, contactId: [1] })).statusCode).toBe(400);
  });
});

describe('the socket says when it is ready', () => {
  it('lets an agent (no admins\' room) make the spec client\'s joins on ready, the ticket id as a string, and hear its ticket', async () => {
    const agent = await t.factories.buildUser(company.id, { name: 'Socket agent', profile: 'user' });
    const from = '5511966660001';
    const inbound = await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from, name: 'Socket customer', body: 'Oi' });
    const { ticketId } = inbound.json<{ ticketId: number }>();
    expect((await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: agent.id })).statusCode).toBe(200);

    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const socket = connectSocket(`http://127.0.0.1:${address.port}`, { transports: ['websocket'], query: { token: (await agent.login()).token }, reconnection: false });
    sockets.push(socket);
    const ask = (event: string, ...args: unknown[]) => socket.timeout(2000).emitWithAck(event, ...args) as Promise<{ ok: boolean }>;
    // As the spec's client: every join waits for `ready`.
    const joins = await new Promise<{ ok: boolean }[]>((resolve, reject) => {
      socket.once('connect_error', reject);
      socket.once('ready', () => {
        Promise.all([ask('joinChatBox', `${ticketId}`), ask('joinNotification'), ask('joinTickets', 'open')]).then(resolve, reject);
      });
    });
    expect(joins).toEqual([{ ok: true }, { ok: true }, { ok: true }]);

    const heard = new Promise((resolve) => socket.on(`company-${company.id}-appMessage`, resolve));
    await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from, body: 'Ainda aí?' });
    await expect(heard).resolves.toMatchObject({ action: 'create', message: { body: 'Ainda aí?', ticketId } });
  });
});

describe('every company has a due date', () => {
  const farFuture = (value: unknown) => typeof value === 'string' && new Date(value).getTime() > Date.now() + 50 * 365 * 86_400_000;

  it('answers the seeded company and a company created without one with a far-future date, never null', async () => {
    const superLogin = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'admin@admin.com', password: 'Admin123!' } });
    expect(superLogin.statusCode).toBe(200);
    expect(superLogin.json().user.company.id).toBe(1);
    expect(farFuture(superLogin.json().user.company.dueDate)).toBe(true);
    const superToken = superLogin.json().token as string;

    const email = `due-${Date.now()}@example.com`;
    const created = await t.request(superToken, 'POST', '/companies', { name: 'Sem vencimento', email, password: 'Secret123', planId: company.planId });
    expect(created.statusCode).toBe(201);
    expect(farFuture(created.json().dueDate)).toBe(true);
    const owner = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'Secret123' } });
    expect(owner.statusCode).toBe(200);
    expect(farFuture(owner.json().user.company.dueDate)).toBe(true);
    const me = await t.request(owner.json().token, 'GET', '/auth/me');
    expect(farFuture(me.json().company.dueDate)).toBe(true);
  });

  it('keeps "no expiry" a super user\'s explicit choice, shown as a date; a real date stays that date', async () => {
    const superToken = (await t.login('admin@admin.com', 'Admin123!')).token;
    const other = await t.factories.buildCompany({ dueDate: '2030-05-01' });
    expect((await t.request(superToken, 'GET', `/companies/${other.id}`)).json().dueDate).toBe('2030-05-01');
    const cleared = await t.request(superToken, 'PUT', `/companies/${other.id}`, { dueDate: '' });
    expect(cleared.statusCode).toBe(200);
    expect(farFuture(cleared.json().dueDate)).toBe(true);
    const owner = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: other.admin.email, password: other.admin.password } });
    expect(owner.statusCode).toBe(200);
    expect(farFuture(owner.json().user.company.dueDate)).toBe(true);
  });
});
