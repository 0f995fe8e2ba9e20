import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, ticketCycles, ticketTransfers, whatsapps } from '../../platform/db/schema.js';
import { SUPER_ADMIN } from '../../test/test-app.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import type { BuiltUser } from '../../test/factories.js';
import { frtBucketStart, histogramPercentile, resolveRange } from './dashboard.policy.js';

/*
 * The dashboard (issue 21) over a history built through the API and the sandbox:
 * tickets queued, accepted, answered, transferred, closed and rated record their
 * cycle's moments (database triggers); the moments are then placed on two known
 * days so every counter, average and chart value can be asserted exactly, in two
 * time zones. Tenants and roles are enforced.
 */

let h: AutomationHarness;
let companyId: number;
let adminToken: string;
let agentToken: string;
let agent: BuiltUser;
let otherAgent: BuiltUser;
let whatsappId: number;
let queueA: number;
let queueB: number;
const tickets: Record<string, number> = {};

const at = (iso: string) => new Date(iso);

async function cycleOf(ticketId: number) {
  const [row] = await h.database.db.select().from(ticketCycles).where(eq(ticketCycles.ticketId, ticketId));
  return row!;
}

/** Places a cycle's recorded moments on the clock the test asserts against (only those the triggers recorded). */
async function place(ticketId: number, moments: { queued: string; started?: string; response?: string; finished?: string; rated?: string }) {
  const cycle = await cycleOf(ticketId);
  await h.database.db
    .update(ticketCycles)
    .set({
      queuedAt: at(moments.queued),
      startedAt: cycle.startedAt && moments.started ? at(moments.started) : null,
      firstResponseAt: cycle.firstResponseAt && moments.response ? at(moments.response) : null,
      finishedAt: cycle.finishedAt && moments.finished ? at(moments.finished) : null,
      ratedAt: cycle.ratedAt && moments.rated ? at(moments.rated) : null,
    })
    .where(eq(ticketCycles.id, cycle.id));
}

beforeAll(async () => {
  h = await createAutomationHarness();
  const company = await h.factories.buildCompany();
  companyId = company.id;
  adminToken = (await company.admin.login()).token;
  await h.database.db.update(companies).set({ timezone: 'America/Sao_Paulo' }).where(eq(companies.id, companyId));
  expect((await h.request(adminToken, 'PUT', '/settings/userRating', { value: 'enabled' })).statusCode).toBe(200);
  queueA = (await h.factories.buildQueue(companyId, { name: 'Vendas' })).id;
  queueB = (await h.factories.buildQueue(companyId, { name: 'Suporte' })).id;
  whatsappId = (await h.desk.buildConnection(companyId, { ratingMessage: 'Avalie, {{firstName}}!' })).id;
  agent = await h.factories.buildUser(companyId, { name: 'Ana Agente', profile: 'user' });
  otherAgent = await h.factories.buildUser(companyId, { name: 'Bruno Agente', profile: 'user' });
  agentToken = (await agent.login()).token;
  const otherAgentToken = (await otherAgent.login()).token;
  const admin = (token: string, method: 'PUT' | 'POST', url: string, body: unknown) => h.request(token, method, url, body);

  // t1: queued, accepted by Ana, answered, transferred to Suporte and to Bruno, closed, rated 3.
  const p1 = sandboxPhone(h, adminToken, whatsappId, '5511990000001');
  tickets.t1 = (await p1.say('Quero comprar', { name: 'Carla' })).ticketId!;
  await admin(adminToken, 'PUT', `/tickets/${tickets.t1}`, { queueId: queueA });
  expect((await admin(adminToken, 'PUT', `/tickets/${tickets.t1}`, { status: 'open', userId: agent.id })).statusCode).toBe(200);
  expect((await admin(agentToken, 'POST', `/messages/${tickets.t1}`, { body: 'Olá, posso ajudar!' })).statusCode).toBeLessThan(300);
  await admin(adminToken, 'PUT', `/tickets/${tickets.t1}`, { queueId: queueB, userId: otherAgent.id });
  expect((await admin(otherAgentToken, 'PUT', `/tickets/${tickets.t1}`, { status: 'closed' })).statusCode).toBe(200);
  await p1.say('3');
  // t2: queued in Vendas, accepted by Ana, answered, closed, rated 1.
  const p2 = sandboxPhone(h, adminToken, whatsappId, '5511990000002');
  tickets.t2 = (await p2.say('Meu pedido atrasou', { name: 'Davi' })).ticketId!;
  await admin(adminToken, 'PUT', `/tickets/${tickets.t2}`, { queueId: queueA, status: 'open', userId: agent.id });
  await admin(agentToken, 'POST', `/messages/${tickets.t2}`, { body: 'Vou verificar' });
  await admin(agentToken, 'PUT', `/tickets/${tickets.t2}`, { status: 'closed' });
  await p2.say('1');
  // t3: accepted by Ana and answered, still in conversation.
  const p3 = sandboxPhone(h, adminToken, whatsappId, '5511990000003');
  tickets.t3 = (await p3.say('Oi', { name: 'Eva' })).ticketId!;
  await admin(adminToken, 'PUT', `/tickets/${tickets.t3}`, { queueId: queueA, status: 'open', userId: agent.id });
  await admin(agentToken, 'POST', `/messages/${tickets.t3}`, { body: 'Oi Eva' });
  // t4: waiting, never accepted.
  tickets.t4 = (await sandboxPhone(h, adminToken, whatsappId, '5511990000004').say('Alguém?', { name: 'Fábio' })).ticketId!;

  // Day 1 (2026-11-20, São Paulo) and day 2 (2026-11-21). t3 at 15:00 and t4 at 23:30 UTC of the 21st: still the 21st in São Paulo, the 22nd in Tokyo.
  await place(tickets.t1, { queued: '2026-11-20T13:00:00Z', started: '2026-11-20T13:10:00Z', response: '2026-11-20T13:12:00Z', finished: '2026-11-20T13:40:00Z', rated: '2026-11-20T13:45:00Z' });
  await place(tickets.t2, { queued: '2026-11-21T12:00:00Z', started: '2026-11-21T12:20:00Z', response: '2026-11-21T12:30:00Z', finished: '2026-11-21T13:20:00Z', rated: '2026-11-21T13:30:00Z' });
  await place(tickets.t3, { queued: '2026-11-21T15:00:00Z', started: '2026-11-21T15:30:00Z', response: '2026-11-21T15:34:00Z' });
  await place(tickets.t4, { queued: '2026-11-21T23:30:00Z' });
  // New contacts of those days: the four customers were created today; place them too.
  await h.database.db.execute(sql`update contacts set created_at = '2026-11-20T13:00:00Z' where company_id = ${companyId} and number = '5511990000001'`);
  await h.database.db.execute(sql`update contacts set created_at = '2026-11-21T12:00:00Z' where company_id = ${companyId} and number in ('5511990000002', '5511990000003', '5511990000004')`);
}, 60_000);
afterAll(() => h?.close());

const RANGE = 'date_from=2026-11-20&date_to=2026-11-21';

describe('ticket cycles', () => {
  it('record each moment of a cycle and each transfer, from whatever changed the ticket', async () => {
    const first = await cycleOf(tickets.t1!);
    expect(first).toMatchObject({ userId: otherAgent.id, queueId: queueB, rating: 3, transfers: 1 });
    expect([first.startedAt, first.firstResponseAt, first.finishedAt, first.ratedAt].every(Boolean)).toBe(true);
    const transfers = await h.database.db.select().from(ticketTransfers).where(eq(ticketTransfers.cycleId, first.id));
    expect(transfers).toMatchObject([{ fromQueueId: queueA, toQueueId: queueB, fromUserId: agent.id, toUserId: otherAgent.id }]);
    expect(await cycleOf(tickets.t4!)).toMatchObject({ startedAt: null, firstResponseAt: null, finishedAt: null, userId: null });
  });

  it('bot and system messages are never a first response', async () => {
    const phone = sandboxPhone(h, adminToken, whatsappId, '5511990000099');
    const { ticketId } = await phone.say('Oi');
    await h.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: agent.id });
    await h.database.db.execute(sql`insert into messages (company_id, ticket_id, contact_id, body, from_me, source) select company_id, id, contact_id, 'Menu do bot', true, 'bot' from tickets where id = ${ticketId}`);
    expect((await cycleOf(ticketId!)).firstResponseAt).toBeNull();
    await h.request(agentToken, 'POST', `/messages/${ticketId}`, { body: 'Agora sim' });
    expect((await cycleOf(ticketId!)).firstResponseAt).not.toBeNull();
    await h.database.db.delete(ticketCycles).where(eq(ticketCycles.ticketId, ticketId!));
  });
});

describe('daily totals', () => {
  it('read first-response percentiles from the histogram as percentile_cont over bucket starts', () => {
    const counts = new Array<number>(109).fill(0);
    expect(histogramPercentile(counts, 0.5)).toBeNull();
    counts[2] = 1; // 2 min
    counts[61] = 2; // 1 h 15 min
    counts[108] = 1; // 2 days or more
    expect(frtBucketStart(61)).toBe(4500);
    expect(histogramPercentile(counts, 0.5)).toBe(4500);
    expect(histogramPercentile(counts, 0)).toBe(120);
    expect(histogramPercentile(counts, 1)).toBe(172_800);
    expect(histogramPercentile(counts, 0.9)).toBeCloseTo(4500 + 0.7 * (172_800 - 4500));
  });

  it('stay equal to a recount from the cycles through reopen, transfer, close and delete', async () => {
    const phone = sandboxPhone(h, adminToken, whatsappId, '5511990000077');
    const { ticketId } = await phone.say('Oi de novo');
    await h.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: agent.id, queueId: queueA });
    await h.request(agentToken, 'POST', `/messages/${ticketId}`, { body: 'Pois não' });
    await h.request(adminToken, 'PUT', `/tickets/${ticketId}`, { queueId: queueB });
    expect((await h.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'closed' })).statusCode).toBe(200);
    // Reopened by hand: a new cycle.
    // Reopened by hand: a new cycle.
    const reopened = await h.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open', userId: agent.id });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(await h.database.db.select().from(ticketCycles).where(eq(ticketCycles.ticketId, ticketId!))).toHaveLength(2);
    const snapshot = async () =>
      ((await h.database.db.execute(sql`select day::text, user_id, queue_id, whatsapp_id, queued, happening, pending, finished, round(support_seconds) as support, support_count,
        round(wait_seconds) as wait, wait_count, rated_1, rated_2, rated_3, rated_finished,
        (select string_agg(f.bucket || ':' || f.n, ',' order by f.bucket) from ticket_cycle_frt f
          where f.company_id = d.company_id and f.day = d.day and f.queue_id = d.queue_id and f.whatsapp_id = d.whatsapp_id and f.n <> 0) as frt
        from ticket_cycle_days d where company_id = ${companyId} and queued <> 0 order by 1, 2, 3, 4`)) as unknown as { rows: unknown[] }).rows;
    const kept = await snapshot();
    await h.database.db.execute(sql`select dashboard_days_rebuild(${companyId})`);
    expect(await snapshot()).toEqual(kept);
    await h.request(adminToken, 'DELETE', `/tickets/${ticketId}`);
    const afterDelete = await snapshot();
    await h.database.db.execute(sql`select dashboard_days_rebuild(${companyId})`);
    expect(await snapshot()).toEqual(afterDelete);
  });
});

describe('GET /dashboard', () => {
  it("gives a super user the platform's companies and connected connections, and a company admin neither", async () => {
    const token = (await h.app.inject({ method: 'POST', url: '/auth/login', payload: SUPER_ADMIN })).json<{ token: string }>().token;
    const [companyCount] = await h.database.db.select({ n: count() }).from(companies);
    const [connected] = await h.database.db.select({ n: count() }).from(whatsapps).where(eq(whatsapps.status, 'CONNECTED'));
    const counters = (await h.request(token, 'GET', `/dashboard?${RANGE}`)).json().counters;
    expect(counters).toMatchObject({ totalCompanies: companyCount!.n, totalWhatsappSessions: connected!.n });
    expect(companyCount!.n).toBeGreaterThan(1);
    const own = (await h.request(adminToken, 'GET', `/dashboard?${RANGE}`)).json().counters;
    expect(own).not.toHaveProperty('totalCompanies');
    expect(own).not.toHaveProperty('totalWhatsappSessions');
  });

  it('counts and averages the cycles of the range exactly', async () => {
    const answer = await h.request(adminToken, 'GET', `/dashboard?${RANGE}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().counters).toEqual({
      supportHappening: 1,
      supportPending: 1,
      supportFinished: 2,
      leads: 4,
      // (30 + 60) / 2 minutes from accept to close.
      avgSupportTime: 45,
      // (10 + 20 + 30) / 3 minutes from queued to accept.
      avgWaitTime: 20,
      // First responses after 12, 30 and 34 minutes.
      firstResponseMedian: 30,
      firstResponseP90: 33.2,
      ratings: { 1: 1, 2: 0, 3: 1 },
      ratingResponseRate: 100,
    });
    expect(answer.json().range).toEqual({ from: '2026-11-20', to: '2026-11-21', timeZone: 'America/Sao_Paulo' });
  });

  it('lists every attendant with tickets, rating out of 3, average support time and online status', async () => {
    const attendants = (await h.request(adminToken, 'GET', `/dashboard?${RANGE}`)).json().attendants as { name: string }[];
    expect(attendants.filter((a) => a.name.endsWith('Agente'))).toEqual([
      { id: agent.id, name: 'Ana Agente', online: true, tickets: 2, rating: 1, avgSupportTime: 60 },
      { id: otherAgent.id, name: 'Bruno Agente', online: true, tickets: 1, rating: 3, avgSupportTime: 30 },
    ]);
  });

  it('filters by day, queue and connection', async () => {
    const day2 = (await h.request(adminToken, 'GET', '/dashboard?date_from=2026-11-21&date_to=2026-11-21')).json().counters;
    expect(day2).toMatchObject({ supportHappening: 1, supportPending: 1, supportFinished: 1, leads: 3, avgSupportTime: 60, avgWaitTime: 25 });
    const support = (await h.request(adminToken, 'GET', `/dashboard?${RANGE}&queueIds=${queueB}`)).json().counters;
    expect(support).toMatchObject({ supportFinished: 1, supportHappening: 0, supportPending: 0 });
    const none = (await h.request(adminToken, 'GET', `/dashboard?${RANGE}&whatsappIds=[999999]`)).json().counters;
    expect(none).toMatchObject({ supportFinished: 0, supportHappening: 0, leads: 0 });
  });

  it('reads the days in the company time zone', async () => {
    const perDay = async () => (await h.request(adminToken, 'GET', '/dashboard/ticketsDay?initialDate=2026-11-20&finalDate=2026-11-22')).json();
    expect(await perDay()).toEqual({ data: [{ data: '2026-11-20', total: 1 }, { data: '2026-11-21', total: 3 }, { data: '2026-11-22', total: 0 }], count: 4 });
    await h.database.db.update(companies).set({ timezone: 'Asia/Tokyo' }).where(eq(companies.id, companyId));
    try {
      // In Tokyo 15:00Z is already midnight of the 22nd.
      expect(await perDay()).toEqual({ data: [{ data: '2026-11-20', total: 1 }, { data: '2026-11-21', total: 1 }, { data: '2026-11-22', total: 2 }], count: 4 });
    } finally {
      await h.database.db.update(companies).set({ timezone: 'America/Sao_Paulo' }).where(eq(companies.id, companyId));
    }
  });

  it('answers the chart of tickets per agent and per hour of a single day', async () => {
    expect((await h.request(adminToken, 'GET', '/dashboard/ticketsUsers?initialDate=2026-11-20&finalDate=2026-11-21')).json()).toEqual({
      data: [
        { nome: 'Ana Agente', quantidade: 2 },
        { nome: 'Bruno Agente', quantidade: 1 },
      ],
      count: 3,
    });
    const hours = (await h.request(adminToken, 'GET', '/dashboard/ticketsDay?initialDate=2026-11-21&finalDate=2026-11-21')).json();
    expect(hours.data).toHaveLength(24);
    // 12:00Z, 15:00Z and 23:30Z are 09, 12 and 20 o'clock in São Paulo.
    expect(hours.data.filter((row: { total: number }) => row.total > 0)).toEqual([
      { horario: '09:00', total: 1 },
      { horario: '12:00', total: 1 },
      { horario: '20:00', total: 1 },
    ]);
    expect(hours.count).toBe(3);
  });

  it('defaults to this month so far, and refuses impossible or reversed ranges', async () => {
    expect(resolveRange('America/Sao_Paulo', {}, new Date('2026-11-25T12:00:00Z'))).toEqual({ from: '2026-11-01', to: '2026-11-25', timeZone: 'America/Sao_Paulo' });
    expect(resolveRange('America/Sao_Paulo', { days: 7 }, new Date('2026-11-25T02:00:00Z'))).toEqual({ from: '2026-11-18', to: '2026-11-24', timeZone: 'America/Sao_Paulo' });
    for (const query of ['date_from=2026-02-30', 'date_from=2026-11-22&date_to=2026-11-21', 'days=5', 'date_from=2020-01-01&date_to=2026-01-01', 'queueIds=abc', `date_from=${'9'.repeat(500)}`]) {
      const answer = await h.request(adminToken, 'GET', `/dashboard?${query}`);
      expect(answer.statusCode, query).toBe(400);
    }
  });
});

describe('tenants and roles', () => {
  it("another company's cycles never count, whatever companyId says; a user profile gets 403", async () => {
    const other = await h.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    const otherConnection = (await h.desk.buildConnection(other.id)).id;
    const foreign = (await sandboxPhone(h, otherToken, otherConnection, '5511990000555').say('Oi')).ticketId!;
    await place(foreign, { queued: '2026-11-21T12:00:00Z' });
    const mine = (await h.request(adminToken, 'GET', `/dashboard?${RANGE}&companyId=${other.id}`)).json().counters;
    expect(mine).toMatchObject({ supportPending: 1, supportHappening: 1, supportFinished: 2 });
    const theirs = (await h.request(otherToken, 'GET', `/dashboard?${RANGE}&companyId=${companyId}`)).json();
    expect(theirs.counters).toMatchObject({ supportPending: 1, supportHappening: 0, supportFinished: 0 });
    expect(JSON.stringify(theirs)).not.toContain('Ana Agente');
    for (const url of [`/dashboard?${RANGE}`, '/dashboard/ticketsUsers', '/dashboard/ticketsDay']) {
      expect((await h.request(agentToken, 'GET', url)).statusCode, url).toBe(403);
    }
  });
});
