import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, ticketCycles, tickets } from '../../platform/db/schema.js';
import { createAutomationHarness, type AutomationHarness } from '../../test/automation-harness.js';

/*
 * whaticket v6's reports (issue 32) on Atende's cycles: conversations per agent and queue,
 * ratings per queue, conversations per hour, and the tickets report, each in the company's
 * days, with v6's field names; tenants and roles enforced.
 */

let h: AutomationHarness;
let companyId: number;
let adminToken: string;
let agentToken: string;
let agentId: number;
let sales: number;
let support: number;
const made: Record<string, number> = {};

/** A ticket whose cycle is placed at `queued` with its agent, queue and rating. */
async function ticketAt(name: string, queued: string, values: { userId?: number | null; queueId?: number | null; rating?: number; status?: 'open' | 'pending' | 'closed' }) {
  const ticket = await h.desk.buildTicket(companyId, { userId: values.userId ?? null, queueId: values.queueId ?? null, status: values.status ?? 'pending', lastMessage: `${name} last` });
  await h.database.db.update(tickets).set({ createdAt: new Date(queued) }).where(eq(tickets.id, ticket.id));
  const rated = values.rating ? { rating: values.rating, finishedAt: new Date(queued), ratedAt: new Date(queued) } : {};
  await h.database.db
    .update(ticketCycles)
    .set({ queuedAt: new Date(queued), userId: values.userId ?? null, queueId: values.queueId ?? null, ...rated })
    .where(eq(ticketCycles.ticketId, ticket.id));
  made[name] = ticket.id;
}

beforeAll(async () => {
  h = await createAutomationHarness();
  const company = await h.factories.buildCompany();
  companyId = company.id;
  adminToken = (await company.admin.login()).token;
  await h.database.db.update(companies).set({ timezone: 'America/Sao_Paulo' }).where(eq(companies.id, companyId));
  sales = (await h.factories.buildQueue(companyId, { name: 'Vendas' })).id;
  support = (await h.factories.buildQueue(companyId, { name: 'Suporte' })).id;
  const agent = await h.factories.buildUser(companyId, { name: 'Ana Agente', profile: 'user', queueIds: [sales] });
  agentId = agent.id;
  agentToken = (await agent.login()).token;
  // 2024-05-10, São Paulo (UTC-3): 09:xx twice and 14:xx once; the 11th's 01:00 UTC is still the 10th there.
  await ticketAt('a', '2024-05-10T12:05:00Z', { userId: agentId, queueId: sales, rating: 3, status: 'closed' });
  await ticketAt('b', '2024-05-10T12:40:00Z', { userId: agentId, queueId: sales, rating: 2, status: 'open' });
  await ticketAt('c', '2024-05-10T17:00:00Z', { queueId: support, rating: 1 });
  await ticketAt('d', '2024-05-11T01:00:00Z', { queueId: support });
  // Outside the range.
  await ticketAt('e', '2024-06-01T12:00:00Z', { userId: agentId, queueId: sales });
  // Another company's, in the range.
  const other = await h.factories.buildCompany();
  await h.desk.buildTicket(other.id, { status: 'pending', lastMessage: 'theirs' });
});
afterAll(() => h.close());

const RANGE = 'initialDate=2024-05-10&finalDate=2024-05-10&companyId=999';

describe("v6's dashboard charts", () => {
  it('appointmentsAtendent: conversations per agent and per queue of the range, every one listed, fewest first', async () => {
    const response = await h.request(adminToken, 'GET', `/reports/appointmentsAtendent?${RANGE}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ appointmentsByAttendents: { user_name: string; total_tickets: number }[]; ticketsByQueues: { name: string; total_tickets: number }[] }>();
    expect(body.appointmentsByAttendents).toEqual(expect.arrayContaining([{ user_name: 'Ana Agente', total_tickets: 2 }]));
    expect(body.ticketsByQueues).toEqual([
      { name: 'Suporte', total_tickets: 2 },
      { name: 'Vendas', total_tickets: 2 },
    ]);
  });

  it('departamentRatings: the average rating per queue; rushHour: conversations per hour of the company clock', async () => {
    const ratings = await h.request(adminToken, 'GET', `/reports/departamentRatings?${RANGE}`);
    expect(ratings.json()).toEqual([
      { name: 'Suporte', total_rate: '1.00' },
      { name: 'Vendas', total_rate: '2.50' },
    ]);
    const hours = await h.request(adminToken, 'GET', `/reports/rushHour?${RANGE}`);
    expect(hours.json()).toEqual([
      { message_hour: 9, message_count: 2 },
      { message_hour: 14, message_count: 1 },
      { message_hour: 22, message_count: 1 },
    ]);
  });

  it('refuse bad dates (400 with the field) and agents (403)', async () => {
    const bad = await h.request(adminToken, 'GET', '/reports/rushHour?initialDate=2024-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.initialDate).toBeDefined();
    expect((await h.request(adminToken, 'GET', '/reports/rushHour?initialDate=2024-05-11&finalDate=2024-05-10')).statusCode).toBe(400);
    expect((await h.request(agentToken, 'GET', `/reports/appointmentsAtendent?${RANGE}`)).statusCode).toBe(403);
  });
});

describe("v6's tickets report", () => {
  it('pages the filtered tickets, newest first, with v6 names, statuses and dates in the company zone', async () => {
    const all = await h.request(adminToken, 'GET', `/ticket/reports?dateFrom=2024-05-10&dateTo=2024-05-10&page=1&pageSize=10&status=${encodeURIComponent('["open","closed","pending"]')}`);
    expect(all.statusCode).toBe(200);
    const body = all.json<{ tickets: Record<string, unknown>[]; totalTickets: { total: number } }>();
    expect(body.totalTickets).toEqual({ total: 4 });
    expect(body.tickets.map((t) => t.id)).toEqual([made.d, made.c, made.b, made.a]);
    expect(body.tickets[3]).toMatchObject({ queueName: 'Vendas', userName: 'Ana Agente', status: 'FECHADO', createdAt: '10/05/2024 09:05', lastMessage: 'a last' });

    const filtered = await h.request(adminToken, 'GET', `/ticket/reports?queueIds=${encodeURIComponent(`[${sales}]`)}&users=${encodeURIComponent(`[${agentId}]`)}&status=${encodeURIComponent('["open"]')}&pageSize=1`);
    expect(filtered.json()).toMatchObject({ tickets: [{ id: made.b, status: 'ABERTO' }], totalTickets: { total: 1 } });
    const second = await h.request(adminToken, 'GET', `/ticket/reports?dateFrom=2024-05-10&dateTo=2024-05-10&pageSize=2&page=2`);
    expect(second.json<{ tickets: { id: number }[] }>().tickets.map((t) => t.id)).toEqual([made.b, made.a]);
  });

  it("an agent sees its own tickets, its queues' and those without a queue; bad filters are 400", async () => {
    const mine = await h.request(agentToken, 'GET', '/ticket/reports?dateFrom=2024-05-10&dateTo=2024-06-30&pageSize=50');
    const ids = mine.json<{ tickets: { id: number }[] }>().tickets.map((t) => t.id);
    expect(ids.sort()).toEqual([made.a, made.b, made.e].sort());
    expect((await h.request(agentToken, 'GET', '/ticket/reports?status=%5B%22lost%22%5D')).statusCode).toBe(400);
    expect((await h.request(agentToken, 'GET', '/ticket/reports?queueIds=%5B%22x%22%5D')).statusCode).toBe(400);
  });
});
