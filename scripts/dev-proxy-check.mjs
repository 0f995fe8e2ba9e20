// `node scripts/dev-proxy-check.mjs`: dev mode end to end. Starts the built API
// (apps/server/dist/main.js) on a free port with a fresh embedded database, the Vite
// dev server of apps/web pointed at it, and Chromium; logs in through the dev server
// and opens pages whose data comes from many API areas. Fails when a request the
// pages make fails (an HTTP error, a network error, or an API call answered with the
// app's HTML), or the browser logs an error. `--config <file>` tries another Vite
// config (e.g. an older proxy list), `--pages /a,/b` other pages.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const webRoot = path.join(root, 'apps/web');
const option = (name) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const configFile = path.resolve(option('--config') ?? path.join(webRoot, 'vite.config.ts'));
// The dashboard is the app's root page; the others as the side menu opens them.
const pages = (option('--pages') ?? '/tickets,/schedules,/campaigns,/chats,/,/contacts,/kanban,/users').split(',');
const ADMIN = { email: 'admin@admin.com', password: 'Admin123!' };

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer`);
}

if (!existsSync(path.join(root, 'apps/server/dist/main.js'))) {
  const build = spawnSync('npm', ['run', 'build', '-w', '@atende/server'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const scratch = mkdtempSync(path.join(tmpdir(), 'atende-dev-proxy-'));
const apiPort = await freePort();
const api = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(scratch, 'data'),
    ADMIN_PASSWORD: ADMIN.password,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

let vite;
let browser;
let code = 1;
try {
  await waitFor(`http://127.0.0.1:${apiPort}/health`);
  // The config reads where the API is when it loads; its own dependency cache, so it never meets another dev server's.
  process.env.ATENDE_API = `http://127.0.0.1:${apiPort}`;
  process.env.VITE_CACHE_DIR = path.join(scratch, 'vite-cache');
  const { createServer } = await import('vite');
  vite = await createServer({ root: webRoot, configFile, logLevel: 'warn', server: { host: '127.0.0.1', port: await freePort(), strictPort: true } });
  await vite.listen();
  const devUrl = vite.resolvedUrls.local[0].replace(/\/$/, '');
  console.log(`API ${process.env.ATENDE_API}, dev server ${devUrl} (${path.relative(root, configFile)})`);

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ baseURL: devUrl });
  const problems = [];
  const apiCalls = new Map();
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // The browser cancels what is still in flight when the next page is opened: not an answer.
    if (reason !== 'net::ERR_ABORTED') problems.push(`${request.method()} ${request.url()}: ${reason}`);
  });
  page.on('response', async (response) => {
    const request = response.request();
    const url = new URL(response.url());
    if (url.origin !== devUrl) return;
    const type = request.resourceType();
    if (type === 'fetch' || type === 'xhr') {
      const key = `${request.method()} ${url.pathname.replace(/\/\d+(?=\/|$)/g, '/:id')}`;
      apiCalls.set(key, (apiCalls.get(key) ?? 0) + 1);
      // An API call the dev server kept for itself comes back as the app's page.
      if ((response.headers()['content-type'] ?? '').includes('text/html')) problems.push(`${key}: answered with HTML, not by the API`);
    }
    if (response.status() >= 400) problems.push(`${request.method()} ${url.pathname}${url.search}: ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

  await page.goto('/login');
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/tickets$/, { timeout: 30_000 });
  for (const target of pages) {
    await page.goto(target);
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    // Realtime and lazy queries settle a moment after the page's own requests.
    await page.waitForTimeout(1000);
    console.log(`opened ${target}`);
  }
  console.log(`API calls through the dev server: ${[...apiCalls.entries()].map(([key, n]) => `${key}${n > 1 ? ` ×${n}` : ''}`).join(', ')}`);
  if (problems.length > 0) {
    const counted = new Map();
    for (const problem of problems) counted.set(problem, (counted.get(problem) ?? 0) + 1);
    console.error(`${problems.length} failed:\n  ${[...counted.entries()].map(([problem, n]) => `${problem}${n > 1 ? ` ×${n}` : ''}`).join('\n  ')}`);
  } else {
    console.log(`no failed request in ${pages.length} pages (${apiCalls.size} distinct API calls)`);
    code = 0;
  }
} catch (error) {
  console.error(error);
} finally {
  await browser?.close();
  await vite?.close();
  api.kill('SIGTERM');
  await new Promise((resolve) => api.once('exit', resolve));
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
