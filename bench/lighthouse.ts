/**
 * `npm run bench:lighthouse`: Lighthouse's default mobile profile (simulated throttling:
 * slow 4G, 4x CPU slowdown, Moto G Power screen) against the production build, on the
 * login page and on the tickets page of a signed-in admin (issue "Operator experience",
 * item 10). Prints every run and the median per page, writes bench/results/lighthouse-latest.json,
 * and exits 1 when a median is over the targets (LCP 2.5 s, TBT 200 ms).
 *
 *   npm run bench:lighthouse                        3 runs per page
 *   npm run bench:lighthouse -- --runs 5 --only tickets
 *   npm run bench:lighthouse -- --unused            also lists the unused JavaScript of each page's last run
 *   npm run bench:lighthouse -- --nginx             through the deploy's nginx site (TLS, HTTP/2), as docs/deploy.md runs it
 *
 * Without --nginx the browser talks to the Node server itself: plain HTTP/1.1, which
 * Lighthouse simulates as six connections, each request waiting its round trip on one of
 * them. With --nginx the pages come through `deploy/nginx/atende.conf` (the file the
 * topology test runs, with a throw-away certificate the browser is told to accept): one
 * TLS connection carrying HTTP/2, what a phone gets from a deployed server.
 *
 * The server runs on a fresh data dir (embedded database) with a sandbox connection and
 * a screenful of pending tickets. The session is the web app's own: the token in
 * localStorage (apps/web/src/api/session.tsx), which Lighthouse keeps (it clears the HTTP
 * cache and service workers before each run, not localStorage).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { PRELOAD_HINT_COOKIE, preloadHint } from '../packages/shared/src/first-screen.js';
import { NGINX, nginxPresent, startNginx } from '../apps/server/src/test/nginx.js';
import { selfSignedCertificate } from '../apps/server/src/topology/processes.js';
import { testSite } from '../apps/server/src/topology/site.js';

const TARGETS = { lcp: 2500, tbt: 200 };
const PAGES = ['login', 'tickets'] as const;
type PageName = (typeof PAGES)[number];
const ADMIN = { email: 'admin@admin.com', password: 'Admin123!' };
const TICKETS = 25;

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string', default: PAGES.join(',') },
    unused: { type: 'boolean', default: false },
    /** Pages through the deploy's nginx site (TLS, HTTP/2) instead of the Node server's own HTTP/1.1. */
    nginx: { type: 'boolean', default: false },
    /** Also writes each run's full Lighthouse report (JSON) and its trace (`<page>-<run>.trace.json`) into this folder. */
    'lhr-dir': { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    'out-dir': { type: 'string', default: path.resolve(import.meta.dirname, 'results') },
  },
});
const runs = Number(args.runs);
const pages = args.only.split(',').map((p) => p.trim()) as PageName[];
for (const page of pages) if (!PAGES.includes(page)) throw new Error(`unknown page ${page} (login, tickets)`);
if (!existsSync(args.chromium)) throw new Error(`${args.chromium} not found: apt-get install -y chromium`);
if (args.nginx && !nginxPresent) throw new Error(`${NGINX} not found: apt-get install -y nginx`);

interface RunFigures {
  score: number;
  /** Lighthouse's measure of this machine's speed at the time (higher is faster): low when other processes take the CPU. */
  benchmarkIndex: number;
  fcp: number;
  lcp: number;
  tbt: number;
  si: number;
  lcpElement: string;
  finalUrl: string;
  /** Unused JavaScript per script (bytes as transferred), from the audit "unused-javascript". */
  unusedJs: { url: string; wastedBytes: number; totalBytes: number }[];
}

const cleanups: (() => void)[] = [];
// Each cleanup runs even if one before it throws (Chromium may still be writing its profile), or the server would outlive the bench.
process.on('exit', () =>
  cleanups.reverse().forEach((cleanup) => {
    try {
      cleanup();
    } catch {
      // a temporary folder left behind
    }
  }),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(1));

if (!existsSync(path.join(root, 'apps/web/dist/index.html')) || !existsSync(path.join(root, 'apps/server/dist/main.js'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** The server itself (the bench's API calls), and the origin the browser loads the pages from. */
const base = await startServer();
const origin = args.nginx ? await startProxy(new URL(base).port) : base;
const { token } = await signIn();
await seedTickets(token);
const browser = await startChromium(args.chromium);

const results: Record<string, RunFigures[]> = {};
for (const page of pages) {
  results[page] = [];
  for (let run = 1; run <= runs; run++) {
    await prepareStorage(page);
    const figures = await audit(`${origin}/${page}`, args['lhr-dir'] ? path.join(args['lhr-dir'], `${page}-${run}.json`) : null);
    if (!new URL(figures.finalUrl).pathname.startsWith(`/${page}`)) throw new Error(`${page}: ended on ${figures.finalUrl}`);
    results[page].push(figures);
    console.log(
      `${page.padEnd(8)} run ${run}: score ${figures.score}  FCP ${ms(figures.fcp)}  LCP ${ms(figures.lcp)}  TBT ${ms(figures.tbt)}  SI ${ms(figures.si)}  benchmarkIndex ${figures.benchmarkIndex}  load ${loadavg()[0]?.toFixed(2)}  LCP element: ${figures.lcpElement}`,
    );
  }
  if (args.unused) printUnused(page, results[page].at(-1));
}

const summary = Object.fromEntries(
  Object.entries(results).map(([page, list]) => [
    page,
    { score: median(list.map((r) => r.score)), fcp: median(list.map((r) => r.fcp)), lcp: median(list.map((r) => r.lcp)), tbt: median(list.map((r) => r.tbt)), si: median(list.map((r) => r.si)) },
  ]),
);
console.log(`\nMedian of ${runs} runs (targets: LCP ≤ ${ms(TARGETS.lcp)}, TBT ≤ ${ms(TARGETS.tbt)})`);
let failed = false;
for (const [page, figures] of Object.entries(summary)) {
  const over = figures.lcp > TARGETS.lcp || figures.tbt > TARGETS.tbt;
  failed ||= over;
  console.log(`${page.padEnd(8)} score ${figures.score}  FCP ${ms(figures.fcp)}  LCP ${ms(figures.lcp)}  TBT ${ms(figures.tbt)}  SI ${ms(figures.si)}${over ? '  OVER TARGET' : ''}`);
}
mkdirSync(args['out-dir'], { recursive: true });
writeFileSync(
  path.join(args['out-dir'], 'lighthouse-latest.json'),
  JSON.stringify({ date: new Date().toISOString(), runs, via: args.nginx ? 'nginx (TLS, HTTP/2)' : 'node (HTTP/1.1)', lighthouse: lighthouseVersion(), loadavg: loadavg(), summary, results }, null, 2),
);
await browser.close();
process.exit(failed ? 1 : 0);

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function lighthouseVersion(): string {
  return (JSON.parse(spawnSync(process.execPath, ['-p', 'JSON.stringify(require("lighthouse/package.json"))'], { cwd: root, encoding: 'utf8' }).stdout) as { version: string }).version;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The production build on a fresh data dir (embedded database), as `npm start` runs it. */
async function startServer(): Promise<string> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-lighthouse-'));
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(48).toString('base64url'),
      JWT_REFRESH_SECRET: randomBytes(48).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(48).toString('base64url'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      // One sign-in per tickets run.
      LOGIN_LIMIT_PER_IP: '10000',
      LOGIN_LIMIT_PER_EMAIL: '10000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(() => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    const healthy = await fetch(`${url}/health`).then((res) => res.ok, () => false);
    if (healthy) return url;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('server did not become healthy');
}

/** The deploy's nginx site in front of the server (both of its upstream nodes are this one server); answers the https origin. */
async function startProxy(nodePort: string): Promise<string> {
  const certificate = selfSignedCertificate();
  const [https, http] = [await freePort(), await freePort()];
  const nginx = await startNginx(testSite({ https, http, nodes: [Number(nodePort), Number(nodePort)], certificate: certificate.certificate, key: certificate.key }), [https, http]);
  cleanups.push(() => {
    void nginx.stop();
    certificate.remove();
  });
  return `https://127.0.0.1:${https}`;
}

async function api<T>(method: string, route: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function signIn(): Promise<{ token: string; user: { id: number; companyId: number } }> {
  return api('POST', '/auth/login', ADMIN);
}

/** A sandbox connection and a screenful of pending tickets, each from its own contact. */
async function seedTickets(adminToken: string): Promise<void> {
  const connection = await api<{ id: number }>('POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' }, adminToken);
  for (let i = 0; i < TICKETS; i++) {
    const from = `55319${String(10_000_000 + i * 7919).slice(0, 8)}`;
    await api('POST', `/sandbox/${connection.id}/inbound`, { from, name: `Cliente ${i + 1}`, body: `Olá, preciso de ajuda com o pedido ${1000 + i}` }, adminToken);
  }
}

/** Headless Chromium with a debugging port; Lighthouse opens its own tab in it for each run. */
async function startChromium(executable: string): Promise<{ port: number; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'atende-lighthouse-chromium-'));
  const port = await freePort();
  const child = spawn(
    executable,
    [
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--no-sandbox',
      // The nginx run's certificate is the bench's own.
      ...(args.nginx ? ['--ignore-certificate-errors'] : []),
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  cleanups.push(() => {
    child.kill('SIGTERM');
    rmSync(profile, { recursive: true, force: true });
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/json/version`).then((res) => res.ok, () => false);
    if (up) return { port, close: async () => void child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('chromium did not start');
}

/**
 * The login page is audited signed out, the tickets page with a fresh session stored as
 * the web app stores it. Set from a page of the same origin that does not run the app
 * (the favicon); the connection is dropped before Lighthouse takes the browser.
 */
async function prepareStorage(page: PageName): Promise<void> {
  const session = page === 'tickets' ? await signIn() : null;
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
  try {
    const context = cdp.contexts()[0];
    if (!context) throw new Error('no browser context');
    const tab = await context.newPage();
    await tab.goto(`${origin}/favicon.svg`);
    await tab.evaluate(({ stored, hint }) => {
      localStorage.clear();
      sessionStorage.clear();
      // What the app writes at every visit (writePreloadHint), so the page the server sends names this screen's
      // files: a returning browser's, in the language Lighthouse's Chromium reads (en).
      (globalThis as unknown as { document: { cookie: string } }).document.cookie = `${hint}; path=/`;
      if (stored) {
        localStorage.setItem('token', stored.token);
        localStorage.setItem('companyId', String(stored.user.companyId));
        localStorage.setItem('userId', String(stored.user.id));
      }
    }, { stored: session, hint: `${PRELOAD_HINT_COOKIE}=${preloadHint('en', Boolean(session))}` });
    await tab.close();
  } finally {
    await cdp.close();
  }
}

async function audit(url: string, reportFile: string | null): Promise<RunFigures> {
  const result = await lighthouse(url, { port: browser.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  if (reportFile) {
    mkdirSync(path.dirname(reportFile), { recursive: true });
    writeFileSync(reportFile, JSON.stringify(lhr));
    const trace = (result.artifacts as { Trace?: { traceEvents: unknown[] } }).Trace;
    if (trace) writeFileSync(reportFile.replace(/\.json$/, '.trace.json'), JSON.stringify(trace.traceEvents));
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`${url}: no ${id}`);
    return value;
  };
  const lcpDetails = lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
  const unusedDetails = lhr.audits['unused-javascript']?.details as { items?: { url: string; wastedBytes: number; totalBytes: number }[] } | undefined;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    si: numeric('speed-index'),
    lcpElement: lcpDetails?.items?.[0]?.items?.[0]?.node?.snippet ?? '?',
    finalUrl: lhr.finalDisplayedUrl,
    unusedJs: (unusedDetails?.items ?? []).map(({ url: script, wastedBytes, totalBytes }) => ({ url: script, wastedBytes, totalBytes })),
  };
}

function printUnused(page: string, figures: RunFigures | undefined): void {
  if (!figures) return;
  console.log(`\n${page}: unused JavaScript (kB as transferred, of the script's size)`);
  for (const item of figures.unusedJs) {
    console.log(`${(item.wastedBytes / 1024).toFixed(1).padStart(8)} of ${(item.totalBytes / 1024).toFixed(1).padStart(6)}  ${new URL(item.url).pathname}`);
  }
  console.log('');
}
