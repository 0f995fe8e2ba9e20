import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userQueues, users } from '../platform/db/schema.js';
import type { BuiltCompany } from '../test/factories.js';
import { createServiceDeskFactories } from '../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/**
 * With two companies, every id-taking route of company B answers 404 (or 403
 * where the route is for super users only) to an admin of company A, and
 * nothing of B is changed.
 */
let t: TestContext;
let a: BuiltCompany;
let b: BuiltCompany;
let aToken: string;
let bUserId: number;
let bQueueId: number;

beforeAll(async () => {
  t = await createTestContext();
  a = await t.factories.buildCompany();
  b = await t.factories.buildCompany();
  aToken = (await a.admin.login()).token;
  bUserId = (await t.factories.buildUser(b.id, { name: 'B agent' })).id;
  bQueueId = (await t.factories.buildQueue(b.id)).id;
});
afterAll(() => t.close());

describe('tenant isolation', () => {
  it("answers 404 for another company's ids", async () => {
    const cases: [method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', `/users/${bUserId}`],
      ['PUT', `/users/${bUserId}`, { name: 'Stolen' }],
      ['DELETE', `/users/${bUserId}`],
      ['GET', `/queue/${bQueueId}`],
      ['GET', `/companies/${b.id}`],
      ['GET', `/companies/listPlan/${b.id}`],
      ['PUT', `/companies/${b.id}/schedules`, { schedules: [] }],
    ];
    for (const [method, url, body] of cases) {
      const response = await t.request(aToken, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const bToken = (await b.admin.login()).token;
    const stillThere = await t.request(bToken, 'GET', `/users/${bUserId}`);
    expect(stillThere.json().name).toBe('B agent');
  });

  it("never lists another company's records", async () => {
    const users = (await t.request(aToken, 'GET', '/users/list?companyId=' + b.id)).json();
    expect(users.map((u: { id: number; companyId: number }) => [u.id, u.companyId])).toEqual([[a.admin.id, a.id]]);
    const page = (await t.request(aToken, 'GET', '/users?searchParam=B%20agent')).json();
    expect(page.users).toEqual([]);
    const queues = (await t.request(aToken, 'GET', '/queue?companyId=' + b.id)).json();
    expect(queues).toEqual([]);
    const settings = (await t.request(aToken, 'GET', '/settings')).json();
    expect(settings.length).toBeGreaterThan(0);
  });

  it('a user of A cannot assign a user of B a queue of A, nor B a connection', async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const aQueue = await t.factories.buildQueue(a.id);
    const aConnection = await sd.buildConnection(a.id);
    const bConnection = await sd.buildConnection(b.id);
    const aAgent = await t.factories.buildUser(a.id, { name: 'A agent' });
    expect((await t.request(aToken, 'PUT', `/users/${bUserId}`, { queueIds: [aQueue.id] })).statusCode).toBe(404);
    expect((await t.request(aToken, 'PUT', `/users/${bUserId}`, { whatsappId: aConnection.id })).statusCode).toBe(404);
    // Nor can A give its own user B's connection or queue.
    expect((await t.request(aToken, 'PUT', `/users/${aAgent.id}`, { whatsappId: bConnection.id })).statusCode).toBe(404);
    expect((await t.request(aToken, 'PUT', `/users/${aAgent.id}`, { queueIds: [bQueueId] })).statusCode).toBe(404);
    const [bUser] = await t.database.db.select().from(users).where(eq(users.id, bUserId));
    expect(bUser).toMatchObject({ companyId: b.id, whatsappId: null });
    expect(await t.database.db.select().from(userQueues).where(eq(userQueues.userId, bUserId))).toEqual([]);
    const [aUser] = await t.database.db.select().from(users).where(eq(users.id, aAgent.id));
    expect(aUser?.whatsappId).toBeNull();
    expect(await t.database.db.select().from(userQueues).where(eq(userQueues.userId, aAgent.id))).toEqual([]);
    // The same changes within A are accepted: the refusals above are about the company.
    expect((await t.request(aToken, 'PUT', `/users/${aAgent.id}`, { whatsappId: aConnection.id, queueIds: [aQueue.id] })).statusCode).toBe(200);
  });
});

describe('tenant isolation of the service desk’s side resources', () => {
  it("answers 404 for another company's contacts, notes, tags and quick messages, and changes nothing", async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const bContact = await sd.buildContact(b.id, { name: 'B customer', extraInfo: [{ name: 'K', value: 'V' }] });
    const bTicket = await sd.buildTicket(b.id, { contactId: bContact.id, status: 'open', userId: b.admin.id });
    const bNote = await sd.buildNote(b.id, bTicket, b.admin.id, 'B note');
    const bTag = await sd.buildTag(b.id, { name: 'B tag' });
    await sd.tagTicket(b.id, bTicket.id, [bTag.id]);
    const bQuick = await sd.buildQuickMessage(b.id, b.admin.id, { shortcode: 'b-quick', geral: true });
    const aTicket = await sd.buildTicket(a.id);
    const aTag = await sd.buildTag(a.id, { name: 'A tag' });

    const cases: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', `/contacts/${bContact.id}`],
      ['PUT', `/contacts/${bContact.id}`, { name: 'Stolen', extraInfo: [] }],
      ['DELETE', `/contacts/${bContact.id}`],
      ['POST', '/ticket-notes', { note: 'Stolen', ticketId: bTicket.id, contactId: bContact.id }],
      ['POST', '/ticket-notes', { note: 'Stolen', ticketId: aTicket.id, contactId: bContact.id }],
      ['GET', `/ticket-notes/list?ticketId=${bTicket.id}&contactId=${bContact.id}`],
      ['GET', `/ticket-notes/list?contactId=${bContact.id}`],
      ['DELETE', `/ticket-notes/${bNote.id}`],
      ['GET', `/tags/${bTag.id}`],
      ['PUT', `/tags/${bTag.id}`, { name: 'Stolen' }],
      ['DELETE', `/tags/${bTag.id}`],
      ['POST', '/tags/sync', { ticketId: bTicket.id, tags: [] }],
      ['POST', '/tags/sync', { ticketId: aTicket.id, tags: [{ id: aTag.id }, { id: bTag.id }] }],
      ['GET', `/quick-messages/${bQuick.id}`],
      ['PUT', `/quick-messages/${bQuick.id}`, { message: 'Stolen' }],
      ['DELETE', `/quick-messages/${bQuick.id}`],
      ['DELETE', `/quick-messages/${bQuick.id}/media-upload`],
    ];
    for (const [method, url, body] of cases) {
      const response = await t.request(aToken, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const boundary = '----isolation';
    const upload = await t.app.inject({
      method: 'POST',
      url: `/quick-messages/${bQuick.id}/media-upload`,
      headers: { authorization: `Bearer ${aToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\npng\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode).toBe(404);

    const bToken = (await b.admin.login()).token;
    expect((await t.request(bToken, 'GET', `/contacts/${bContact.id}`)).json()).toMatchObject({ name: 'B customer', extraInfo: [{ name: 'K' }] });
    expect((await t.request(bToken, 'GET', `/ticket-notes/list?contactId=${bContact.id}`)).json()).toMatchObject([{ note: 'B note' }]);
    expect((await t.request(bToken, 'GET', `/tickets/${bTicket.id}`)).json().tags).toMatchObject([{ id: bTag.id }]);
    expect((await t.request(bToken, 'GET', `/quick-messages/${bQuick.id}`)).json()).toMatchObject({ message: bQuick.message });
    expect((await t.request(aToken, 'GET', `/tickets/${aTicket.id}`)).json().tags).toEqual([]);
  });

  it("never lists nor imports another company's contacts, tags or quick messages", async () => {
    const sd = createServiceDeskFactories(t.database.db);
    await sd.buildContact(b.id, { name: 'Hidden person', email: 'hidden@b.example' });
    await sd.buildTag(b.id, { name: 'Hidden tag' });
    await sd.buildQuickMessage(b.id, b.admin.id, { shortcode: 'hidden', geral: true });
    // B's sandbox phone talked to a number A does not know.
    const bConnection = await sd.buildConnection(b.id);
    const bToken = (await b.admin.login()).token;
    await t.request(bToken, 'POST', `/sandbox/${bConnection.id}/inbound`, { from: '5511944440001', body: 'Oi B, senha zimbabwe' });
    // What B's customer said is found by B's search only.
    const ticketSearch = '/tickets?searchParam=zimbabwe&showAll=true';
    expect((await t.request(bToken, 'GET', ticketSearch)).json().tickets).toHaveLength(1);
    expect((await t.request(aToken, 'GET', ticketSearch)).json().tickets).toEqual([]);

    const contacts = (await t.request(aToken, 'GET', '/contacts?searchParam=hidden')).json();
    expect(contacts).toMatchObject({ contacts: [], count: 0, hasMore: false });
    const pickers = (await t.request(aToken, 'GET', `/contacts/list?companyId=${b.id}`)).json();
    expect(pickers.some((c: { name: string }) => c.name === 'Hidden person')).toBe(false);
    expect((await t.request(aToken, 'GET', '/tags/list')).json().some((tag: { name: string }) => tag.name === 'Hidden tag')).toBe(false);
    expect((await t.request(aToken, 'GET', '/tags?searchParam=hidden')).json().tags).toEqual([]);
    expect((await t.request(aToken, 'GET', `/quick-messages/list?companyId=${b.id}`)).json().some((q: { shortcode: string }) => q.shortcode === 'hidden')).toBe(false);
    expect((await t.request(aToken, 'GET', '/quick-messages?searchParam=hidden')).json().records).toEqual([]);

    const imported = (await t.request(aToken, 'POST', '/contacts/import')).json();
    expect(imported.newContacts).toEqual([]);
    expect((await t.request(aToken, 'GET', '/contacts?searchParam=5511944440001')).json().contacts).toEqual([]);
  });
});
