import { randomBytes } from 'node:crypto';
import type { PresentedQueue, PresentedSlaBreach, PresentedTicketPage, SlaBreachEventPayload, SlaReport } from '@atende/shared';
import { eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { ticketSlaBreaches, tickets, webhookDeliveries } from '../../platform/db/schema.js';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createManualJobs } from '../../test/manual-jobs.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { usePostgres } from '../../test/test-database.js';
import { ALLOW_LOOPBACK_PEERS, createTestContext, type TestContext } from '../../test/test-app.js';
import { sweepSla } from './sla.service.js';

const minutes = (base: Date, n: number) => new Date(base.getTime() + n * 60_000);

describe('response-time targets (SLA)', () => {
  let t: TestContext;
  let company: BuiltCompany;
  let admin: string;
  let agent: BuiltUser;
  let agentToken: string;
  let outsiderToken: string;
  let queue: PresentedQueue;
  let other: PresentedQueue;
  let desk: ReturnType<typeof createServiceDeskFactories>;

  beforeAll(async () => {
    // Loopback peers: the webhook that hears breaches points at this machine.
    t = await createTestContext({ env: { ...ALLOW_LOOPBACK_PEERS } });
    desk = createServiceDeskFactories(t.database.db);
    company = await t.factories.buildCompany();
    admin = (await company.admin.login()).token;
    const created = await t.request(admin, 'POST', '/queue', { name: 'Suporte', color: '#336699', slaFirstResponseMinutes: 10, slaResolutionMinutes: 60, slaWarnPercent: 50 });
    expect(created.statusCode).toBe(201);
    queue = created.json<PresentedQueue>();
    other = (await t.request(admin, 'POST', '/queue', { name: 'Vendas', color: '#993366', slaFirstResponseMinutes: 30 })).json<PresentedQueue>();
    agent = await t.factories.buildUser(company.id, { name: 'Ana Agente', queueIds: [queue.id] });
    agentToken = (await agent.login()).token;
    const outsider = await t.factories.buildUser(company.id, { queueIds: [other.id] });
    outsiderToken = (await outsider.login()).token;
  });
  afterAll(() => t?.close());

  async function row(id: number) {
    const [found] = await t.database.db.select().from(tickets).where(eq(tickets.id, id));
    if (!found) throw new Error('no ticket');
    return found;
  }
  const breachesOf = (ticketId: number) => t.database.db.select().from(ticketSlaBreaches).where(eq(ticketSlaBreaches.ticketId, ticketId));

  it('queue targets are saved, shown, changed and cleared; bad values are 400', async () => {
    expect(queue).toMatchObject({ slaFirstResponseMinutes: 10, slaResolutionMinutes: 60, slaWarnPercent: 50 });
    expect(other).toMatchObject({ slaFirstResponseMinutes: 30, slaResolutionMinutes: null, slaWarnPercent: 80 });
    const scratch = (await t.request(admin, 'POST', '/queue', { name: 'Scratch', color: '#121212', slaResolutionMinutes: '120' })).json<PresentedQueue>();
    expect(scratch.slaResolutionMinutes).toBe(120);
    const cleared = await t.request(admin, 'PUT', `/queue/${scratch.id}`, { slaResolutionMinutes: '' });
    expect(cleared.json<PresentedQueue>().slaResolutionMinutes).toBeNull();
    for (const bad of [{ slaFirstResponseMinutes: -5 }, { slaResolutionMinutes: 1.5 }, { slaFirstResponseMinutes: 10_000_000 }, { slaWarnPercent: 100 }, { slaWarnPercent: 'x' }]) {
      const answer = await t.request(admin, 'PUT', `/queue/${scratch.id}`, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json<{ fields: Record<string, string[]> }>().fields).toHaveProperty(Object.keys(bad)[0] ?? '');
    }
  });

  it('a clock starts when a ticket enters a queue; the sweep writes its due instants in calendar time when hours are not in use', async () => {
    const ticket = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    const started = await row(ticket.id);
    expect(started).toMatchObject({ slaPending: true, slaFirstResponseDueAt: null });
    expect(started.slaStartedAt).toBeInstanceOf(Date);
    const at = started.slaStartedAt ?? new Date();
    await sweepSla(t.app.services, at);
    expect(await row(ticket.id)).toMatchObject({
      slaPending: false,
      slaFirstResponseDueAt: minutes(at, 10),
      slaFirstResponseWarnAt: minutes(at, 5),
      slaResolutionDueAt: minutes(at, 60),
      slaResolutionWarnAt: minutes(at, 30),
      slaDueAt: minutes(at, 10),
      slaWarnAt: minutes(at, 5),
    });
    // A ticket without a queue has no clock.
    const loose = await desk.buildTicket(company.id, { status: 'pending' });
    expect(await row(loose.id)).toMatchObject({ slaPending: false, slaStartedAt: null });
  });

  it('counts business hours when the setting puts the queue hours in use', async () => {
    const everyDayNineToTen = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '09:00', endTime: '10:00' }));
    const timed = (await t.request(admin, 'POST', '/queue', { name: 'Horário', color: '#0f0f0f', schedules: everyDayNineToTen, slaFirstResponseMinutes: 90 })).json<PresentedQueue>();
    expect((await t.request(admin, 'PUT', '/settings/scheduleType', { value: 'queue' })).statusCode).toBe(200);
    try {
      const ticket = await desk.buildTicket(company.id, { queueId: timed.id });
      // The clock started at 02:00 in São Paulo, the queue closed (not now: from 09:00 to 10:00 there the
      // day's open hour would already be partly gone).
      await t.database.db.update(tickets).set({ slaStartedAt: new Date('2026-12-01T05:00:00Z') }).where(eq(tickets.id, ticket.id));
      await sweepSla(t.app.services, new Date());
      const found = await row(ticket.id);
      // 90 minutes of one open hour a day: the day's hour, then half of the next day's: 09:30 (São Paulo) the next day.
      expect(found.slaFirstResponseDueAt?.toISOString()).toBe('2026-12-02T12:30:00.000Z');
    } finally {
      await t.request(admin, 'PUT', '/settings/scheduleType', { value: 'disabled' });
    }
  });

  it('a target past due is recorded once, with the agent and the queue; an agent message answers the first response, a bot message does not', async () => {
    const hook = await t.request(admin, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/sla', events: ['sla.breached'] });
    expect(hook.statusCode).toBe(201);
    const late = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    const answered = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    const botted = await desk.buildTicket(company.id, { queueId: queue.id });
    await desk.buildMessage(answered, { fromMe: true, source: 'agent', userId: agent.id, body: 'Olá!' });
    await desk.buildMessage(botted, { fromMe: true, source: 'bot', body: 'Menu' });
    await desk.buildMessage(botted, { fromMe: false, source: 'customer', body: '1' });
    const at = (await row(late.id)).slaStartedAt ?? new Date();
    await sweepSla(t.app.services, at);
    expect((await row(answered.id)).slaFirstRespondedAt).toBeInstanceOf(Date);
    expect((await row(botted.id)).slaFirstRespondedAt).toBeNull();

    await sweepSla(t.app.services, minutes(at, 9));
    expect(await breachesOf(late.id)).toHaveLength(0);
    const result = await sweepSla(t.app.services, minutes(at, 11));
    expect(result.breached).toBeGreaterThanOrEqual(2);
    expect(await breachesOf(late.id)).toEqual([expect.objectContaining({ kind: 'first_response', userId: agent.id, queueId: queue.id, dueAt: minutes(at, 10), breachedAt: minutes(at, 11) })]);
    expect(await breachesOf(botted.id)).toHaveLength(1);
    expect(await breachesOf(answered.id)).toHaveLength(0);
    // Once: a second run (a retried job, another node) records nothing more.
    await sweepSla(t.app.services, minutes(at, 12));
    expect(await breachesOf(late.id)).toHaveLength(1);

    // Closing stops the resolution clock: no resolution breach for a ticket closed in time.
    expect((await t.request(admin, 'PUT', `/tickets/${answered.id}`, { status: 'closed' })).statusCode).toBe(200);
    await sweepSla(t.app.services, minutes(at, 61));
    expect(await breachesOf(answered.id)).toHaveLength(0);
    expect((await breachesOf(late.id)).map((b) => b.kind).sort()).toEqual(['first_response', 'resolution']);

    // Each breach is one `sla.breached` webhook event, in the ticket's order, carrying the breach as the bell shows it.
    const events = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.orderingKey, `ticket:${late.id}`)).orderBy(webhookDeliveries.id);
    expect(events.map((event) => [event.event, (event.data as PresentedSlaBreach).kind])).toEqual([
      ['sla.breached', 'first_response'],
      ['sla.breached', 'resolution'],
    ]);
    expect(events[0]?.data).toEqual(expect.objectContaining({ ticketId: late.id, userId: agent.id, queueId: queue.id, queueName: 'Suporte', dueAt: minutes(at, 10).toISOString(), breachedAt: minutes(at, 11).toISOString() }));
  });

  it('a transfer to another queue restarts the clock with its targets; reopening restarts it too', async () => {
    const moved = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    await sweepSla(t.app.services, new Date());
    await t.database.db.update(tickets).set({ queueId: other.id }).where(eq(tickets.id, moved.id));
    const restarted = await row(moved.id);
    expect(restarted).toMatchObject({ slaPending: true, slaFirstResponseDueAt: null, slaResolutionDueAt: null });
    const at = restarted.slaStartedAt ?? new Date();
    await sweepSla(t.app.services, at);
    expect(await row(moved.id)).toMatchObject({ slaFirstResponseDueAt: minutes(at, 30), slaResolutionDueAt: null, slaDueAt: minutes(at, 30) });

    await t.database.db.update(tickets).set({ status: 'closed', closedAt: new Date() }).where(eq(tickets.id, moved.id));
    expect(await row(moved.id)).toMatchObject({ slaDueAt: null, slaPending: false });
    await t.database.db.update(tickets).set({ status: 'open', closedAt: null }).where(eq(tickets.id, moved.id));
    expect(await row(moved.id)).toMatchObject({ slaPending: true, slaFirstRespondedAt: null });
  });

  it('the list carries the mark, and sortBy=sla puts the closest to breach first', async () => {
    const soon = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    const later = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    const past = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });
    await sweepSla(t.app.services, new Date());
    const now = Date.now();
    const set = (id: number, due: number, warn: number) =>
      t.database.db.execute(sql`update tickets set sla_first_response_due_at = ${new Date(due).toISOString()}::timestamptz, sla_first_response_warn_at = ${new Date(warn).toISOString()}::timestamptz,
        sla_resolution_due_at = ${new Date(due + 3_600_000).toISOString()}::timestamptz, sla_resolution_warn_at = ${new Date(due + 1_800_000).toISOString()}::timestamptz where id = ${id}`);
    await set(soon.id, now + 120_000, now - 60_000);
    await set(later.id, now + 3_600_000, now + 1_800_000);
    await set(past.id, now - 60_000, now - 120_000);
    const page = (await t.request(agentToken, 'GET', `/tickets?status=open&sortBy=sla&queueIds=${queue.id}`)).json<PresentedTicketPage>();
    const ids = page.tickets.map((ticket) => ticket.id);
    expect(ids.indexOf(past.id)).toBeLessThan(ids.indexOf(soon.id));
    expect(ids.indexOf(soon.id)).toBeLessThan(ids.indexOf(later.id));
    const byId = new Map(page.tickets.map((ticket) => [ticket.id, ticket]));
    expect(byId.get(past.id)).toMatchObject({ slaState: 'breached', slaDueAt: new Date(now - 60_000).toISOString() });
    expect(byId.get(soon.id)).toMatchObject({ slaState: 'warning', slaWarnAt: new Date(now - 60_000).toISOString() });
    expect(byId.get(later.id)).toMatchObject({ slaState: 'ok' });
    // The single ticket's answer agrees with the list's.
    const single = (await t.request(agentToken, 'GET', `/tickets/${soon.id}`)).json<{ slaState: string; slaDueAt: string }>();
    expect(single).toMatchObject({ slaState: 'warning', slaDueAt: new Date(now + 120_000).toISOString() });
    expect((await t.request(agentToken, 'GET', '/tickets?sortBy=closest')).statusCode).toBe(400);
  });

  it('the bell lists the breaches of the agent and of the queue admins, not of other users', async () => {
    const mine = (await t.request(agentToken, 'GET', '/sla/breaches')).json<{ breaches: PresentedSlaBreach[] }>();
    expect(mine.breaches.length).toBeGreaterThanOrEqual(2);
    expect(mine.breaches.every((breach) => breach.userId === agent.id)).toBe(true);
    expect(mine.breaches[0]).toMatchObject({ queueName: 'Suporte', kind: expect.stringMatching(/first_response|resolution/) });
    // The queue has no admin among its users: every admin hears it.
    expect((await t.request(admin, 'GET', '/sla/breaches')).json<{ breaches: PresentedSlaBreach[] }>().breaches.length).toBeGreaterThanOrEqual(2);
    expect((await t.request(outsiderToken, 'GET', '/sla/breaches')).json<{ breaches: PresentedSlaBreach[] }>().breaches).toEqual([]);
  });

  it('the dashboard counts targets met and missed per queue, agent and day', async () => {
    const answer = await t.request(admin, 'GET', '/dashboard/sla?days=7');
    expect(answer.statusCode).toBe(200);
    const report = answer.json<SlaReport>();
    // Judged at the real clock: the one due a minute ago is missed, the one answered at once is met; the rest still run.
    expect(report.total.firstResponseMissed).toBeGreaterThanOrEqual(1);
    expect(report.total.firstResponseMet).toBeGreaterThanOrEqual(1);
    const support = report.queues.find((q) => q.queueId === queue.id);
    expect(support).toMatchObject({ name: 'Suporte', color: '#336699' });
    expect((support?.firstResponseMet ?? 0) + (support?.firstResponseMissed ?? 0)).toBeGreaterThanOrEqual(2);
    expect(report.agents.find((a) => a.userId === agent.id)).toMatchObject({ name: 'Ana Agente' });
    expect(report.days.length).toBeGreaterThanOrEqual(1);
    expect(report.total.rate).toBeGreaterThan(0);
    expect((await t.request(agentToken, 'GET', '/dashboard/sla')).statusCode).toBe(403);
    expect((await t.request(admin, 'GET', '/dashboard/sla?date_from=2026-13-01')).statusCode).toBe(400);
  });
});

/**
 * Two app nodes on one PostgreSQL database and one Redis: both run the sweep at the same moment (a retried
 * run while the first still works, or two chains after a split); one breach is recorded and each recipient
 * hears it once, on whichever node its socket is.
 */
describe.runIf(usePostgres)('SLA breaches across two nodes (PostgreSQL + Redis)', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `atende-test-${randomBytes(6).toString('hex')}`;
  let nodeA: TestContext;
  let nodeB: App;
  let socketsA: SocketClients;
  let socketsB: SocketClients;

  beforeAll(async () => {
    nodeA = await createTestContext({ env: { REDIS_URL: redisUrl, REDIS_PREFIX: prefix }, realtime: true, listen: true });
    nodeB = await buildApp({ config: nodeA.config, database: nodeA.database, realtime: true, serveWeb: false, jobs: createManualJobs() });
    await nodeB.listen({ port: 0, host: '127.0.0.1' });
    socketsA = socketClients(nodeA.app);
    socketsB = socketClients(nodeB);
  });
  afterAll(async () => {
    socketsA?.closeAll();
    socketsB?.closeAll();
    await nodeB?.close();
    await nodeA?.close();
  });

  it('records one breach and notifies the agent and the admin once each', async () => {
    const company = await nodeA.factories.buildCompany();
    const admin = (await company.admin.login()).token;
    const queue = (await nodeA.request(admin, 'POST', '/queue', { name: 'Plantão', color: '#445566', slaFirstResponseMinutes: 5 })).json<PresentedQueue>();
    const agent = await nodeA.factories.buildUser(company.id, { queueIds: [queue.id] });
    const agentToken = (await agent.login()).token;
    const desk = createServiceDeskFactories(nodeA.database.db);
    const ticket = await desk.buildTicket(company.id, { queueId: queue.id, status: 'open', userId: agent.id });

    const heard: Record<string, SlaBreachEventPayload[]> = { agent: [], admin: [], other: [] };
    const listen = (socket: Socket, who: string) => socket.on(`company-${company.id}-slaBreach`, (payload: SlaBreachEventPayload) => heard[who]?.push(payload));
    listen(await socketsA.connect(agentToken, 'ready'), 'agent');
    listen(await socketsB.connect(admin, 'ready'), 'admin');
    const outsider = await nodeA.factories.buildUser(company.id);
    listen(await socketsB.connect((await outsider.login()).token, 'ready'), 'other');

    const [started] = await nodeA.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    const at = started?.slaStartedAt ?? new Date();
    await Promise.all([sweepSla(nodeA.app.services, at), sweepSla(nodeB.services, at)]);
    const due = minutes(at, 6);
    const results = await Promise.all([sweepSla(nodeA.app.services, due), sweepSla(nodeB.services, due), sweepSla(nodeA.app.services, due)]);
    expect(results.reduce((sum, result) => sum + result.breached, 0)).toBe(1);
    expect(await nodeA.database.db.select().from(ticketSlaBreaches).where(eq(ticketSlaBreaches.ticketId, ticket.id))).toHaveLength(1);

    // Let any stray copy arrive before counting.
    for (let i = 0; i < 50 && (heard.agent?.length === 0 || heard.admin?.length === 0); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard.agent).toEqual([{ action: 'create', breach: expect.objectContaining({ ticketId: ticket.id, kind: 'first_response', userId: agent.id, queueName: 'Plantão' }) }]);
    expect(heard.admin).toHaveLength(1);
    expect(heard.other).toEqual([]);
  });
});
