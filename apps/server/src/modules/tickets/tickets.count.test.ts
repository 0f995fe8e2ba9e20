import { PAGE_SIZE } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

/**
 * GET /tickets/count: the whole list's size for a list query (the tickets
 * manager's badges and the top bar's bell), under the list's visibility rules.
 */
let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;
let allTicketToken: string;
let otherToken: string;
let sales: { id: number };
let support: { id: number };

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  sales = await t.factories.buildQueue(company.id, { name: 'Vendas' });
  support = await t.factories.buildQueue(company.id, { name: 'Suporte' });
  agent = await t.factories.buildUser(company.id, { queueIds: [sales.id], allTicket: 'desabled' });
  agentToken = (await agent.login()).token;
  allTicketToken = (await (await t.factories.buildUser(company.id, { queueIds: [sales.id], allTicket: 'enabled' })).login()).token;
  const other = await t.factories.buildCompany();
  otherToken = (await other.admin.login()).token;

  const connection = (await sd.buildConnection(company.id)).id;
  const ticket = (overrides: Parameters<typeof sd.buildTicket>[1]) => sd.buildTicket(company.id, { whatsappId: connection, ...overrides });
  // More pending tickets of the agent's queue than one page holds.
  for (let i = 0; i < PAGE_SIZE + 3; i += 1) await ticket({ status: 'pending', queueId: sales.id });
  // Pending in a queue the agent is not in.
  for (let i = 0; i < 4; i += 1) await ticket({ status: 'pending', queueId: support.id });
  // The agent's open tickets: two with unread messages, one read.
  await ticket({ status: 'open', queueId: sales.id, userId: agent.id, unreadMessages: 2 });
  await ticket({ status: 'open', queueId: sales.id, userId: agent.id, unreadMessages: 1 });
  await ticket({ status: 'open', queueId: sales.id, userId: agent.id, unreadMessages: 0 });
  // Someone else's open ticket with unread messages, in the agent's queue.
  await ticket({ status: 'open', queueId: sales.id, userId: company.admin.id, unreadMessages: 5 });
});
afterAll(() => t.close());

const count = async (token: string, query: string) => {
  const response = await t.request(token, 'GET', `/tickets/count?${query}`);
  expect(response.statusCode).toBe(200);
  return (response.json() as { count: number }).count;
};

describe('GET /tickets/count', () => {
  it('counts every ticket of the list, not one page', async () => {
    const listed = await t.request(agentToken, 'GET', '/tickets?status=pending');
    expect((listed.json() as { tickets: unknown[]; hasMore: boolean }).hasMore).toBe(true);
    expect(await count(agentToken, 'status=pending')).toBe(PAGE_SIZE + 3);
  });

  it('follows the list visibility: own queues, own open tickets, allTicket adds every pending ticket', async () => {
    expect(await count(agentToken, 'status=open')).toBe(3);
    expect(await count(agentToken, 'status=open&withUnreadMessages=true')).toBe(2);
    expect(await count(allTicketToken, 'status=pending')).toBe(PAGE_SIZE + 3 + 4);
    expect(await count(allTicketToken, 'status=open&withUnreadMessages=true')).toBe(0);
    // A non-admin's showAll is ignored.
    expect(await count(agentToken, 'status=pending&showAll=true')).toBe(PAGE_SIZE + 3);
    expect(await count(adminToken, `status=pending&showAll=true`)).toBe(PAGE_SIZE + 3 + 4);
    expect(await count(adminToken, `status=open&showAll=true&queueIds=${encodeURIComponent(JSON.stringify([sales.id]))}`)).toBe(4);
  });

  it("another company's user counts none of these tickets", async () => {
    expect(await count(otherToken, 'status=pending&showAll=true')).toBe(0);
  });

  it('validates the query like the list', async () => {
    const response = await t.request(agentToken, 'GET', '/tickets/count?status=nope');
    expect(response.statusCode).toBe(400);
  });
});
