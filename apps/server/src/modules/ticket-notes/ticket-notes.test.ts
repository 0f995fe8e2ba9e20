import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;
let colleague: BuiltUser;
let colleagueToken: string;
let sales: { id: number };
let support: { id: number };

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  sales = await t.factories.buildQueue(company.id);
  support = await t.factories.buildQueue(company.id);
  agent = await t.factories.buildUser(company.id, { name: 'Agente Vendas', queueIds: [sales.id] });
  agentToken = (await agent.login()).token;
  colleague = await t.factories.buildUser(company.id, { queueIds: [sales.id] });
  colleagueToken = (await colleague.login()).token;
});
afterAll(() => t.close());

describe('ticket notes', () => {
  it('adds a note to a ticket the user may open, answering it with its author', async () => {
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id, status: 'open', userId: agent.id });
    const response = await t.request(agentToken, 'POST', '/ticket-notes', { note: 'Cliente VIP', ticketId: ticket.id, contactId: ticket.contactId });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      note: 'Cliente VIP',
      ticketId: ticket.id,
      contactId: ticket.contactId,
      user: { id: agent.id, name: 'Agente Vendas' },
      createdAt: expect.any(String),
    });
  });

  it('validates the note (at least 2 characters)', async () => {
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id });
    const response = await t.request(agentToken, 'POST', '/ticket-notes', { note: ' x ', ticketId: ticket.id, contactId: ticket.contactId });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.note).toEqual(['Too Short!']);
  });

  it('refuses a ticket outside the user’s queues (403) and a contact that is not the ticket’s (404)', async () => {
    const elsewhere = await sd.buildTicket(company.id, { queueId: support.id, status: 'open', userId: company.admin.id });
    const outside = await t.request(agentToken, 'POST', '/ticket-notes', { note: 'Oi', ticketId: elsewhere.id, contactId: elsewhere.contactId });
    expect(outside.statusCode).toBe(403);
    expect((await t.request(agentToken, 'GET', `/ticket-notes/list?ticketId=${elsewhere.id}&contactId=${elsewhere.contactId}`)).statusCode).toBe(403);

    const mine = await sd.buildTicket(company.id, { queueId: sales.id });
    const stranger = await sd.buildContact(company.id);
    const wrongContact = await t.request(agentToken, 'POST', '/ticket-notes', { note: 'Oi', ticketId: mine.id, contactId: stranger.id });
    expect(wrongContact.statusCode).toBe(404);
    expect(wrongContact.json().error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('lists the contact’s notes across its tickets, newest first', async () => {
    const contact = await sd.buildContact(company.id);
    const connection = await sd.buildConnection(company.id, { isDefault: false });
    const older = await sd.buildTicket(company.id, { contactId: contact.id, queueId: sales.id, status: 'closed' });
    const current = await sd.buildTicket(company.id, { contactId: contact.id, queueId: sales.id, whatsappId: connection.id });
    await sd.buildNote(company.id, older, colleague.id, 'Primeira');
    await sd.buildNote(company.id, current, agent.id, 'Segunda');
    const otherContact = await sd.buildTicket(company.id, { queueId: sales.id });
    await sd.buildNote(company.id, otherContact, agent.id, 'De outro contato');

    const response = await t.request(agentToken, 'GET', `/ticket-notes/list?ticketId=${current.id}&contactId=${contact.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().map((n: { note: string }) => n.note)).toEqual(['Segunda', 'Primeira']);
    expect(response.json()[1]).toMatchObject({ ticketId: older.id, user: { id: colleague.id } });
  });

  it('its author or an admin may delete a note; anyone else gets ERR_NO_PERMISSION', async () => {
    const ticket = await sd.buildTicket(company.id, { queueId: sales.id });
    const byAgent = await sd.buildNote(company.id, ticket, agent.id);
    const refused = await t.request(colleagueToken, 'DELETE', `/ticket-notes/${byAgent.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    expect((await t.request(agentToken, 'DELETE', `/ticket-notes/${byAgent.id}`)).statusCode).toBe(200);
    expect((await t.request(agentToken, 'DELETE', `/ticket-notes/${byAgent.id}`)).statusCode).toBe(404);

    const byColleague = await sd.buildNote(company.id, ticket, colleague.id);
    expect((await t.request(adminToken, 'DELETE', `/ticket-notes/${byColleague.id}`)).statusCode).toBe(200);
    const left = (await t.request(agentToken, 'GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`)).json();
    expect(left).toEqual([]);
  });
});
