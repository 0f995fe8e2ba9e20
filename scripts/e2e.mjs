// `npm run test:e2e`: builds what is missing, starts the real server on a free
// port with a fresh embedded database, and runs the Playwright browser tests.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(import.meta.dirname, '..');
// `npm run screenshots` (`--screenshots`): only the test that takes the README's
// screenshots (tickets, conversation, users, tags, kanban, notifications, schedules, campaigns, dashboard, internal chat, announcements, sign-up, password reset, invoices, Pix checkout, API keys, webhooks, queue auto-assignment, SLA marks, two-factor set-up and login, audit log, push settings, a page that could not load), writing them to docs/screenshots instead of e2e/artifacts.
const screenshots = process.argv.includes('--screenshots');
const playwrightArgs = screenshots
  ? ['service-desk.spec.ts', 'kanban.spec.ts', 'users.spec.ts', 'notifications.spec.ts', 'schedules.spec.ts', 'campaigns.spec.ts', 'dashboard.spec.ts', 'chats.spec.ts', 'billing.spec.ts', 'api-keys.spec.ts', 'webhooks.spec.ts', 'auto-assign.spec.ts', 'sla.spec.ts', 'two-factor.spec.ts', 'audit-log.spec.ts', 'push.spec.ts', 'shell.spec.ts', '-g', 'reaches an agent live|a card moved in one browser|users:|a new pending ticket shows live|schedules:|campaigns:|dashboard:|chats:|announcements:|billing:|api keys:|webhooks:|auto-assign:|sla:|two-factor sign-in:|audit log:|push:|cannot be downloaded']
  : process.argv.slice(2);
if (!existsSync(path.join(root, 'apps/web/dist/index.html')) || !existsSync(path.join(root, 'apps/server/dist/main.js'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// A real SMTP server for the product's e-mails (sign-up, password reset codes); the
// browser tests read what it received from a small mailbox endpoint.
const mailbox = await startMailbox();
const port = String(20_000 + Math.floor(Math.random() * 20_000));
// A second origin the server allows by CORS (WEB_ORIGIN): e2e/cors.spec.ts serves a page
// there and calls the API from it, as a web client served elsewhere would.
const allowedOrigin = `http://127.0.0.1:${await freePort()}`;
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-e2e-')),
    ADMIN_PASSWORD: 'Admin123!',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    // Every browser test logs in; the login limiter (tested on the server) would refuse a whole suite.
    LOGIN_LIMIT_PER_IP: '10000',
    LOGIN_LIMIT_PER_EMAIL: '10000',
    SMTP_URL: mailbox.smtpUrl,
    MAIL_FROM: 'Atende <no-reply@atende.test>',
    // The billing test pays with the test PSP, which runs only when named (never by default).
    PIX_PROVIDER: 'fake',
    // Asaas (chosen when a test puts an API key in the platform setting `asaas`): the fake Asaas this server mounts.
    ASAAS_BASE_URL: `http://127.0.0.1:${port}/fake-asaas/v3`,
    WEB_ORIGIN: allowedOrigin,
    // e2e/webhooks.spec.ts subscribes a receiver it runs on loopback: allowed as an operator
    // allows a service on the same host (tenant URLs may not reach internal addresses otherwise).
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const baseUrl = `http://127.0.0.1:${port}`;

/** Up to three minutes: a loaded CI host has taken over one to start the server on a fresh embedded database. */
async function waitForHealth() {
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('server did not become healthy');
}

let code = 1;
try {
  await waitForHealth();
  // Not spawnSync: this process serves the mailbox while the browser tests run.
  const run = spawn('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...playwrightArgs], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      E2E_BASE_URL: baseUrl,
      E2E_ADMIN_PASSWORD: 'Admin123!',
      E2E_MAILBOX_URL: mailbox.url,
      E2E_ALLOWED_ORIGIN: allowedOrigin,
      ...(screenshots ? { E2E_SCREENSHOTS_DIR: path.join(root, 'docs/screenshots') } : {}),
    },
  });
  code = await new Promise((resolve) => run.on('close', (status) => resolve(status ?? 1)));
} finally {
  server.kill('SIGTERM');
  await mailbox.close();
}
process.exit(code);

/** A port free on loopback now (the server is told it before anything listens there). */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

/** SMTP on loopback keeping every mail; `GET /mails?to=<address>` answers them as JSON (latest last). */
async function startMailbox() {
  const mails = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), subject: /^Subject: (.*)$/im.exec(raw)?.[1] ?? '', raw });
        callback();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const http = createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://mailbox').searchParams.get('to')?.toLowerCase() ?? '';
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(mails.filter((mail) => !to || mail.to.includes(to))));
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp.server.address().port}`,
    url: `http://127.0.0.1:${http.address().port}`,
    close: () => Promise.all([new Promise((resolve) => smtp.close(resolve)), new Promise((resolve) => http.close(resolve))]),
  };
}
