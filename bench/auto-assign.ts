/**
 * Auto-assignment latency (issue 35): the production server (`apps/server/dist/main.js`,
 * NODE_ENV=production, in its own process) on PostgreSQL with Redis; 200 agents of one
 * `balanced` queue online, one socket each, held by a child process (auto-assign-client.ts);
 * customers writing new conversations at 50 a second through the sandbox's inbound route
 * (the real ingest and bot pipeline: the connection offers that one queue). The figure is,
 * per ticket, the time from the customer's message being posted to the `ticket` update
 * (status open, the agent set) reaching the assigned agent's socket: p50, p90, p99. It is
 * split in three: post → ticket stored (the row's `created_at`), → the post answered (the
 * bot's first turn done: the ticket waits in its queue), → the agent's socket.
 *
 *   npm run build -w @atende/server
 *   npx tsx bench/auto-assign.ts [--agents 200] [--rate 50] [--seconds 20] [--warmup 3] [--mode balanced]
 *
 * The database `atende_bench_assign` (on BENCH_PG_URL's server) is dropped and created;
 * Redis is BENCH_REDIS_URL. The bench process only sets up the company and posts.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { AssignAgentLogin, AssignClientCommand, AssignClientReport } from './auto-assign-client.js';
import { startCpuWatch } from './cpu.js';
import { bannerUrl } from './server-banner.js';
import { wallClock } from './fanout.js';

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '200' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    mode: { type: 'string', default: 'balanced' },
    capacity: { type: 'string', default: '10' },
    bundle: { type: 'string', default: 'apps/server/dist/main.js' },
    'admin-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = path.resolve(import.meta.dirname, '..');

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

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 50)), p90: Math.round(percentile(sorted, 90)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? NaN) };
}

/** The production server on that database, as `npm start` runs it; resolves with its URL once it listens. */
async function startServer(databaseUrl: string, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const bundle = path.resolve(root, args.bundle);
  if (!existsSync(bundle)) throw new Error('Build first: npm run build -w @atende/server');
  // BENCH_SERVER_PROFILE=<dir>: the server writes a CPU profile there when it stops.
  const profile = process.env.BENCH_SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, bundle], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD: 'Admin123!',
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      // 200 agents sign in from one address.
      LOGIN_LIMIT_PER_IP: '100000',
      LOGIN_LIMIT_PER_EMAIL: '100000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, url: await bannerUrl(child) };
}

async function login(url: string, email: string, password: string): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return { token: ((await response.json()) as { token: string }).token, cookie: '' };
}

/** The agents' client process; resolves once every socket is connected. */
async function startAgents(url: string, agents: AssignAgentLogin[], event: string) {
  const child = fork(path.join(import.meta.dirname, 'auto-assign-client.ts'), { cwd: root, execPath: process.execPath, execArgv: ['--import', 'tsx'], serialization: 'advanced' });
  const next = () =>
    new Promise<AssignClientReport>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`auto-assign client exited with ${code}`)));
      child.once('message', (message: AssignClientReport) => resolve(message));
    });
  const ready = next();
  child.send({ type: 'start', url, agents, event } satisfies AssignClientCommand);
  await ready;
  return {
    pid: child.pid ?? 0,
    async stop(): Promise<[number, number, number][]> {
      const report = next();
      child.send({ type: 'stop' } satisfies AssignClientCommand);
      const result = await report;
      if (child.exitCode === null) await once(child, 'exit');
      return result.type === 'assigned' ? result.assigned : [];
    },
  };
}

/** One POST of a JSON body; resolves with the answer's JSON, or null on a failure. */
function post(agent: http.Agent, target: URL, token: string, body: string): Promise<{ ticketId: number } | null> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        method: 'POST',
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          resolve(status >= 200 && status < 300 ? (JSON.parse(Buffer.concat(chunks).toString()) as { ticketId: number }) : null);
        });
      },
    );
    request.on('error', () => resolve(null));
    request.end(body);
  });
}

async function main() {
  const { openDatabase } = await import('../apps/server/src/platform/db/client.js');
  const { createFactories } = await import('../apps/server/src/test/factories.js');
  const { createServiceDeskFactories } = await import('../apps/server/src/test/service-desk-factories.js');
  const { whatsappQueues } = await import('../apps/server/src/platform/db/schema.js');

  const databaseUrl = await freshDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-bench-assign-'));
  // The server migrates and seeds the fresh database as on a first start.
  const server = await startServer(databaseUrl, dataDir);
  const { url } = server;
  const database = await openDatabase({ url: databaseUrl, poolSize: 4 });
  try {
    const factories = createFactories(database.db, (email, password) => login(url, email, password));
    const company = await factories.buildCompany({ plan: { users: 0, queues: 0 } });
    const adminToken = (await company.admin.login()).token;
    const capacity = Number(args.capacity);
    const queue = await factories.buildQueue(company.id, { autoAssign: args.mode as 'balanced' | 'round_robin', defaultMaxOpenTickets: capacity });
    const connection = await createServiceDeskFactories(database.db).buildConnection(company.id);
    await database.db.insert(whatsappQueues).values({ companyId: company.id, whatsappId: connection.id, queueId: queue.id });

    const agentCount = Number(args.agents);
    const logins: AssignAgentLogin[] = [];
    const users = [];
    for (let i = 0; i < agentCount; i++) users.push(await factories.buildUser(company.id, { name: `Agente ${i + 1}`, queueIds: [queue.id] }));
    for (let i = 0; i < users.length; i += 20) {
      logins.push(...(await Promise.all(users.slice(i, i + 20).map(async (user) => ({ userId: user.id, token: (await user.login()).token })))));
    }
    const agents = await startAgents(url, logins, `company-${company.id}-ticket`);
    // Presence is written as each socket connects; wait until all count as online.
    for (;;) {
      const { rows } = await database.sql.executeSql('select count(distinct user_id)::int as n from user_presence where company_id = $1', [company.id]);
      if (Number(rows[0]?.n) >= agentCount) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`${agentCount} agents online`);

    // Customers write at a fixed schedule; each message is a new conversation.
    const rate = Number(args.rate);
    const target = new URL(`${url}/sandbox/${connection.id}/inbound`);
    const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const posted = new Map<number, { at: number; answeredAt: number }>();
    let seq = 0;
    let errors = 0;
    let maxLagMs = 0;
    async function send(seconds: number, measured: boolean): Promise<void> {
      const total = Math.round(rate * seconds);
      const start = performance.now();
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        maxLagMs = Math.max(maxLagMs, performance.now() - due);
        const n = ++seq;
        const at = wallClock();
        const body = JSON.stringify({ from: `55119${String(n).padStart(8, '0')}`, body: 'Olá, preciso de ajuda' });
        inFlight.push(
          post(httpAgent, target, adminToken, body).then((answer) => {
            if (!answer) errors += 1;
            else if (measured) posted.set(answer.ticketId, { at, answeredAt: wallClock() });
          }),
        );
      }
      await Promise.all(inFlight);
    }
    await send(Number(args.warmup), false);
    const measuredSeconds = Number(args.seconds);
    const cpu = startCpuWatch([process.pid, server.child.pid ?? 0, agents.pid]);
    await send(measuredSeconds, true);
    // Assignments still on their way: until every measured ticket is open, at most 30 s.
    const ids = `{${[...posted.keys()].join(',')}}`;
    const deadline = performance.now() + 30_000;
    while (performance.now() < deadline) {
      const { rows } = await database.sql.executeSql(`select count(*)::int as n from tickets where id = any($1::int[]) and status = 'open'`, [ids]);
      if (Number(rows[0]?.n) >= posted.size) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const machine = cpu();
    const seen = new Map((await agents.stop()).map(([ticketId, userId, at]) => [ticketId, { userId, at }]));
    httpAgent.destroy();

    const { rows: stored } = await database.sql.executeSql(`select id, user_id, (extract(epoch from created_at) * 1000)::float8 as created_ms from tickets where id = any($1::int[])`, [ids]);
    const ticketRows = new Map(stored.map((row) => [Number(row.id), { userId: row.user_id === null ? null : Number(row.user_id), createdMs: Number(row.created_ms) }]));
    const total: number[] = [];
    const toStored: number[] = [];
    const toAnswered: number[] = [];
    const answeredToAssigned: number[] = [];
    let wrongAgent = 0;
    for (const [ticketId, { at, answeredAt }] of posted) {
      const row = ticketRows.get(ticketId);
      if (row) toStored.push(row.createdMs - at);
      toAnswered.push(answeredAt - at);
      const socket = seen.get(ticketId);
      if (!socket) continue;
      if (row && row.userId !== socket.userId) wrongAgent += 1;
      total.push(socket.at - at);
      answeredToAssigned.push(socket.at - answeredAt);
    }
    const { rows: over } = await database.sql.executeSql(
      `select count(*)::int as n from (select u.id from users u join tickets t on t.user_id = u.id and t.status = 'open' where u.company_id = $1 group by u.id having count(t.id) > $2) x`,
      [company.id, capacity],
    );
    const result = {
      at: new Date().toISOString(),
      agents: agentCount,
      rate,
      seconds: measuredSeconds,
      mode: args.mode,
      tickets: posted.size,
      assigned: total.length,
      errors,
      maxLagMs: Math.round(maxLagMs),
      ...summary(total),
      split: { postToStored: summary(toStored), postToAnswered: summary(toAnswered), answeredToAgentSocket: summary(answeredToAssigned) },
      agentsOverCapacity: Number(over[0]?.n),
      socketDisagreesWithRow: wrongAgent,
      ...machine,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    server.child.kill('SIGTERM');
    if (server.child.exitCode === null) await once(server.child, 'exit');
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
