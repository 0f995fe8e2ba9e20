// `npm run whaticket:client` (issue 32; not in CI: it builds the whaticket v6.6.1 web
// client, which is heavy): exports the client's `frontend/` from the whaticket mirror
// (WHATICKET_REPO), installs and builds it once in a cache directory, starts Atende on
// a fresh data directory, serves the built client on its own origin, and drives every
// screen in Chromium as a user would. Per screen it records passed / failed with the page
// errors, console errors and failed requests, and a 1440 px screenshot; the results go
// to docs/whaticket-client.md (between its results markers) and docs/whaticket-client/.
//
// Options: `--only=login,tickets` runs those screens (login always runs first); `--serve`
// starts Atende and the client and waits (to look at a failure by hand);
// WHATICKET_CLIENT_CACHE moves the cache; WHATICKET_ATENDE_PORT / WHATICKET_CLIENT_PORT
// change the ports (the client is built for one API address: a new port rebuilds it).
// Exit code: 0 when it ran (failed screens are data), 1 when it could not build or start.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const repo = process.env.WHATICKET_REPO ?? '/work/.mirror/winlinux872+Whaticketv.6.6.1/repo';
const cacheDir =
  process.env.WHATICKET_CLIENT_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'atende', 'whaticket-v6-client');
const apiPort = Number(process.env.WHATICKET_ATENDE_PORT ?? 18080);
const clientPort = Number(process.env.WHATICKET_CLIENT_PORT ?? 18081);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const clientUrl = `http://127.0.0.1:${clientPort}`;
const ADMIN = { email: 'admin@admin.com', password: 'Admin123!' };
const docPath = path.join(root, 'docs/whaticket-client.md');
const shotsDir = path.join(root, 'docs/whaticket-client');
const serveOnly = process.argv.includes('--serve');
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const SCREEN_TIMEOUT_MS = 90_000;
const ACTION_TIMEOUT_MS = 10_000;

function fail(message) {
  console.error(`whaticket-client: ${message}`);
  process.exit(1);
}

function run(command, args, options) {
  console.log(`$ ${command} ${args.join(' ')}${options.cwd ? `  (in ${options.cwd})` : ''}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

function readStamp(file) {
  try {
    return JSON.parse(readFileSync(path.join(cacheDir, file), 'utf8'));
  } catch {
    return null;
  }
}

const writeStamp = (file, value) => writeFileSync(path.join(cacheDir, file), JSON.stringify(value));
const sameStamp = (a, b) => a !== null && JSON.stringify(a) === JSON.stringify(b);

/** Exports, installs and builds the v6 client for `apiUrl`, each step only when its stamp is stale. */
function prepareClient() {
  const head = spawnSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  if (head.status !== 0) fail(`no whaticket repository at ${repo} (set WHATICKET_REPO)`);
  const commit = head.stdout.trim();
  const frontend = path.join(cacheDir, 'frontend');
  mkdirSync(cacheDir, { recursive: true });

  if (!sameStamp(readStamp('export.json'), { commit }) || !existsSync(path.join(frontend, 'package.json'))) {
    rmSync(frontend, { recursive: true, force: true });
    rmSync(path.join(cacheDir, 'install.json'), { force: true });
    run('sh', ['-c', `git -C "${repo}" archive ${commit} frontend | tar -x -C "${cacheDir}"`], {});
    // The one change to the client: v6.6.1's routes import `pages/Backups`, which its
    // repository does not contain, so the published source cannot build. An empty page
    // stands in for it (its route, /backups, shows nothing; no screen here uses it).
    const backups = path.join(frontend, 'src/pages/Backups/index.js');
    if (!existsSync(backups)) {
      mkdirSync(path.dirname(backups), { recursive: true });
      writeFileSync(backups, 'const Backups = () => null;\n\nexport default Backups;\n');
    }
    writeStamp('export.json', { commit });
  }
  if (!sameStamp(readStamp('install.json'), { commit }) || !existsSync(path.join(frontend, 'node_modules/.bin/react-scripts'))) {
    // As its lockfile says: with --legacy-peer-deps the peer-installed webpack that
    // react-scripts' plugins load would be missing. No install scripts are run.
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: frontend });
    writeStamp('install.json', { commit });
  }
  const build = { commit, apiUrl };
  if (!sameStamp(readStamp('build.json'), build) || !existsSync(path.join(frontend, 'build/index.html'))) {
    run('npm', ['run', 'build'], {
      cwd: frontend,
      env: {
        ...process.env,
        REACT_APP_BACKEND_URL: apiUrl,
        NODE_OPTIONS: '--openssl-legacy-provider --max-old-space-size=4096',
        // CI=true would make the client's lint warnings errors; its lint is not ours to run.
        CI: 'false',
        DISABLE_ESLINT_PLUGIN: 'true',
        GENERATE_SOURCEMAP: 'false',
      },
    });
    writeStamp('build.json', build);
  }
  return { commit, buildDir: path.join(frontend, 'build') };
}

/** Atende on a fresh embedded database, allowing the client's origin by CORS (as scripts/e2e.mjs starts it). */
async function startAtende() {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html')) || !existsSync(path.join(root, 'apps/server/dist/main.js'))) {
    run('npm', ['run', 'build'], { cwd: root });
  }
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'atende-whaticket-client-')),
      ADMIN_PASSWORD: ADMIN.password,
      // `test` mounts the sandbox phone the customer writes from.
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      WEB_ORIGIN: clientUrl,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  server.on('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 120 && !exited; i++) {
    try {
      if ((await fetch(`${apiUrl}/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill('SIGTERM');
  fail(`Atende did not become healthy on ${apiUrl} (is the port taken? set WHATICKET_ATENDE_PORT)`);
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.mp3': 'audio/mpeg',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/** The built client; any path that is not a file is the app page (the client routes in the browser). */
async function serveClient(buildDir) {
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', clientUrl).pathname);
    let file = path.join(buildDir, path.normalize(pathname));
    if (!file.startsWith(buildDir) || !existsSync(file) || !statSync(file).isFile()) file = path.join(buildDir, 'index.html');
    res.setHeader('content-type', MIME[path.extname(file)] ?? 'application/octet-stream');
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`cannot serve the client on ${clientUrl}: ${error.message}`)));
    server.listen(clientPort, '127.0.0.1', resolve);
  });
  return server;
}

/** A socket.io frame's event name (`42["name",…]`, `42/ns,7["name",…]`), or null for other frames. */
function socketEvent(payload) {
  if (typeof payload !== 'string') return null;
  return /^4[23](?:\/[^,]*,)?\d*\[\s*"([^"]+)"/.exec(payload)?.[1] ?? null;
}

const short = (text, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * What the browser reports while one screen runs, in every page of the context: uncaught
 * page errors, console errors, failed requests (HTTP status >= 400 with the start of the
 * answer, or a network failure) and the socket.io events received and emitted.
 */
class Recorder {
  constructor() {
    this.reset();
  }

  reset() {
    this.pageErrors = [];
    this.consoleErrors = [];
    this.failedRequests = [];
    this.received = new Map();
    this.sent = new Map();
    this.pending = [];
  }

  watch(context) {
    context.on('console', (message) => {
      // A failed load is listed with its status and answer among the failed requests.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) this.consoleErrors.push(short(message.text()));
    });
    context.on('weberror', (error) => this.pageErrors.push(short(error.error().stack?.split('\n').slice(0, 3).join(' | ') ?? error.error().message)));
    context.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? 'failed';
      // A navigation or a superseded image load is aborted by the browser itself.
      if (failure === 'net::ERR_ABORTED') return;
      this.failedRequests.push(`${request.method()} ${this.where(request.url())}: ${failure}`);
    });
    context.on('response', (response) => {
      if (response.status() < 400) return;
      const request = response.request();
      const line = `${request.method()} ${this.where(response.url())} → ${response.status()}`;
      this.pending.push(
        response
          .text()
          .then((body) => this.failedRequests.push(`${line} ${short(body.replace(/\s+/g, ' '), 240)}`))
          .catch(() => this.failedRequests.push(line)),
      );
    });
    const count = (map, name) => name && map.set(name, (map.get(name) ?? 0) + 1);
    context.on('page', (page) => this.watchSockets(page, count));
  }

  watchSockets(page, count) {
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => count(this.received, socketEvent(frame.payload)));
      socket.on('framesent', (frame) => count(this.sent, socketEvent(frame.payload)));
      socket.on('socketerror', (error) => this.failedRequests.push(`websocket ${this.where(socket.url())}: ${error}`));
    });
  }

  /** API calls by path (with `API` in front), the client's own files by path, others whole. */
  where(url) {
    if (url.startsWith(apiUrl)) return `API ${short(url.slice(apiUrl.length), 160)}`;
    if (url.startsWith(clientUrl)) return `client ${short(url.slice(clientUrl.length), 160)}`;
    return short(url, 160);
  }

  async snapshot() {
    await Promise.all(this.pending);
    const events = (map) => [...map].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
    return {
      pageErrors: [...new Set(this.pageErrors)],
      consoleErrors: [...new Set(this.consoleErrors)],
      failedRequests: [...new Set(this.failedRequests)],
      socketReceived: events(this.received),
      socketSent: events(this.sent),
    };
  }
}

/** Atende's API as the script calls it itself (setup the client cannot do: the sandbox phone). */
async function atendeApi(token, method, url, body) {
  const response = await fetch(`${apiUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${short(text, 200)}`);
  return text ? JSON.parse(text) : null;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
    }),
  ]);
}

/** Runs one screen: its steps, then a 1440 px viewport screenshot, whatever happened. */
async function runScreen(screen, env, recorder, index) {
  recorder.reset();
  const steps = [];
  const step = async (text, action) => {
    steps.push(text);
    return action();
  };
  const started = Date.now();
  let error = null;
  try {
    await withTimeout(screen.run({ ...env, step }), SCREEN_TIMEOUT_MS, `screen "${screen.name}"`);
  } catch (caught) {
    error = `${steps.length ? `at "${steps.at(-1)}": ` : ''}${short(String(caught?.message ?? caught).split('\n')[0], 400)}`;
  }
  // Late answers and live events of the screen's last action.
  await env.page.waitForTimeout(1500);
  const file = `${String(index + 1).padStart(2, '0')}-${screen.name}.png`;
  try {
    await (screen.shotPage?.(env) ?? env.page).screenshot({ path: path.join(shotsDir, file), timeout: ACTION_TIMEOUT_MS });
  } catch (caught) {
    error ??= `screenshot: ${caught.message}`;
  }
  const problems = await recorder.snapshot();
  const troubled = problems.pageErrors.length + problems.consoleErrors.length + problems.failedRequests.length > 0;
  const status = error ? 'failed' : troubled ? 'passed with errors' : 'passed';
  console.log(`${status.padEnd(18)} ${screen.title}${error ? `: ${error}` : ''}`);
  return { name: screen.name, title: screen.title, status, error, steps, ms: Date.now() - started, screenshot: file, ...problems };
}

async function main() {
  const { commit, buildDir } = prepareClient();
  const atende = await startAtende();
  const stop = () => atende.kill('SIGTERM');
  process.on('exit', stop);
  const staticServer = await serveClient(buildDir).catch((error) => {
    stop();
    fail(error.message);
  });
  if (serveOnly) {
    // `--serve`: only the two servers, to look at a failure by hand; Ctrl-C ends them.
    console.log(`whaticket v6 client: ${clientUrl} (Atende ${apiUrl}; ${ADMIN.email} / ${ADMIN.password})`);
    process.on('SIGINT', () => process.exit(0));
    process.on('SIGTERM', () => process.exit(0));
    return;
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  const results = [];
  try {
    mkdirSync(shotsDir, { recursive: true });
    const recorder = new Recorder();
    const context = await browser.newContext({ baseURL: clientUrl, viewport: { width: 1440, height: 900 }, timezoneId: 'America/Sao_Paulo', locale: 'pt-BR' });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    recorder.watch(context);
    const page = await context.newPage();
    const token = (await atendeApi(null, 'POST', '/auth/login', ADMIN)).token;
    const env = { browser, context, page, recorder, token, state: {} };
    const chosen = SCREENS.filter((screen) => screen.name === 'login' || !only || only.includes(screen.name));
    for (const screen of chosen) {
      results.push(await runScreen(screen, env, recorder, SCREENS.indexOf(screen)));
    }
    await env.state.signupPage?.context().close();
    await context.close();
  } finally {
    await browser.close();
    staticServer.close();
    stop();
  }
  writeReport(results, commit);
  const failed = results.filter((result) => result.status !== 'passed').length;
  console.log(`whaticket v6 client: ${results.length} screens, ${results.length - failed} passed, ${failed} with errors or failed (docs/whaticket-client.md)`);
}

const RESULTS_START = '<!-- whaticket-client results: written by scripts/whaticket-client.mjs -->';
const RESULTS_END = '<!-- end of whaticket-client results -->';
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The results section of docs/whaticket-client.md; the rest of the file (how to run, causes) is kept. */
function writeReport(results, commit) {
  const icon = { passed: '✅ passed', 'passed with errors': '⚠️ passed with errors', failed: '❌ failed' };
  const lines = [
    RESULTS_START,
    '',
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, whaticket \`${commit.slice(0, 7)}\`, Atende \`${gitHead()}\`. ` +
      `${results.filter((r) => r.status === 'passed').length} of ${results.length} screens passed cleanly.`,
    '',
    '| # | Screen | Result | First problem | Screenshot |',
    '|---|---|---|---|---|',
    ...results.map((r, i) => {
      const first = r.error ?? r.pageErrors[0] ?? r.failedRequests[0] ?? r.consoleErrors[0] ?? '';
      return `| ${i + 1} | ${r.title} | ${icon[r.status]} | ${cell(short(first, 160))} | [${r.screenshot}](whaticket-client/${r.screenshot}) |`;
    }),
    '',
    '### Per screen',
    '',
  ];
  for (const r of results) {
    lines.push(`#### ${r.title}: ${r.status} (${(r.ms / 1000).toFixed(1)} s)`, '');
    lines.push(`Steps: ${r.steps.join(' → ') || '(none)'}.`, '');
    if (r.error) lines.push(`- **Stopped**: ${r.error}`);
    for (const e of r.pageErrors) lines.push(`- page error: \`${e}\``);
    for (const e of r.failedRequests) lines.push(`- failed request: \`${e}\``);
    for (const e of r.consoleErrors) lines.push(`- console error: \`${e}\``);
    lines.push(`- socket events received: ${r.socketReceived.join(', ') || 'none'}; emitted: ${r.socketSent.join(', ') || 'none'}`);
    lines.push('', `![${r.title}](whaticket-client/${r.screenshot})`, '');
  }
  lines.push(RESULTS_END);
  const current = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '# The whaticket v6 web client against Atende\n\n';
  const start = current.indexOf(RESULTS_START);
  const end = current.indexOf(RESULTS_END);
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${lines.join('\n')}${current.slice(end + RESULTS_END.length)}`
      : `${current.trimEnd()}\n\n## Results\n\n${lines.join('\n')}\n`;
  writeFileSync(docPath, next);
}

function gitHead() {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
}

// ---------------------------------------------------------------------------------------
// The screens, in the order a new company would use them. Each creates what it needs
// through the client's own forms; the customer's messages come from Atende's sandbox phone.
// The client speaks Portuguese by default: the texts below are its pt translations.

const CUSTOMER = { name: 'Maria Cliente', number: '5511987650001' };
const stamp = Date.now().toString(36).slice(-5);

/** Opens a screen from the side menu, as a user would; by its address when the menu has no link to it. */
async function openScreen(page, href) {
  const link = page.locator(`a[href="${href}"]`).first();
  if (await link.isVisible().catch(() => false)) await link.click();
  else await page.goto(href);
  await page.waitForURL((url) => url.pathname === href || url.pathname.startsWith(`${href}/`));
  await page.waitForLoadState('networkidle').catch(() => {});
}

const topDialog = (page) => page.locator('[role="dialog"]').last();

/** Fills the named fields of the open dialog (MUI text fields: `input`/`textarea` by name). */
async function fillDialog(page, fields) {
  const dialog = topDialog(page);
  await dialog.waitFor();
  for (const [name, value] of Object.entries(fields)) {
    await dialog.locator(`input[name="${name}"], textarea[name="${name}"]`).first().fill(value);
  }
  return dialog;
}

/** A button by its text (exact, trimmed), the visible one. */
const button = (scope, text) => scope.locator('button').filter({ hasText: new RegExp(`^\\s*${text}\\s*$`, 'i') }).first();

async function expectText(scope, text, timeout = ACTION_TIMEOUT_MS) {
  await scope.getByText(text, { exact: false }).first().waitFor({ timeout });
}

/** A customer message arriving on the sandbox connection, through Atende's ingest. */
async function customerWrites(env, body) {
  await atendeApi(env.token, 'POST', `/sandbox/${env.state.sandboxId}/inbound`, { from: CUSTOMER.number, name: CUSTOMER.name, body });
}

const SCREENS = [
  {
    name: 'login',
    title: 'Login',
    async run({ page, step }) {
      await step('open /login', () => page.goto('/login'));
      await step('fill e-mail and password', async () => {
        await page.locator('#email').fill(ADMIN.email);
        await page.locator('#password').fill(ADMIN.password);
      });
      await step('submit', () => page.locator('button[type="submit"]').click());
      await step('land on /tickets', () => page.waitForURL(/\/tickets/));
      await page.waitForLoadState('networkidle').catch(() => {});
    },
  },
  {
    name: 'dashboard',
    title: 'Dashboard',
    async run({ page, step }) {
      await step('open the dashboard from the menu', () => openScreen(page, '/'));
      await step('wait for its cards', () => page.waitForTimeout(2000));
    },
  },
  {
    name: 'connections',
    title: 'Connections',
    async run({ page, step, token, state }) {
      // The customer's phone: a sandbox connection (the client's form makes WhatsApp ones, paired by QR code).
      await step('create the sandbox connection (API)', async () => {
        state.sandboxId = (await atendeApi(token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox', isDefault: true })).id;
      });
      await step('open Connections', () => openScreen(page, '/connections'));
      await step('see the sandbox connection', () => expectText(page, 'Sandbox'));
      await step('click "Adicionar WhatsApp"', () => button(page, 'Adicionar WhatsApp').click());
      await step('fill the name', () => fillDialog(page, { name: `WhatsApp ${stamp}` }));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see the new connection listed', () => expectText(page, `WhatsApp ${stamp}`));
    },
  },
  {
    name: 'queues',
    title: 'Queues',
    async run({ page, step, state }) {
      await step('open Queues', () => openScreen(page, '/queues'));
      await step('click "Adicionar fila"', () => button(page, 'Adicionar fila').click());
      state.queue = `Suporte ${stamp}`;
      await step('fill the name', () => fillDialog(page, { name: state.queue }));
      await step('pick a colour', async () => {
        await topDialog(page).locator('input[name="color"]').click();
        await page.locator('[title="#1273DE"]').first().click();
      });
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see the queue listed', () => expectText(page.locator('table'), state.queue));
    },
  },
  {
    name: 'users',
    title: 'Users',
    async run({ page, step, state }) {
      await step('open Users', () => openScreen(page, '/users'));
      await step('click "Adicionar usuário"', () => button(page, 'Adicionar usuário').click());
      state.agent = { name: `Agente ${stamp}`, email: `agente-${stamp}@example.com`, password: 'Agente123' };
      await step('fill name, e-mail and password', () => fillDialog(page, state.agent));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see the user listed', () => expectText(page.locator('table'), state.agent.email));
    },
  },
  {
    name: 'tags',
    title: 'Tags',
    async run({ page, step }) {
      await step('open Tags', () => openScreen(page, '/tags'));
      await step('click "Nova Tag"', () => button(page, 'Nova Tag').click());
      await step('fill the name', () => fillDialog(page, { name: `VIP ${stamp}` }));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see the tag listed', () => expectText(page.locator('table'), `VIP ${stamp}`));
    },
  },
  {
    name: 'quick-messages',
    title: 'Quick messages',
    async run({ page, step }) {
      await step('open Quick messages', () => openScreen(page, '/quick-messages'));
      await step('click "Adicionar"', () => button(page, 'Adicionar').click());
      await step('fill shortcode and answer', () => fillDialog(page, { shortcode: `ola${stamp}`, message: 'Olá! Como posso ajudar?' }));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see it listed', () => expectText(page.locator('table'), `ola${stamp}`));
    },
  },
  {
    name: 'contacts',
    title: 'Contacts',
    async run({ page, step }) {
      await step('open Contacts', () => openScreen(page, '/contacts'));
      await step('click "Adicionar Contato"', () => button(page, 'Adicionar Contato').click());
      await step('fill name and number', () => fillDialog(page, { name: `João ${stamp}`, number: '5511912340002' }));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see the contact listed', () => expectText(page.locator('table'), `João ${stamp}`));
    },
  },
  {
    name: 'tickets',
    title: 'Tickets (accept, reply, transfer, resolve)',
    async run(env) {
      const { page, step, state } = env;
      await step('open Tickets', () => openScreen(page, '/tickets'));
      await step('open the "Aguardando" tab', () => page.getByRole('tab', { name: /Aguardando/ }).click());
      await step('a customer writes (sandbox phone)', () => customerWrites(env, 'Olá, preciso de ajuda com meu pedido'));
      const row = page.locator('li, [role="button"]').filter({ hasText: CUSTOMER.name }).first();
      await step('the ticket appears live in "Aguardando"', () => row.waitFor({ timeout: 15_000 }));
      await step('accept it (✓ "Aceitar")', () => row.locator('[title="Aceitar"], [aria-label="Aceitar"]').first().click());
      await step('the conversation opens', () => page.waitForURL(/\/tickets\/[0-9a-f-]{8,}/));
      await step('the customer message is shown', () => expectText(page, 'preciso de ajuda'));
      await step('reply from the composer', async () => {
        const input = page.getByPlaceholder(/Digite uma mensagem/);
        await input.fill('Olá Maria, vou verificar agora.');
        await input.press('Enter');
      });
      await step('the reply is shown', () => expectText(page, 'vou verificar agora'));
      await step('the customer answers live', () => customerWrites(env, 'Obrigada!'));
      await step('the answer appears live', () => expectText(page, 'Obrigada!', 15_000));
      await step('open the ticket menu ⋮ → "Transferir"', async () => {
        await page.locator('[data-testid="MoreVertIcon"], svg').filter({ has: page.locator('path') }).first().waitFor();
        await page.locator('button:has(svg[data-testid="MoreVertIcon"]), button:has(.MuiSvgIcon-root)').filter({ hasNotText: /./ }).last().click();
        await page.getByRole('menuitem', { name: 'Transferir' }).click();
      });
      await step(`transfer to queue "${state.queue}"`, async () => {
        const dialog = topDialog(page);
        await dialog.locator('[role="button"]').first().click();
        await page.getByRole('option', { name: state.queue }).click();
        await dialog.locator('button[type="submit"]').click();
      });
      await step('resolve ("Resolver")', async () => {
        await page.locator('[title="Resolver"], [aria-label="Resolver"]').first().click();
      });
      await step('the ticket leaves the open list', () => page.waitForTimeout(2000));
    },
  },
  {
    name: 'kanban',
    title: 'Kanban',
    async run({ page, step }) {
      await step('open Kanban', () => openScreen(page, '/kanban'));
      await step('see the "Em Aberto" lane', () => expectText(page, 'Em Aberto'));
    },
  },
  {
    name: 'contact-lists',
    title: 'Contact lists',
    async run({ page, step, state }) {
      await step('open Contact lists', () => openScreen(page, '/contact-lists'));
      await step('click "Nova Lista"', () => button(page, 'Nova Lista').click());
      state.contactList = `Clientes ${stamp}`;
      await step('fill the name', () => fillDialog(page, { name: state.contactList }));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      const row = page.locator('tr').filter({ hasText: state.contactList });
      await step('see the list', () => row.waitFor());
      await step("open the list's contacts", () => row.locator('button').first().click());
      await step('reach /contact-lists/:id/contacts', () => page.waitForURL(/\/contact-lists\/\d+\/contacts/));
      await step('click "Adicionar Contato"', () => button(page, 'Adicionar Contato').click());
      await step('fill name and number', () => fillDialog(page, { name: `Ana ${stamp}`, number: '5511912340003' }));
      await step('submit', () => topDialog(page).locator('button[type="submit"]').click());
      await step('see the contact in the list', () => expectText(page.locator('table'), `Ana ${stamp}`));
    },
  },
  {
    name: 'campaigns',
    title: 'Campaigns (create)',
    async run({ page, step, state }) {
      await step('open Campaigns', () => openScreen(page, '/campaigns'));
      await step('click "Nova Campanha"', () => button(page, 'Nova Campanha').click());
      const dialog = topDialog(page);
      await step('fill the name', () => fillDialog(page, { name: `Promoção ${stamp}` }));
      await step('choose the contact list', async () => {
        await dialog.locator('#mui-component-select-contactListId, #contactListId').first().click();
        await page.getByRole('option', { name: state.contactList ?? /Clientes/ }).click();
      });
      await step('choose the connection', async () => {
        await dialog.locator('#mui-component-select-whatsappId, #whatsappId').first().click();
        await page.getByRole('option', { name: 'Sandbox' }).click();
      });
      await step('fill message 1', () => dialog.locator('textarea[name="message1"]').fill('Olá {nome}, temos uma promoção para você!'));
      await step('submit ("Adicionar")', () => button(dialog, 'Adicionar').click());
      await step('see the campaign listed', () => expectText(page.locator('table'), `Promoção ${stamp}`));
    },
  },
  {
    name: 'schedules',
    title: 'Schedules',
    async run({ page, step }) {
      await step('open Schedules', () => openScreen(page, '/schedules'));
      await step('click "Novo Agendamento"', () => button(page, 'Novo Agendamento').click());
      const dialog = topDialog(page);
      await step('choose the contact', async () => {
        await dialog.getByPlaceholder('Contato').fill(CUSTOMER.name.slice(0, 5));
        await page.getByRole('option', { name: CUSTOMER.name }).click();
      });
      await step('fill the message', () => dialog.locator('textarea[name="body"]').fill('Lembrete: sua consulta é amanhã.'));
      await step('set the date', () => dialog.locator('input[name="sendAt"]').fill(tomorrowLocal()));
      await step('submit ("Adicionar")', () => dialog.locator('button[type="submit"]').click());
      await step('the dialog closes', () => dialog.waitFor({ state: 'detached' }));
    },
  },
  {
    name: 'internal-chat',
    title: 'Internal chat',
    async run({ page, step, state }) {
      await step('open Chats', () => openScreen(page, '/chats'));
      await step('click "Novo"', () => button(page, 'Novo').click());
      const dialog = topDialog(page);
      await step('fill the title', () => dialog.getByPlaceholder('Título').fill(`Equipe ${stamp}`));
      await step('add the agent', async () => {
        await dialog.getByPlaceholder('Filtro por Users').fill(state.agent?.name.slice(0, 6) ?? 'Agente');
        await page.getByRole('option').filter({ hasText: /Agente/ }).first().click();
      });
      await step('save', () => button(dialog, 'Salvar').click());
      await step('the chat opens', () => page.waitForURL(/\/chats\/[0-9a-f-]{8,}/));
      await step('write a message', async () => {
        const input = page.locator('textarea').last();
        await input.fill('Bom dia, equipe!');
        await input.press('Enter');
      });
      await step('the message is shown', () => expectText(page, 'Bom dia, equipe!'));
    },
  },
  {
    name: 'settings',
    title: 'Settings',
    async run({ page, step }) {
      await step('open Settings', () => openScreen(page, '/settings'));
      await step('open the "Avaliações" select', () => page.locator('[aria-labelledby~="ratings-label"]').first().click());
      await step('choose "Habilitadas"', () => page.getByRole('option', { name: 'Habilitadas' }).click());
      await step('the change is saved', () => page.waitForTimeout(1500));
    },
  },
  {
    name: 'signup',
    title: 'Sign-up',
    shotPage: (env) => env.state.signupPage,
    async run({ browser, recorder, step, state }) {
      // Signed out: a browser of its own.
      const context = await browser.newContext({ baseURL: clientUrl, viewport: { width: 1440, height: 900 }, locale: 'pt-BR' });
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      recorder.watch(context);
      const page = await context.newPage();
      state.signupPage = page;
      await step('open /signup', () => page.goto('/signup'));
      await step('choose a plan ("Selecionar")', () => button(page, 'Selecionar').click());
      await step('fill company, e-mail, phone and password', async () => {
        await page.locator('input[name="name"]').fill(`Loja ${stamp}`);
        await page.locator('input[name="email"]').fill(`dono-${stamp}@example.com`);
        await page.locator('input[type="tel"], input[name="phone"]').first().fill('11987650009');
        await page.locator('input[name="password"]').fill('Senha1234');
      });
      await step('submit', () => page.locator('button[type="submit"]').click());
      await step('back on /login', () => page.waitForURL(/\/login/, { timeout: 15_000 }));
    },
  },
];

/** Tomorrow at 10:00 in the browser's zone, as a datetime-local input takes it. */
function tomorrowLocal() {
  const day = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
  return `${day}T10:00`;
}

await main();

