import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, send } from './test/loopback-http.js';
import { NGINX, nginxPresent, startNginx, type Nginx } from './test/nginx.js';
import { codeOf, startTestSmtpServer, type TestSmtpServer } from './test/smtp.js';

/**
 * Issue 28 item 1: behind a real reverse proxy (Debian's nginx, started here as this
 * test's own instance), the address nginx appends to X-Forwarded-For is the client's,
 * a client's own header is not, and without TRUST_PROXY nobody's header counts, in
 * production too. Two real server processes (NODE_ENV=production, embedded database):
 * one with TRUST_PROXY naming nginx, one without it.
 *
 * Loopback addresses tell the parties apart (Linux routes all of 127.0.0.0/8 to lo):
 * clients bind 127.0.0.2, 127.0.0.4, ...; nginx connects upstream from 127.0.0.3.
 */
const PROXY_ADDRESS = '127.0.0.3';
const ADMIN = { email: 'proxy-admin@example.com', password: 'ProxyAdmin123!' };
/** Lowered so each rule shows in a few requests. */
const LIMITS = {
  LOGIN_LIMIT_PER_IP: '5',
  LOGIN_LIMIT_PER_EMAIL: '5',
  // The account lock-out is another test's subject (modules/auth/login-limits.test.ts).
  LOGIN_LOCKOUT_AFTER: '1000',
  PASSWORD_RESET_LIMIT_PER_IP: '100',
  PASSWORD_RESET_CODES_PER_ACCOUNT: '3',
  PASSWORD_RESET_TRIES_PER_ACCOUNT: '4',
};

const here = path.dirname(fileURLToPath(import.meta.url));
const mainScript = path.resolve(here, 'main.ts');

const started: { child: ChildProcess; dir: string }[] = [];
let nginx: Nginx | undefined;

/** The real process, as `npm start` runs it in production (secrets given, embedded database). */
async function startServer(env: Record<string, string>): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-proxy-'));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', mainScript], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'proxy-test-access-secret-0123456789abcdefghij',
      JWT_REFRESH_SECRET: 'proxy-test-refresh-secret-0123456789abcdefgh',
      ENCRYPTION_KEY: 'proxy-test-encryption-key-0123456789abcdefgh',
      DATA_DIR: dir,
      DATABASE_URL: '',
      REDIS_URL: '',
      TRUST_PROXY: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...LIMITS,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.push({ child, dir });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  return new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      output += `${line}\n`;
      const match = /Atende is running: http:\/\/[^:]+:(\d+)/.exec(line);
      if (match?.[1]) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before starting:\n${output}`)));
  });
}

/** nginx in front of each server, connecting to it from PROXY_ADDRESS. */
function proxyTo(routes: { listen: number; upstream: number }[]): Promise<Nginx> {
  const servers = routes.map(
    ({ listen, upstream }) => `
    server {
      listen 127.0.0.1:${listen};
      location / {
        proxy_pass http://127.0.0.1:${upstream};
        proxy_bind ${PROXY_ADDRESS};
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      }
    }`,
  );
  return startNginx(servers.join('\n'), routes.map(({ listen }) => listen));
}

let spoofed = 0;
/** A new made-up address for every request, as an attacker rotating its header would send. */
const spoof = () => ({ 'x-forwarded-for': `198.51.100.${++spoofed % 250}` });

let proxied = 0; // nginx in front of the server with TRUST_PROXY=127.0.0.3
let direct = 0; // that server itself
let proxiedUntrusting = 0; // nginx in front of the server without TRUST_PROXY
let directUntrusting = 0;
let smtp: TestSmtpServer;

const login = (port: number, from: string, email: string, password = 'Wrong-password-1', headers: Record<string, string> = spoof()) =>
  send({ port, method: 'POST', path: '/auth/login', from, body: { email, password }, headers });
/** Failed logins of made-up accounts: only the per-address limit can refuse them. */
async function failures(port: number, from: string, count: number, headers?: () => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await login(port, from, `nobody-${from}-${port}-${i}@example.com`, 'x', headers?.() ?? spoof())).status);
  return statuses;
}

// CI sets CI=true: there a missing nginx fails the suite instead of skipping it.
describe.skipIf(!nginxPresent && !process.env.CI)('behind a real nginx (TRUST_PROXY)', () => {
  beforeAll(async () => {
    if (!nginxPresent) throw new Error(`${NGINX} is missing: apt-get install -y nginx (CI installs it in .ci/run)`);
    smtp = await startTestSmtpServer();
    [direct, directUntrusting] = await Promise.all([startServer({ TRUST_PROXY: PROXY_ADDRESS, SMTP_URL: smtp.url }), startServer({})]);
    [proxied, proxiedUntrusting] = await Promise.all([freePort(), freePort()]);
    nginx = await proxyTo([
      { listen: proxied, upstream: direct },
      { listen: proxiedUntrusting, upstream: directUntrusting },
    ]);
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    for (const { child } of started) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    for (const { dir } of started) rmSync(dir, { recursive: true, force: true });
    await smtp?.close();
  });

  it('(a) limits a client through nginx by the address nginx appended, whatever header it sends', async () => {
    // A new forged X-Forwarded-For on every attempt: nginx keeps it and appends 127.0.0.2.
    expect(await failures(proxied, '127.0.0.2', 6)).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await login(proxied, '127.0.0.2', ADMIN.email, ADMIN.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('(b) counts two clients through nginx apart', async () => {
    // 127.0.0.2 is over its limit since (a); 127.0.0.4 has its own count.
    expect(await failures(proxied, '127.0.0.4', 6)).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(proxied, '127.0.0.6', ADMIN.email, ADMIN.password)).status).toBe(200);
    expect((await login(proxied, '127.0.0.2', ADMIN.email, ADMIN.password)).status).toBe(429);
  });

  it('(c) counts a client that reaches the server directly by its socket address, ignoring its header', async () => {
    // 127.0.0.2 is the same client as through nginx: still over its limit.
    expect((await login(direct, '127.0.0.2', ADMIN.email, ADMIN.password, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
    // A new client forging a header, even naming nginx's address or a fresh one each time.
    expect(await failures(direct, '127.0.0.5', 6, () => ({ 'x-forwarded-for': `${spoof()['x-forwarded-for']}, ${PROXY_ADDRESS}` }))).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('(d) believes nobody\'s header in production when TRUST_PROXY is unset', async () => {
    // Through nginx every client is nginx: 127.0.0.2 and 127.0.0.4 share one count.
    expect(await failures(proxiedUntrusting, '127.0.0.2', 3)).toEqual([401, 401, 401]);
    expect(await failures(proxiedUntrusting, '127.0.0.4', 3)).toEqual([401, 401, 429]);
    // Directly, a forged header changes nothing either.
    expect(await failures(directUntrusting, '127.0.0.5', 6)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  describe('(e) password reset codes per account, whatever the address', () => {
    const email = ADMIN.email;
    const forget = (from: string) => send({ port: proxied, method: 'POST', path: `/forgetpassword/${encodeURIComponent(email)}`, from, headers: spoof() });
    const reset = (from: string, token: string, newPassword = 'NewProxy123!') =>
      send({ port: proxied, method: 'POST', path: '/auth/reset-password', from, body: { email, token, newPassword }, headers: spoof() });
    const codes: string[] = [];
    const newCode = async (from: string) => {
      const mail = smtp.nextMailTo(email);
      expect((await forget(from)).status).toBe(200);
      codes.push(codeOf(await mail));
    };

    it('ends the outstanding code when the owner signs in', async () => {
      await newCode('127.0.1.1');
      expect((await login(proxied, '127.0.0.7', email, ADMIN.password)).status).toBe(200);
      const answer = await reset('127.0.1.9', codes[0] ?? '');
      expect(answer).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_RESET_CODE' } });
    });

    it('issues at most PASSWORD_RESET_CODES_PER_ACCOUNT codes an hour, from any number of addresses', async () => {
      // The code above was the first of 3.
      await newCode('127.0.1.2');
      await newCode('127.0.1.3');
      expect((await forget('127.0.1.4')).status).toBe(429);
      expect((await forget('127.0.1.5')).status).toBe(429);
    });

    it('allows PASSWORD_RESET_TRIES_PER_ACCOUNT tries an hour across its codes, from any number of addresses', async () => {
      // The try above was the first of 4; three wrong ones from new addresses...
      for (let i = 0; i < 3; i++) expect((await reset(`127.0.2.${i + 1}`, '000001')).status).toBe(401);
      // ...and the account is refused, whatever the address, even with its valid code.
      expect((await reset('127.0.2.9', codes.at(-1) ?? '')).status).toBe(429);
      expect((await login(proxied, '127.0.0.8', email, ADMIN.password)).status).toBe(200);
    });
  });
});
