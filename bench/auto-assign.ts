/**
 * Auto-assignment latency (issue 35): 200 agents online (one socket each), tickets arriving
 * at 50 a second through the sandbox's inbound route (the real ingest and bot pipeline: each
 * new conversation enters the connection's only queue), on PostgreSQL with Redis. The figure
 * is, per ticket, the time from the customer's message being posted to the `ticket` update
 * (status open, the agent set) reaching the assigned agent's socket: p50, p90, p99.
 *
 *   npx tsx bench/auto-assign.ts [--agents 200] [--rate 50] [--seconds 20] [--warmup 3] [--mode balanced]
 *
 * The app runs in this process (as the ingest figure's second node does), on a fresh database
 * `atende_bench_assign` (BENCH_PG_URL's server) and BENCH_REDIS_URL.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '200' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    mode: { type: 'string', default: 'balanced' },
    'admin-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function freshDatabase(): Promise<string> {
  const name = 'atende_bench_assign';
  const admin = new pg.Client({ connectionString: args['admin-url'] });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(args['admin-url']);
  url.pathname = `/${name}`;
  return url.toString();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main() {
  const { openDatabase } = await import('../apps/server/src/platform/db/client.js');
  const { buildApp } = await import('../apps/server/src/app.js');
  const { testConfig } = await import('../apps/server/src/test/test-app.js');
  const { createManualJobs } = await import('../apps/server/src/test/manual-jobs.js');
  const { createFactories } = await import('../apps/server/src/test/factories.js');
  const { createServiceDeskFactories } = await import('../apps/server/src/test/service-desk-factories.js');
  const { seedFirstStart } = await import('../apps/server/src/modules/companies/first-start.seed.js');
  const { whatsappQueues } = await import('../apps/server/src/platform/db/schema.js');

  const database = await openDatabase({ url: await freshDatabase(), poolSize: 20 });
  await database.migrate();
  await seedFirstStart(database.db, { adminEmail: 'admin@admin.com', adminPassword: 'Admin123!' });
  const app = await buildApp({
    config: testConfig({ REDIS_URL: redisUrl, REDIS_PREFIX: `atende-bench-${Date.now()}`, LOGIN_LIMIT_PER_IP: '100000', LOGIN_LIMIT_PER_EMAIL: '100000' }),
    database,
    realtime: true,
    serveWeb: false,
    jobs: createManualJobs(),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  const url = `http://127.0.0.1:${address.port}`;
  const login = async (email: string, password: string) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    if (response.statusCode !== 200) throw new Error(`login ${email}: ${response.statusCode}`);
    return { token: response.json<{ token: string }>().token, cookie: '' };
  };
  const factories = createFactories(database.db, login);
  const company = await factories.buildCompany({ plan: { users: 0, queues: 0 } });
  const adminToken = (await company.admin.login()).token;
  const queue = await factories.buildQueue(company.id, { autoAssign: args.mode as 'balanced' | 'round_robin', defaultMaxOpenTickets: 10 });
  const connection = await createServiceDeskFactories(database.db).buildConnection(company.id);
  await database.db.insert(whatsappQueues).values({ companyId: company.id, whatsappId: connection.id, queueId: queue.id });

  // 200 agents online: one socket each, listening to the company's ticket events.
  const agents = Number(args.agents);
  const assignedAt = new Map<number, number>();
  const sockets: Socket[] = [];
  const users = [];
  for (let i = 0; i < agents; i++) users.push(await factories.buildUser(company.id, { name: `Agente ${i + 1}`, queueIds: [queue.id] }));
  for (let i = 0; i < users.length; i += 20) {
    await Promise.all(
      users.slice(i, i + 20).map(async (user) => {
        const { token } = await user.login();
        const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
        socket.on(`company-${company.id}-ticket`, (payload: { action: string; ticket?: { id: number; status: string; userId: number | null } }) => {
          if (payload.action === 'update' && payload.ticket?.status === 'open' && payload.ticket.userId === user.id && !assignedAt.has(payload.ticket.id)) {
            assignedAt.set(payload.ticket.id, performance.now());
          }
        });
        await new Promise<void>((resolve, reject) => {
          socket.once('ready', () => resolve());
          socket.once('connect_error', reject);
        });
        sockets.push(socket);
      }),
    );
  }
  // Presence is written as each socket connects; wait until all count as online.
  for (;;) {
    const { rows } = await database.sql.executeSql('select count(distinct user_id)::int as n from user_presence where company_id = $1', [company.id]);
    if (Number(rows[0]?.n) >= agents) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`${agents} agents online`);

  // Customers write at a fixed rate; each message is a new conversation.
  const rate = Number(args.rate);
  const postedAt = new Map<number, number>();
  let seq = 0;
  let errors = 0;
  async function send(seconds: number, measured: boolean): Promise<void> {
    const total = Math.round(rate * seconds);
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const n = ++seq;
      const at = performance.now();
      inFlight.push(
        app
          .inject({ method: 'POST', url: `/sandbox/${connection.id}/inbound`, headers: { authorization: `Bearer ${adminToken}` }, payload: { from: `55119${String(n).padStart(8, '0')}`, body: 'Olá, preciso de ajuda' } })
          .then((response) => {
            if (response.statusCode >= 300) errors += 1;
            else if (measured) postedAt.set(response.json<{ ticketId: number }>().ticketId, at);
          }),
      );
    }
    await Promise.all(inFlight);
  }
  await send(Number(args.warmup), false);
  const measuredSeconds = Number(args.seconds);
  await send(measuredSeconds, true);
  // Assignments still on their way.
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline && [...postedAt.keys()].some((id) => !assignedAt.has(id))) await new Promise((resolve) => setTimeout(resolve, 100));

  const delays = [...postedAt].flatMap(([id, at]) => {
    const done = assignedAt.get(id);
    return done === undefined ? [] : [done - at];
  });
  delays.sort((a, b) => a - b);
  const { rows: over } = await database.sql.executeSql(
    `select count(*)::int as n from (select u.id, count(t.id) as open from users u join tickets t on t.user_id = u.id and t.status = 'open' where u.company_id = $1 group by u.id having count(t.id) > 10) x`,
    [company.id],
  );
  const result = {
    agents,
    rate,
    seconds: measuredSeconds,
    mode: args.mode,
    tickets: postedAt.size,
    assigned: delays.length,
    errors,
    p50: Math.round(percentile(delays, 50)),
    p90: Math.round(percentile(delays, 90)),
    p99: Math.round(percentile(delays, 99)),
    max: Math.round(delays.at(-1) ?? NaN),
    agentsOverCapacity: Number(over[0]?.n),
  };
  console.log(JSON.stringify(result));
  for (const socket of sockets) socket.close();
  await app.close();
  await database.close();
}

await main();
process.exit(0);
