import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, waitFor, type PrivateRedis } from '../faults/processes.js';
import { freePort, send, type Answer } from '../test/loopback-http.js';
import { NGINX, nginxPresent, nginxVersion, startNginx, type Nginx } from '../test/nginx.js';
import { buildServerAndWeb, createDatabase, nodeSecrets, openConnectionsTo, selfSignedCertificate, startNode, type Certificate, type TestDatabase, type TopologyNode } from './processes.js';
import { exampleEnvironment, testSite } from './site.js';

/**
 * Issue 33 item 1: the production topology of docs/deploy.md, for real. Debian's nginx
 * runs the operator's site file (deploy/nginx/atende.conf) with a throw-away TLS
 * certificate in front of two `--services=api` nodes; a `--services=worker,channels`
 * node works beside them; all three are the built server in NODE_ENV=production on a
 * PostgreSQL database and a Redis of this test's own. Everything the clients do goes
 * through nginx over TLS:
 *
 * - logins: the limiter counts the client's own address (what nginx appended to
 *   X-Forwarded-For, TRUST_PROXY naming nginx), not nginx's, whatever header the
 *   client forged;
 * - a socket on one api node hears a message posted through the other (through Redis),
 *   and how much later than the posting node's own socket;
 * - a campaign goes out from the worker node (the api nodes run no jobs);
 * - the api node holding a real browser's socket is killed (SIGKILL): the browser
 *   reconnects through nginx to the other node, and every message sent meanwhile shows.
 *
 * Clients connect from loopback addresses of their own (Linux routes all of 127.0.0.0/8
 * to lo); nginx reaches the nodes from 127.0.0.1, the address TRUST_PROXY names, and
 * so does the browser, which cannot choose its address.
 */

const ADMIN = { email: 'topology@atende.test', password: 'Topology-admin-1' };
const CLIENTS = { attacker: '127.0.1.2', colleague: '127.0.2.2', agent: '127.0.3.2' };
/** Failed logins per address (lowered so the limit shows in a few requests). */
const LOGIN_LIMIT = 5;
const CUSTOMER = '5547999990001';
const CAMPAIGN_CONTACTS = 5;
const OUTAGE_MESSAGES = 5;

let database: TestDatabase | undefined;
let redis: PrivateRedis | undefined;
let certificate: Certificate | undefined;
let nginx: Nginx | undefined;
let dataDir: string | undefined;
let worker: TopologyNode | undefined;
/** The two api nodes, in the site file's order. */
let nodes: TopologyNode[] = [];
let httpsPort = 0;
let httpPort = 0;
let browser: Browser | undefined;
const sockets: Socket[] = [];

let token = '';
let companyId = 0;
let connectionId = 0;
/** The customer's ticket, which the messages below go to. */
let ticketId = 0;
let lastMessage = '';

/** What the test proved, printed at the end. */
const proved: { realAddress?: string; crossNode?: string; campaign?: string; failover?: string; lost?: string } = {};

/** nginx logs, for each request, the node (or nodes, when it moved on to the next) that answered it. */
const LOG_FORMAT = `log_format topology '$remote_addr $status probe=$http_x_topology_probe upstream=$upstream_addr "$request"';
  access_log PREFIX/topology.log topology;`;

interface Served {
  client: string;
  status: number;
  probe: string;
  /** The ports of the nodes nginx tried, in order; the last one answered. */
  nodes: number[];
}

function servedRequests(): Served[] {
  const file = path.join(nginx?.dir ?? '', 'topology.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [client = '', status = '0', probe = '', upstream = ''] = line.split(' ');
      return {
        client,
        status: Number(status),
        probe: probe.slice('probe='.length),
        nodes: [...upstream.matchAll(/:(\d+)/g)].map((match) => Number(match[1])),
      };
    });
}

/** The port of the node that answered the request sent with `x-topology-probe: probe`. */
function answeredBy(probe: string): Promise<number> {
  return waitFor(`nginx's log line of ${probe}`, async () => servedRequests().find((served) => served.probe === probe)?.nodes.at(-1), 10_000, 20);
}

/** A request to nginx over TLS (trusting the test's certificate), from a client address. */
function proxied(method: string, url: string, options: { from?: string; body?: unknown; auth?: boolean; probe?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return send({
    port: httpsPort,
    ca: certificate?.pem,
    method,
    path: url,
    from: options.from ?? CLIENTS.agent,
    body: options.body,
    headers: {
      ...(options.auth === false ? {} : { authorization: `Bearer ${token}` }),
      ...(options.probe ? { 'x-topology-probe': options.probe } : {}),
      ...options.headers,
    },
  });
}

async function call<T>(method: string, url: string, body?: unknown, probe?: string): Promise<T> {
  const answer = await proxied(method, url, { body, probe });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

/** The customer writes on the sandbox phone (through nginx, to whichever node it picks). */
function customerWrites(body: string, probe?: string): Promise<{ ticketId: number }> {
  return call<{ ticketId: number }>('POST', `/sandbox/${connectionId}/inbound`, { from: CUSTOMER, name: 'Cliente Topologia', body }, probe);
}

/** Which api node holds the one socket open now (waits while requests are in flight). */
function socketNode(): Promise<TopologyNode> {
  return waitFor(
    'one socket open on one api node',
    async () => {
      const open = nodes.map((node) => (node.alive() ? openConnectionsTo(node.port) : 0));
      return open.reduce((sum, count) => sum + count, 0) === 1 ? nodes[open.indexOf(1)] : undefined;
    },
    15_000,
    20,
  );
}

/** One statement on the nodes' database, on a connection of its own. */
async function query<Row>(text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database?.url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** An admin's socket through nginx over TLS (WebSocket, from the agent's address), once the server said `ready`. */
async function agentSocket(): Promise<Socket> {
  const socket = io(`https://127.0.0.1:${httpsPort}`, {
    transports: ['websocket'],
    query: { token },
    reconnection: false,
    agent: new Agent({ ca: certificate?.pem, localAddress: CLIENTS.agent }) as unknown as string,
    ca: certificate?.pem,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** When the socket hears the customer's message `body` (performance.now()). */
function nextMessage(socket: Socket, body: string): Promise<number> {
  const event = `company-${companyId}-appMessage`;
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => reject(new Error(`no event for "${body}" within 15 s`)), 15_000);
    const listener = (payload: { action: string; message?: { body: string } }) => {
      if (payload.action !== 'create' || payload.message?.body !== body) return;
      clearTimeout(late);
      socket.off(event, listener);
      resolve(performance.now());
    };
    socket.on(event, listener);
  });
}

/** The error (and fatal) lines a node logged (pino's JSON: level 50 and 60). */
function loggedErrors(node: TopologyNode | undefined): string[] {
  return (node?.output() ?? '').split('\n').filter((line) => /"level":(50|60)\b/.test(line));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (value: number) => `${Math.round(value)} ms`;

// CI sets CI=true: there a missing nginx fails the suite instead of skipping it.
describe.skipIf(!nginxPresent && !process.env.CI)('the production topology behind nginx (docs/deploy.md)', () => {
  beforeAll(async () => {
    if (!nginxPresent) throw new Error(`${NGINX} is missing: apt-get install -y nginx (CI installs it in .ci/run)`);
    buildServerAndWeb();
    [database, redis] = await Promise.all([createDatabase(), startRedis()]);
    certificate = selfSignedCertificate();
    const ports = new Set<number>();
    while (ports.size < 4) ports.add(await freePort());
    const [https = 0, http = 0, first = 0, second = 0] = [...ports];
    httpsPort = https;
    httpPort = http;
    // One DATA_DIR for the three nodes, as docs/deploy.md shares DATA_DIR/media between them.
    dataDir = mkdtempSync(path.join(tmpdir(), 'atende-topology-'));
    // The operator's environment file (NODE_ENV=production, TRUST_PROXY naming nginx, ...), this run's addresses and secrets over it.
    const example = Object.fromEntries(exampleEnvironment().flatMap(({ name, value, set }) => (set && value !== '' ? [[name, value]] : [])));
    const env = {
      ...example,
      ...nodeSecrets(ADMIN),
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: `https://127.0.0.1:${https}`,
      LOG_LEVEL: 'warn',
      LOGIN_LIMIT_PER_IP: String(LOGIN_LIMIT),
      LOGIN_LIMIT_PER_EMAIL: String(LOGIN_LIMIT),
      // The account lock-out is another test's subject (modules/auth/login-limits.test.ts).
      LOGIN_LOCKOUT_AFTER: '1000',
      OUTBOUND_SWEEP_SECONDS: '1',
    };
    // All three at once, as systemd starts them at boot: one migrates the empty database and seeds it, the others wait for it.
    const starts = await Promise.allSettled([startNode('worker,channels', env, 0), startNode('api', env, first), startNode('api', env, second)]);
    const running = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed) {
      await Promise.all(running.map((node) => node.kill('SIGKILL')));
      throw failed.reason;
    }
    [worker, ...nodes] = running;
    nginx = await startNginx(`${LOG_FORMAT}\n${testSite({ https, http, nodes: [first, second], certificate: certificate.certificate, key: certificate.key })}`, [https, http]);

    const login = await proxied('POST', '/auth/login', { body: ADMIN, auth: false });
    if (login.status !== 200) throw new Error(`login through nginx: ${login.status} ${JSON.stringify(login.body)}`);
    token = String(login.body.token);
    companyId = Number((login.body.user as { companyId: number }).companyId);
    connectionId = (await call<{ id: number }>('POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' })).id;
  }, 300_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await browser?.close();
    await nginx?.stop();
    await Promise.all([...nodes, worker].map((node) => node?.kill('SIGKILL')));
    await redis?.close();
    await database?.drop();
    certificate?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (proved.realAddress || proved.crossNode || proved.campaign || proved.failover) {
      const line = (label: string, value?: string) => (value ? `  ${label}: ${value}\n` : '');
      process.stdout.write(
        `\nproduction topology (${nginxVersion().replace('nginx version: ', '')} with TLS, 2 api nodes, 1 worker,channels node, PostgreSQL, Redis) proved:\n` +
          line('real address seen', proved.realAddress) +
          line('cross-node event latency', proved.crossNode) +
          line('campaign', proved.campaign) +
          line('failover time', proved.failover) +
          line('messages lost', proved.lost),
      );
    }
  }, 60_000);

  it('plain HTTP is sent to HTTPS', async () => {
    const answer = await send({ port: httpPort, method: 'GET', path: '/tickets', from: CLIENTS.agent });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('https://127.0.0.1/tickets');
  });

  it('logins through nginx: the limiter counts the client’s own address, not nginx’s, whatever X-Forwarded-For it forges', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_LIMIT; i++) {
      const answer = await proxied('POST', '/auth/login', {
        from: CLIENTS.attacker,
        auth: false,
        probe: `login-${i}`,
        // A new forged address every time: nginx keeps it and appends the attacker's real one.
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: { email: `nobody-${i}@atende.test`, password: 'Wrong-password-1' },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array<number>(LOGIN_LIMIT).fill(401), 429]);
    // Another client behind the same nginx signs in, even forging the attacker's address: the count was not nginx's.
    const colleague = await proxied('POST', '/auth/login', { from: CLIENTS.colleague, auth: false, headers: { 'x-forwarded-for': CLIENTS.attacker }, body: ADMIN });
    expect(colleague.status).toBe(200);
    // The attacker stays refused, even with the right password.
    expect((await proxied('POST', '/auth/login', { from: CLIENTS.attacker, auth: false, body: ADMIN })).status).toBe(429);

    // The limiter's counters, kept in the database for every node, under the SHA-256 of the address.
    const rows = await query<{ key: string; count: number }>(`select key, count from rate_limits where key like 'login:%'`);
    const failuresOf = (address: string) => rows.find((row) => row.key === `login:${createHash('sha256').update(`ip:${address}`).digest('hex')}`)?.count ?? 0;
    expect(failuresOf(CLIENTS.attacker)).toBe(LOGIN_LIMIT);
    expect(failuresOf('127.0.0.1')).toBe(0);
    for (let i = 0; i <= LOGIN_LIMIT; i++) expect(failuresOf(`198.51.100.${i + 1}`)).toBe(0);
    // Spread over both api nodes, the attempts met one count.
    const answering = new Set(await Promise.all(statuses.map((_, i) => answeredBy(`login-${i}`))));
    expect(answering.size).toBe(2);
    proved.realAddress = `${CLIENTS.attacker} (the limiter counted its ${LOGIN_LIMIT} failures, answered by both api nodes, under its own address; none under nginx's 127.0.0.1 or the ${LOGIN_LIMIT + 1} forged X-Forwarded-For addresses; another client signed in)`;
  });

  it('a socket on one api node hears a message posted through the other node', async () => {
    // Two agents' sockets: nginx (least_conn) puts the second on the node without the first.
    const first = await agentSocket();
    const firstNode = await socketNode();
    const second = await agentSocket();
    const open = await waitFor('one socket open on each api node', async () => {
      const counts = nodes.map((node) => openConnectionsTo(node.port));
      return counts.every((count) => count === 1) ? counts : undefined;
    }, 15_000, 20);
    expect(open).toEqual([1, 1]);
    const socketOn = new Map([
      [firstNode.port, first],
      [nodes.find((node) => node !== firstNode)?.port ?? 0, second],
    ]);

    // Each message reaches both sockets: the one on the node that took the post, and the one on
    // the other node, through Redis. The difference is the cost of crossing nodes.
    const crossing: number[] = [];
    const fromPost: number[] = [];
    for (let i = 0; i < 6; i++) {
      const body = `Olá, mensagem ${i}`;
      const heard = [...socketOn.values()].map((socket) => nextMessage(socket, body));
      for (const promise of heard) promise.catch(() => undefined);
      const posted = performance.now();
      ticketId = (await customerWrites(body, `post-${i}`)).ticketId;
      const postedTo = await answeredBy(`post-${i}`);
      const at = new Map([...socketOn.keys()].map((port, index) => [port, heard[index]]));
      const [local, remote] = await Promise.all([at.get(postedTo), [...at].find(([port]) => port !== postedTo)?.[1]]);
      if (local === undefined || remote === undefined) throw new Error(`post ${i} went to an unknown node (${postedTo})`);
      crossing.push(remote - local);
      fromPost.push(remote - posted);
      lastMessage = body;
    }
    // Both ways: nginx sent posts to each node.
    const posting = new Set(await Promise.all(crossing.map((_, i) => answeredBy(`post-${i}`))));
    expect(posting.size).toBe(2);
    first.close();
    second.close();
    proved.crossNode =
      `from the post (a new TLS connection to nginx) to the event on the other api node's socket: median ${ms(median(fromPost))}, max ${ms(Math.max(...fromPost))}, ` +
      `${fromPost.length} messages posted through both nodes; the other node's socket heard each from ${ms(Math.min(...crossing))} to ${ms(Math.max(...crossing))} ` +
      `after the posting node's own socket (median ${ms(median(crossing))}: both nodes deliver an event once it is in Redis)`;
  });

  it('a campaign is sent by the worker node', async () => {
    await call('POST', '/campaign-settings', { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 40 } } });
    const list = await call<{ id: number }>('POST', '/contact-lists', { name: 'Topologia' });
    const numbers = Array.from({ length: CAMPAIGN_CONTACTS }, (_, i) => `554795550${String(i).padStart(4, '0')}`);
    for (const [i, number] of numbers.entries()) await call('POST', '/contact-list-items', { contactListId: list.id, name: `Cliente ${i}`, number });
    const started = performance.now();
    const campaign = await call<{ id: number }>('POST', '/campaigns', {
      name: 'Topologia',
      message1: 'Oferta para {nome}',
      whatsappId: connectionId,
      contactListId: list.id,
      scheduledAt: new Date().toISOString(),
    });
    let last: unknown;
    const finished = await waitFor(
      'the campaign to be FINALIZADA',
      async () => {
        const now = await call<{ status: string; progress: Record<string, number> }>('GET', `/campaigns/${campaign.id}`);
        last = now;
        return now.status === 'FINALIZADA' ? now : undefined;
      },
      90_000,
      250,
    ).catch(async (error: unknown) => {
      const sends = await query(`select state, reason, count(*) from outbound_sends group by 1, 2`);
      const jobs = await query(`select name, state, count(*) from pgboss.job group by 1, 2`);
      throw new Error(`${String(error)}\ncampaign: ${JSON.stringify(last)}\nsends: ${JSON.stringify(sends)}\njobs: ${JSON.stringify(jobs)}\nworker: ${worker?.output().slice(-3000)}`);
    });
    const seconds = (performance.now() - started) / 1000;
    expect(finished.progress).toMatchObject({ sent: CAMPAIGN_CONTACTS, failed: 0 });
    for (const number of numbers) {
      const outbox = await call<{ body: string }[]>('GET', `/sandbox/${connectionId}/outbox?number=${number}`);
      expect(outbox).toHaveLength(1);
      expect(outbox[0]?.body).toMatch(/^Oferta para Cliente \d$/);
    }
    // Up to here nothing went wrong on any node (the three started at once: no deadlock at setup, no lost worker).
    for (const node of [worker, ...nodes]) expect(loggedErrors(node)).toEqual([]);
    proved.campaign = `${CAMPAIGN_CONTACTS} of ${CAMPAIGN_CONTACTS} messages sent by the worker node (the api nodes run no jobs), ${seconds.toFixed(1)} s from creation to FINALIZADA`;
  });

  it('the api node holding a browser’s socket is killed: the browser reconnects through nginx to the other node and misses nothing', async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({ baseURL: `https://127.0.0.1:${httpsPort}`, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    /** The page's sockets: when each opened, was told it is connected (Socket.IO's CONNECT) and closed. */
    const pageSockets: { opened: number; connected?: number; closed?: number }[] = [];
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      const entry: (typeof pageSockets)[number] = { opened: performance.now() };
      pageSockets.push(entry);
      ws.on('framereceived', ({ payload }) => {
        if (entry.connected === undefined && String(payload).startsWith('40')) entry.connected = performance.now();
      });
      ws.on('close', () => (entry.closed = performance.now()));
    });

    const me = await call<{ id: number }>('GET', '/auth/me');
    await call('PUT', `/tickets/${ticketId}`, { status: 'open', userId: me.id });
    const ticket = await call<{ uuid: string }>('GET', `/tickets/${ticketId}`);
    await page.goto('/login');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/tickets$/);
    await page.goto(`/tickets/${ticket.uuid}`);
    const shown = (body: string) => page.getByTestId('message-item').filter({ hasText: body });
    await shown(lastMessage).waitFor();
    await waitFor('the page’s socket', async () => pageSockets.find((entry) => entry.connected !== undefined && entry.closed === undefined), 30_000, 20);
    const victim = await socketNode();
    const survivor = nodes.find((node) => node !== victim);

    const killedAt = performance.now();
    await victim.kill('SIGKILL');
    const back = () => pageSockets.find((entry) => entry.opened > killedAt && entry.connected !== undefined);
    // The customer goes on writing; nginx now reaches the other node only.
    const outage: { body: string; whileAway: boolean }[] = [];
    for (let i = 0; i < OUTAGE_MESSAGES; i++) {
      const body = `Durante a queda ${i}`;
      await customerWrites(body);
      outage.push({ body, whileAway: back() === undefined });
    }
    const reconnected = await waitFor('the browser’s socket to be back', async () => back(), 60_000, 20);
    // Each message is looked for until one deadline; what is not on screen then is lost.
    const deadline = performance.now() + 30_000;
    let lost = 0;
    for (const { body } of outage) {
      await shown(body)
        .waitFor({ timeout: Math.max(1, deadline - performance.now()) })
        .catch(() => (lost += 1));
    }
    const allShownMs = performance.now() - killedAt;
    expect(lost).toBe(0);
    // At least one message was stored while the browser had no socket: what it shows came after the reconnection.
    expect(outage.filter((message) => message.whileAway).length).toBeGreaterThan(0);
    expect(await socketNode()).toBe(survivor);
    proved.failover = `${ms((reconnected.connected ?? 0) - killedAt)} from the SIGKILL of its api node to the browser's socket connected through nginx to the other node; every message on screen ${ms(allShownMs)} after the kill`;
    proved.lost = `${lost} (of ${OUTAGE_MESSAGES} sent during the outage, ${outage.filter((message) => message.whileAway).length} of them while the browser had no socket)`;
  }, 120_000);
});
