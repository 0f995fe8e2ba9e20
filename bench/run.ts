/**
 * `npm run bench`: seeds a fresh PostgreSQL database, starts the production
 * build, and measures the hot paths (issue 7). Results are printed as a table and
 * written to bench/results/.
 *
 *   npm run bench                                   full run: 50k tickets, 500k messages, 20 s per figure
 *   npm run bench -- --tickets 5000 --messages 50000 --seconds 2 --warmup 1 --sockets 50   (CI smoke run)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuSpeed, startCpuWatch } from './cpu.js';
import { bannerUrl } from './server-banner.js';
import { deliveryFigure, sendAtRate, startFanoutClients, wallClock } from './fanout.js';
import { cloudApiLatency } from './cloud-api-latency.js';
import { acceptedXlsx, largestAllowedXlsx, listWhileUploading } from './import.js';
import { runLoad, summarize, type LoadResult } from './load.js';
import { startLoginFlood } from './login-flood.js';
import { startWireCounter } from './pg-wire-counter.js';
import { webhookLatency, webhookThroughput } from './webhooks.js';
import { BENCH_ADMIN, seedBench } from './seed.js';
import { startFakeGraphApi, type FakeGraphApi } from '../apps/server/src/test/fake-graph-api.js';
import type { Database } from '../apps/server/src/platform/db/client.js';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    tickets: { type: 'string', default: '50000' },
    messages: { type: 'string', default: '500000' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    sockets: { type: 'string', default: '500' },
    rate: { type: 'string', default: '100' },
    /** Processes the fan-out sockets are split over (the server and the sender keep the rest of the CPU). */
    'fanout-procs': { type: 'string', default: '1' },
    /** A comma-separated subset of list,search,history,dashboard,login-flood,ingest,fanout,cloud-api-latency,campaign (default: all). */
    only: { type: 'string', default: 'list,search,history,dashboard,login-flood,ingest,fanout,cloud-api-latency,campaign' },
    /** Signed Cloud API webhooks per second of the cloud-api-latency figure, and the agents' sockets that receive them. */
    'cloud-rate': { type: 'string', default: '20' },
    'cloud-sockets': { type: 'string', default: '10' },
    /** Login attempts in flight at once from the flooding address (the login-flood figure). */
    'flood-connections': { type: 'string', default: '20' },
    /** The server bundle to measure (another build's output, e.g. apps/server/dist-bench/main.js). */
    bundle: { type: 'string', default: 'apps/server/dist/main.js' },
    /** Contacts of the campaign figure's list. */
    'campaign-contacts': { type: 'string', default: '5000' },
    /** Event webhooks (`--only webhooks`): the outbox backlog drained, its ordering keys, and the messages a second of the latency row. */
    'webhook-backlog': { type: 'string', default: '20000' },
    'webhook-keys': { type: 'string', default: '500' },
    'webhook-rate': { type: 'string', default: '50' },
    'admin-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    /** Where results go; the CI smoke run writes elsewhere so it never replaces the committed figures. */
    'out-dir': { type: 'string', default: path.resolve(import.meta.dirname, 'results') },
  },
});
const seconds = Number(args.seconds);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const only = new Set(args.only.split(',').map((part) => part.trim()));
const warmup = Number(args.warmup);

// Count every SQL statement this process sends (the ingest figure), BEGIN/COMMIT included.
let statements = 0;
const originalQuery = pg.Client.prototype.query;
// BENCH_TRACE=1 also prints where the database time of each statement kind went.
const trace = process.env.BENCH_TRACE === '1' ? new Map<string, { count: number; ms: number }>() : null;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...rest: unknown[]) {
  statements += 1;
  if (!trace) return (originalQuery as (...a: unknown[]) => unknown).apply(this, rest);
  const first = rest[0] as string | { text?: string };
  const text = (typeof first === 'string' ? first : (first.text ?? '')).replace(/\s+/g, ' ').slice(0, 120);
  const started = performance.now();
  const done = () => {
    const entry = trace.get(text) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += performance.now() - started;
    trace.set(text, entry);
  };
  // The pool calls with a callback; drizzle's transactions use the promise.
  const last = rest.at(-1);
  if (typeof last === 'function') {
    rest[rest.length - 1] = (...results: unknown[]) => {
      done();
      (last as (...a: unknown[]) => void)(...results);
    };
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, rest);
  }
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, rest);
  if (result instanceof Promise) void result.then(done, done);
  return result;
} as typeof pg.Client.prototype.query;

async function freshDatabase(): Promise<string> {
  // Another name (BENCH_DB_NAME) lets two checkouts run the bench on one PostgreSQL without dropping each other's database.
  const name = process.env.BENCH_DB_NAME ?? 'atende_bench';
  const admin = new pg.Client({ connectionString: args['admin-url'] });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(args['admin-url']);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One run's secrets, the same for every server it starts (a token or a sealed secret of one works on all). */
const serverSecrets = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
};

/** The fake Graph API the servers' Cloud API connections talk to (the cloud-api-latency figure). */
const graph: FakeGraphApi = await startFakeGraphApi();

async function startServer(databaseUrl: string, env: Record<string, string> = {}, serverArgs: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const bundle = path.resolve(root, args.bundle);
  if (!existsSync(bundle)) throw new Error('Build first: npm run build');
  const child = spawn(process.execPath, [bundle, ...serverArgs], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...serverSecrets,
      GRAPH_API_BASE_URL: graph.baseUrl,
      ADMIN_PASSWORD: 'Admin123!',
      DATA_DIR: path.join(root, 'data-bench'),
      // Events published by the ingest running in the bench process reach the server's sockets through Redis.
      REDIS_URL: redisUrl,
      // The webhook figures' receiver listens on loopback, which tenant URLs may reach only when allowed.
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, url: await bannerUrl(child) };
}

async function login(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!response.ok) throw new Error(`login ${email}: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

interface Row extends Partial<LoadResult> {
  name: string;
  /** One core's speed just before the figure (`cpuSpeed`, JSON round trips of a list page per ms). */
  cpuSpeed: number;
  otherCpuPercent: number;
  stealPercent: number;
  disturbed: boolean;
  /** One core ran at under 80% of the run's median speed before this figure. */
  slowMachine?: boolean;
  extra?: Record<string, number>;
}

async function measure(name: string, ownPids: number[], work: () => Promise<Omit<Row, 'name' | 'cpuSpeed' | 'otherCpuPercent' | 'stealPercent' | 'disturbed'>>): Promise<Row> {
  const speed = cpuSpeed();
  const stop = startCpuWatch(ownPids);
  const result = await work();
  return { name, cpuSpeed: speed, ...result, ...stop() };
}

/**
 * The ingest leaves many new rows and dirty pages: vacuum them and write them out
 * before the next figure, so autovacuum and a checkpoint do not run during it.
 */
async function settle(database: Database): Promise<void> {
  await database.sql.executeSql('vacuum analyze');
  await database.sql.executeSql('checkpoint');
}

async function api<T>(url: string, token: string, method: string, pathAndQuery: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * The campaign figure: sends per second from the start to FINALIZADA (every record
 * settled by the sandbox), and the ticket list's latency while it runs.
 */
async function runCampaign(url: string, token: string, databaseUrl: string, whatsappId: number, recipients: number, load: ((pathAndQuery: string) => () => Promise<LoadResult>) | null) {
  await api(url, token, 'POST', '/campaign-settings', { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 0 } } });
  const list = await api<{ id: number }>(url, token, 'POST', '/contact-lists', { name: `Bench ${Date.now()}` });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `insert into contact_list_items (company_id, contact_list_id, name, number)
     select l.company_id, l.id, 'Cliente ' || n, '55119' || lpad(n::text, 8, '0') from contact_lists l, generate_series(1, $2::int) n where l.id = $1`,
    [list.id, recipients],
  );
  await client.end();
  const started = performance.now();
  const campaign = await api<{ id: number }>(url, token, 'POST', '/campaigns', { name: 'Bench', message1: 'Oferta para {nome}', whatsappId, contactListId: list.id, scheduledAt: new Date().toISOString() });
  const listLoad = load?.('/tickets?status=open&showAll=true&pageNumber=1')();
  let finished: { status: string; progress: { sent: number; failed: number } } | null = null;
  while (!finished) {
    const now = await api<{ status: string; progress: { sent: number; failed: number } }>(url, token, 'GET', `/campaigns/${campaign.id}`);
    if (now.status === 'FINALIZADA') finished = now;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const elapsed = (performance.now() - started) / 1000;
  const sending = { sendsPerSecond: Math.round(recipients / elapsed), sendSeconds: Math.round(elapsed * 10) / 10, sent: finished.progress.sent, failed: finished.progress.failed };
  // With the list load, the row is the list's figure (measured while the campaign sent); without, the campaign's.
  if (listLoad) return { ...(await listLoad), extra: sending };
  return { rps: sending.sendsPerSecond, requests: recipients, errors: finished.progress.failed, extra: sending };
}

/** yyyy-MM-dd of `days` ago in the seeded company's zone (São Paulo, UTC−3). */
function daysAgo(days: number): string {
  return new Date(Date.now() - 3 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);
}

async function main() {
  const databaseUrl = await freshDatabase();
  const { openDatabase } = await import('../apps/server/src/platform/db/client.js');
  const database = await openDatabase({ url: databaseUrl, poolSize: 24 });
  await database.migrate();
  const seedStarted = performance.now();
  const seed = await seedBench(database, { tickets: Number(args.tickets), messages: Number(args.messages) });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  console.log(`seeded ${seed.tickets} tickets and ${seed.messages} messages in ${seedSeconds.toFixed(1)} s`);
  // The seed vacuumed what it loaded; its dirty pages still wait for a checkpoint.
  await database.sql.executeSql('checkpoint');

  let server = await startServer(databaseUrl);
  const ownPids = [process.pid, server.child.pid ?? 0];
  const rows: Row[] = [];
  try {
    const token = await login(server.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
    const load = (pathAndQuery: string) => () =>
      runLoad({ url: `${server.url}${pathAndQuery}`, token, connections: Number(args.connections), warmupSeconds: warmup, seconds });
    if (only.has('list')) rows.push(await measure('ticket list (open, showAll)', ownPids, load('/tickets?status=open&showAll=true&pageNumber=1')));
    if (only.has('search')) rows.push(await measure('ticket search (full-text)', ownPids, load('/tickets?searchParam=brastemp&status=open&showAll=true')));
    if (only.has('history')) {
      rows.push(await measure('history, 100-message ticket', ownPids, load(`/messages/${seed.heavyTicketId}`)));
      rows.push(await measure('history, 10-message ticket', ownPids, load(`/messages/${seed.lightTicketId}`)));
    }

    // Contact list imports (`import.ts`, only with `--only import`): the ticket list while the largest allowed
    // .xlsx, then the largest accepted one, are uploaded back to back; the lists are deleted once measured.
    if (only.has('import')) {
      const largest = largestAllowedXlsx();
      const fileMiB = Math.round((largest.data.length / 2 ** 20) * 10) / 10;
      const listPath = '/tickets?status=open&showAll=true&pageNumber=1';
      rows.push(
        await measure(`ticket list while a ${fileMiB} MiB .xlsx of ${largest.rows} rows is uploaded back to back`, ownPids, () =>
          listWhileUploading(server.url, token, largest.data, 'largest.xlsx', load(listPath), { fileMiB, fileRows: largest.rows }),
        ),
      );
      rows.push(
        await measure('ticket list while 20,000-row .xlsx imports run back to back', ownPids, () =>
          listWhileUploading(server.url, token, acceptedXlsx(20_000), 'accepted.xlsx', load(listPath), { fileRows: 20_000 }),
        ),
      );
      await settle(database);
    }

    if (only.has('dashboard')) {
      rows.push(await measure('dashboard, last 90 days', ownPids, load('/dashboard?days=90')));
      rows.push(await measure('dashboard chart, tickets per day over 90 days', ownPids, load(`/dashboard/ticketsDay?initialDate=${daysAgo(89)}&finalDate=${daysAgo(0)}`)));
    }

    // The ticket list while one address (127.0.0.2; the list's clients are 127.0.0.1) floods /auth/login with wrong
    // passwords of made-up e-mails: after its first failures every attempt is refused (429), which must stay cheap.
    // Then the same on the embedded database (npm start's default), whose one connection serves every statement.
    if (only.has('login-flood')) {
      const listWhileFlooded = (url: string, listLoad: () => Promise<LoadResult>) => async () => {
        const flood = startLoginFlood({ url, from: '127.0.0.2', connections: Number(args['flood-connections']) });
        // Measured once the address is refused: its first failures (argon2 each) are the limit's price, not the flood's.
        await flood.refusing;
        const list = await listLoad();
        const flooded = await flood.stop();
        return { ...list, extra: { floodAttemptsPerSecond: flooded.attemptsPerSecond, floodRefused: flooded.refused, floodFailed: flooded.failed, floodOther: flooded.other } };
      };
      rows.push(await measure('ticket list while one address floods /auth/login', ownPids, listWhileFlooded(server.url, load('/tickets?status=open&showAll=true&pageNumber=1'))));

      const embeddedDir = mkdtempSync(path.join(tmpdir(), 'atende-bench-embedded-'));
      const embeddedSize = { tickets: Math.min(Number(args.tickets), 5000), messages: Math.min(Number(args.messages), 50_000) };
      const seeding = await openDatabase({ dataDir: path.join(embeddedDir, 'pglite') });
      await seeding.migrate();
      await seedBench(seeding, embeddedSize);
      await seeding.close();
      const embedded = await startServer('', { DATA_DIR: embeddedDir, REDIS_URL: '' });
      try {
        const embeddedToken = await login(embedded.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
        const embeddedList = () =>
          runLoad({ url: `${embedded.url}/tickets?status=open&showAll=true&pageNumber=1`, token: embeddedToken, connections: Number(args.connections), warmupSeconds: warmup, seconds });
        const embeddedPids = [process.pid, embedded.child.pid ?? 0];
        const size = `${embeddedSize.tickets / 1000}k tickets`;
        rows.push(await measure(`ticket list, embedded database (${size})`, embeddedPids, embeddedList));
        rows.push(await measure(`ticket list, embedded database (${size}), while one address floods /auth/login`, embeddedPids, listWhileFlooded(embedded.url, embeddedList)));
      } finally {
        embedded.child.kill('SIGTERM');
        await once(embedded.child, 'exit');
        rmSync(embeddedDir, { recursive: true, force: true });
      }
    }

    // Ingest runs in this process through the real pipeline, with agents' sockets on the server under test.
    const agentTokens = await Promise.all(Array.from({ length: 10 }, (_, i) => login(server.url, `bench-agent-${i + 1}@atende.local`, BENCH_ADMIN.password)));
    const { buildApp } = await import('../apps/server/src/app.js');
    const { testConfig } = await import('../apps/server/src/test/test-app.js');
    const { ingestMessage } = await import('../apps/server/src/inbound/ingest.js');
    const { createManualJobs } = await import('../apps/server/src/test/manual-jobs.js');
    // Its Socket.IO server has no clients: it publishes through the Redis adapter to the server's sockets.
    // It works no jobs (the server under test does): they are queued in memory and never run.
    const app = await buildApp({ config: testConfig({ REDIS_URL: redisUrl }), database, realtime: true, serveWeb: false, jobs: createManualJobs() });
    // 50 agents' sockets (in their own process, as the fan-out's) receive the events of the messages ingested.
    const agentSockets = only.has('ingest')
      ? await startFanoutClients({
          url: server.url,
          tokens: Array.from({ length: 50 }, (_, i) => agentTokens[i % agentTokens.length] ?? token),
          procs: 1,
          event: `company-${seed.companyId}-appMessage`,
        })
      : null;
    // The common path needs a known contact with an open or pending ticket.
    const active = await database.sql.executeSql(
      `select c.number from tickets t join contacts c on c.id = t.contact_id where t.company_id = $1 and t.status in ('open', 'pending') order by t.id limit 5000`,
      [seed.companyId],
    );
    const activeNumbers = active.rows.map((r) => String(r.number));
    let sequence = 0;
    const ingestAt = (concurrency: number) => async () => {
      const latencies: number[] = [];
      let errors = 0;
      let running = true;
      const before = statements;
      await agentSockets?.take();
      let existingPath = 0;
      // At concurrency 1 statements can be attributed to each path exactly.
      const perPath = { existing: 0, existingCount: 0, created: 0, createdCount: 0 };
      const started = performance.now();
      const loops = Array.from({ length: concurrency }, async () => {
        while (running) {
          sequence += 1;
          // Half to existing tickets (the seeded contacts), half from new contacts.
          const existing = sequence % 2 === 0;
          const from = existing ? (activeNumbers[sequence % activeNumbers.length] ?? '') : `55${String(21_900_000_000 + sequence)}`;
          const t0 = performance.now();
          const s0 = statements;
          try {
            await ingestMessage(app.services, { channel: 'sandbox', companyId: seed.companyId, whatsappId: seed.connectionId, externalId: `bench-in-${sequence}`, from, body: `mensagem de teste ${sequence} sobre o pedido t=${wallClock()}` });
            latencies.push(performance.now() - t0);
            if (existing) existingPath += 1;
            if (concurrency === 1) {
              if (existing) {
                perPath.existing += statements - s0;
                perPath.existingCount += 1;
              } else {
                perPath.created += statements - s0;
                perPath.createdCount += 1;
              }
            }
          } catch {
            errors += 1;
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      running = false;
      await Promise.all(loops);
      const elapsed = (performance.now() - started) / 1000;
      const summary = summarize(latencies, errors, elapsed);
      // The last messages' events are still on their way through Redis.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const agentDelays = (await agentSockets?.take()) ?? [];
      const ratio = (n: number, d: number) => Math.round((n / Math.max(1, d)) * 10) / 10;
      return {
        ...summary,
        extra: {
          sqlPerMessage: ratio(statements - before, latencies.length),
          ...(concurrency === 1
            ? { sqlCommonPath: ratio(perPath.existing, perPath.existingCount), sqlNewContact: ratio(perPath.created, perPath.createdCount) }
            : {}),
          existingPath,
          // appMessage events the agents' sockets received, and their delay from the call to ingest (p99, ms).
          agentEvents: agentDelays.length,
          agentEventP99: summarize(agentDelays, 0, elapsed).p99,
        },
      };
    };
    if (only.has('ingest')) {
      rows.push(await measure('inbound ingest, concurrency 1', [...ownPids, ...(agentSockets?.pids ?? [])], ingestAt(1)));
      rows.push(await measure('inbound ingest, concurrency 20', [...ownPids, ...(agentSockets?.pids ?? [])], ingestAt(20)));
    }
    await agentSockets?.stop();
    if (only.has('ingest') && only.has('fanout')) await settle(database);

    // Fan-out: N sockets of one company, in their own processes; messages ingested on the server under test at a fixed rate.
    if (only.has('fanout')) {
      const sockets = Number(args.sockets);
      const allTokens = [token, ...agentTokens];
      const clients = await startFanoutClients({
        url: server.url,
        tokens: Array.from({ length: sockets }, (_, i) => allTokens[i % allTokens.length] ?? token),
        procs: Number(args['fanout-procs']),
        event: `company-${seed.companyId}-appMessage`,
      });
      const rate = Number(args.rate);
      const send = (duration: number, conversations: number) =>
        sendAtRate({
          url: `${server.url}/sandbox/${seed.connectionId}/inbound`,
          headers: () => ({ authorization: `Bearer ${token}` }),
          rate,
          seconds: duration,
          body: (i) => ({ from: `55${String(11_900_000_000 + (i % conversations))}`, body: `fan-out t=${wallClock()}` }),
        });
      // The warm-up opens the conversations (each new one a pending ticket every socket sees); the measure writes into them.
      const conversations = Math.max(1, Math.floor(rate * warmup));
      await send(warmup, conversations);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await clients.take();
      rows.push(
        await measure(`realtime fan-out, ${sockets} sockets`, [...ownPids, ...clients.pids], async () => {
          const sends = await send(seconds, conversations);
          // Events still on their way when the last answer came.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          const delays = await clients.stop();
          return deliveryFigure(sends, delays, seconds, sockets);
        }),
      );
    }
    await app.close();

    // Cloud API: signed webhooks → agents' sockets, on the server under test, then on two API nodes and a worker
    // node (webhooks posted to the first API node, sockets shared between both), the server under test stopped meanwhile.
    if (only.has('cloud-api-latency')) {
      const appSecret = randomBytes(16).toString('hex');
      const cloud = await api<{ id: number }>(server.url, token, 'POST', '/whatsapp', {
        name: 'Bench Cloud API',
        provider: 'cloud-api',
        cloudApi: { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId, accessToken: graph.accessToken, appSecret, verifyToken: 'bench-verify' },
      });
      const target = { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId, appSecret };
      const sockets = Number(args['cloud-sockets']);
      const allTokens = [token, ...agentTokens];
      const latency = (webhookUrl: string, socketUrls: string[]) => () =>
        cloudApiLatency({
          webhookUrl,
          socketUrls,
          tokens: Array.from({ length: sockets }, (_, i) => allTokens[i % allTokens.length] ?? token),
          event: `company-${seed.companyId}-appMessage`,
          target,
          rate: Number(args['cloud-rate']),
          seconds,
          warmup,
        });
      rows.push(await measure(`Cloud API webhook → agent's socket, one node, ${args['cloud-rate']}/s`, ownPids, latency(server.url, [server.url])));
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
      const nodes = [
        await startServer(databaseUrl, {}, ['--services=worker,channels']),
        await startServer(databaseUrl, {}, ['--services=api']),
        await startServer(databaseUrl, {}, ['--services=api']),
      ];
      try {
        const [, first, second] = nodes.map((node) => node.url);
        rows.push(
          await measure(
            `Cloud API webhook → agent's socket, two API nodes and a worker, ${args['cloud-rate']}/s`,
            [process.pid, ...nodes.map((node) => node.child.pid ?? 0)],
            latency(first ?? '', [first ?? '', second ?? '']),
          ),
        );
      } finally {
        await Promise.all(
          nodes.map(async (node) => {
            const exited = node.child.exitCode === null ? once(node.child, 'exit') : Promise.resolve();
            node.child.kill('SIGTERM');
            await exited;
          }),
        );
      }
      server = await startServer(databaseUrl);
      ownPids[1] = server.child.pid ?? 0;
      await api(server.url, token, 'DELETE', `/whatsapp/${cloud.id}`);
    }

    // Event webhooks (only with `--only webhooks`, or one row: webhook-throughput, webhook-latency): a backlog drained to a local receiver, then message → webhook latency.
    if (only.has('webhooks') || only.has('webhook-throughput')) {
      rows.push(
        await measure(`webhook deliveries, ${args['webhook-backlog']}-event backlog over ${args['webhook-keys']} tickets`, ownPids, () =>
          webhookThroughput({ url: server.url, token, database, companyId: seed.companyId, backlog: Number(args['webhook-backlog']), keys: Number(args['webhook-keys']) }),
        ),
      );
    }
    if (only.has('webhooks') || only.has('webhook-latency')) {
      rows.push(
        await measure(`message stored → webhook received, ${args['webhook-rate']} messages/s`, ownPids, () =>
          webhookLatency({ url: server.url, token, connectionId: seed.connectionId, rate: Number(args['webhook-rate']), seconds, warmup, conversations: Math.max(1, Number(args['webhook-rate']) * warmup) }),
        ),
      );
    }

    // Campaign: one list of N contacts, pacing off, on the sandbox connection; the ticket list measured while it sends.
    if (only.has('campaign')) {
      if (only.has('fanout') || only.has('ingest')) await settle(database);
      const recipients = Number(args['campaign-contacts']);
      rows.push(await measure(`campaign sending, ${recipients} contacts, pacing off`, ownPids, () => runCampaign(server.url, token, databaseUrl, seed.connectionId, recipients, null)));
      rows.push(await measure(`ticket list while a ${recipients}-contact campaign sends`, ownPids, () => runCampaign(server.url, token, databaseUrl, seed.connectionId, recipients, load)));
      // SQL per send: the same campaign again, on a server whose database connections run through a
      // counting relay (after the figures above, so the relay's hop touches none of them). Everything the
      // server runs meanwhile counts: engine, pg-boss, sweeps and this bench's progress polls.
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
      const counter = await startWireCounter(databaseUrl);
      server = await startServer(counter.url);
      const countedToken = await login(server.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
      rows.push(
        await measure(`campaign SQL statements per send, ${recipients} contacts`, [process.pid, server.child.pid ?? 0], async () => {
          const before = counter.statements();
          const result = await runCampaign(server.url, countedToken, databaseUrl, seed.connectionId, recipients, null);
          const statementsPerSend = Math.round(((counter.statements() - before) / recipients) * 100) / 100;
          return { ...result, extra: { ...result.extra, statementsPerSend } };
        }),
      );
      server.child.on('exit', () => void counter.close());
    }
  } finally {
    // Its exit is awaited (then forced): the counted server's database relay lives in this
    // process, and a server whose database went away mid-shutdown could otherwise linger.
    const exited = server.child.exitCode === null ? once(server.child, 'exit') : Promise.resolve();
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await database.close();
    await graph.close();
  }

  // A figure measured while one core ran at under 80% of the run's median speed is flagged too.
  const speeds = rows.map((r) => r.cpuSpeed).sort((a, b) => a - b);
  const medianSpeed = speeds[Math.floor(speeds.length / 2)] ?? 0;
  for (const row of rows) row.slowMachine = row.cpuSpeed < 0.8 * medianSpeed;
  const table = rows.map((r) => ({
    figure: r.name,
    'req/s': r.rps,
    p50: r.p50,
    p90: r.p90,
    p99: r.p99,
    errors: r.errors,
    ...(r.extra ?? {}),
    'CPU speed': r.cpuSpeed,
    'other CPU %': r.otherCpuPercent,
    'steal %': r.stealPercent,
    disturbed: [r.disturbed && 'YES', r.slowMachine && 'slow CPU'].filter(Boolean).join(', '),
  }));
  console.table(table);
  if (trace) {
    const top = [...trace.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25);
    for (const [text, entry] of top) console.log(`${entry.ms.toFixed(0).padStart(7)} ms ${String(entry.count).padStart(7)}× ${text}`);
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    settings: { tickets: Number(args.tickets), messages: Number(args.messages), seconds, warmup, connections: Number(args.connections), sockets: Number(args.sockets), rate: Number(args.rate), fanoutProcs: Number(args['fanout-procs']) },
    seedSeconds: Math.round(seedSeconds * 10) / 10,
    rows,
  };
  const outDir = path.resolve(args['out-dir']);
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${result.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`results written to ${path.relative(root, file)}`);
  process.exit(0);
}

await main();
