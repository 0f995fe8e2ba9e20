import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { openDatabase, type Database } from '../../platform/db/client.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createManualJobs } from '../../test/manual-jobs.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { usePostgres } from '../../test/test-database.js';

/**
 * Two app instances, each with its own pool, on one PostgreSQL database and one Redis
 * (issue 35): 1,000 tickets arrive at once, half through each node, while agents with
 * different capacities are online on one node or the other. No ticket is assigned twice,
 * no agent ever holds more than its capacity, and as agents close tickets the rest are
 * assigned until none waits.
 */
describe.runIf(usePostgres)('auto-assignment across two nodes', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `atende-test-${randomBytes(6).toString('hex')}`;
  const TICKETS = 1000;
  // Six agents on the queue's default (25), four with their own capacity.
  const OWN = [5, 50, 100, 10, null, null, null, null, null, null];
  const DEFAULT = 25;
  let t: TestContext;
  let databaseB: Database;
  let nodeB: App;
  let company: BuiltCompany;
  let queueId: number;
  let whatsappId: number;
  const clients: SocketClients[] = [];
  const agents: { id: number; token: string; capacity: number; node: 'a' | 'b' }[] = [];
  const announced = new Map<number, number>();

  const nodes = () => [t.app, nodeB] as const;
  const request = (node: App, token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    node.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestContext({ realtime: true, listen: true, env: { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } });
    if (!t.database.url) throw new Error('no database url');
    databaseB = await openDatabase({ url: t.database.url, poolSize: 5 });
    nodeB = await buildApp({ config: t.config, database: databaseB, realtime: true, serveWeb: false, jobs: createManualJobs() });
    await nodeB.listen({ port: 0, host: '127.0.0.1' });
    company = await t.factories.buildCompany();
    const adminToken = (await company.admin.login()).token;
    const created = await t.request(adminToken, 'POST', '/queue', { name: 'Suporte', color: '#123456', autoAssign: 'balanced', defaultMaxOpenTickets: DEFAULT });
    queueId = created.json<{ id: number }>().id;
    whatsappId = (await createServiceDeskFactories(t.database.db).buildConnection(company.id)).id;
    for (const [i, own] of OWN.entries()) {
      const user = await t.factories.buildUser(company.id, { name: `Agente ${i}`, queueIds: [queueId], maxOpenTickets: own });
      agents.push({ id: user.id, token: (await user.login()).token, capacity: own ?? DEFAULT, node: i % 2 === 0 ? 'a' : 'b' });
    }
    for (const node of nodes()) {
      // An assignment is announced as an accept (pending → open); the closes that follow are announced too, and not counted.
      node.services.events.on('ticket.changedByAgent', ({ previous, ticket }) => {
        if (previous.status !== 'pending' || ticket.status !== 'open') return;
        announced.set(ticket.id, (announced.get(ticket.id) ?? 0) + 1);
      });
    }
    clients.push(socketClients(t.app), socketClients(nodeB));
    for (const agent of agents) await clients[agent.node === 'a' ? 0 : 1]!.connect(agent.token, 'ready');
  });
  afterAll(async () => {
    for (const c of clients) c.closeAll();
    await nodeB.close();
    await databaseB.close();
    await t.close();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    await redis.del(`${prefix}:socket.io`);
    await redis.close();
  });

  async function loads(): Promise<Map<number, number>> {
    const { rows } = (await t.database.db.execute(sql`
      select user_id, count(*)::int as n from tickets where company_id = ${company.id} and status = 'open' group by user_id`)) as unknown as { rows: { user_id: number; n: number }[] };
    return new Map(rows.map((r) => [Number(r.user_id), Number(r.n)]));
  }

  async function counts() {
    const { rows } = (await t.database.db.execute(sql`
      select count(*) filter (where status = 'pending')::int as waiting, count(*) filter (where status = 'open')::int as open,
        count(*) filter (where status = 'closed')::int as closed from tickets where company_id = ${company.id}`)) as unknown as { rows: { waiting: number; open: number; closed: number }[] };
    return rows[0] ?? { waiting: -1, open: -1, closed: -1 };
  }

  /** Samples every agent's load all along: any reading above a capacity is a failure. */
  function watchCapacities() {
    const violations: string[] = [];
    let stop = false;
    const done = (async () => {
      while (!stop) {
        for (const [userId, n] of await loads()) {
          const agent = agents.find((a) => a.id === userId);
          if (agent && n > agent.capacity) violations.push(`agent ${userId}: ${n} > ${agent.capacity}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    return async () => {
      stop = true;
      await done;
      return violations;
    };
  }

  it('1,000 tickets at once: never twice, never beyond a capacity, all assigned as capacity frees', async () => {
    const total = agents.reduce((sum, a) => sum + a.capacity, 0);
    const stopWatch = watchCapacities();
    // The tickets arrive in ten bursts of 100 at once, alternately through each node, each
    // burst told to its node's assigner as the ingest's event would (a round per burst, racing).
    await Promise.all(
      Array.from({ length: 10 }, async (_, burst) => {
        const node = nodes()[burst % 2]!;
        await node.services.db.execute(sql`
          with c as (
            insert into contacts (company_id, name, number)
            select ${company.id}, 'Cliente ' || g, '55119' || lpad((${burst * 100} + g)::text, 8, '0') from generate_series(1, 100) g
            returning id)
          insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status)
          select ${company.id}, c.id, ${whatsappId}, ${queueId}, 'pending' from c`);
        node.services.autoAssign.request(company.id);
      }),
    );
    for (const node of nodes()) node.services.autoAssign.request(company.id);
    await Promise.all(nodes().map((node) => node.services.autoAssign.settled()));
    expect(await counts()).toMatchObject({ open: total, waiting: TICKETS - total });
    for (const agent of agents) expect((await loads()).get(agent.id)).toBe(agent.capacity);

    // Agents close their tickets, each through its own node, until every ticket was assigned.
    for (let round = 0; round < 10 && (await counts()).closed < TICKETS; round++) {
      await Promise.all(
        agents.map(async (agent) => {
          const response = await request(agent.node === 'a' ? t.app : nodeB, agent.token, 'POST', '/tickets/closeAll', { status: 'open' });
          expect(response.statusCode).toBe(200);
        }),
      );
      await vi.waitFor(async () => {
        await Promise.all(nodes().map((node) => node.services.autoAssign.settled()));
        const now = await counts();
        expect(now.waiting === 0 || now.open === total).toBe(true);
      }, { timeout: 30_000, interval: 100 });
    }
    expect(await stopWatch()).toEqual([]);
    expect(await counts()).toEqual({ waiting: 0, open: 0, closed: TICKETS });

    // Each ticket was given once: one assignment announced, no move from one agent to another.
    const { rows: transfers } = (await t.database.db.execute(sql`
      select count(*)::int as n from ticket_transfers where company_id = ${company.id}`)) as unknown as { rows: { n: number }[] };
    expect(Number(transfers[0]?.n)).toBe(0);
    await vi.waitFor(() => expect(announced.size).toBe(TICKETS), { timeout: 30_000 });
    expect([...announced.values()].every((n) => n === 1)).toBe(true);
  }, 240_000);
});
