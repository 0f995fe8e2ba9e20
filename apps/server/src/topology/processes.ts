import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The processes of the production topology (docs/deploy.md) as the test runs them:
 * the built server in NODE_ENV=production, one node per `--services=` role, on a
 * PostgreSQL database of the test's own; a throw-away TLS certificate for nginx.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROOT = path.resolve(SERVER_DIR, '../..');

/** The test's own bundle (the browser tests run dist/main.js, the fault suite dist-faults). */
const BUNDLE_DIR = 'dist-topology';

/** Bundles the server as `npm run build` does, and builds the web app the nodes serve when it is missing (as `npm run test:e2e` does). */
export function buildServerAndWeb(): void {
  const server = spawnSync(process.execPath, ['build.mjs', '--outdir', BUNDLE_DIR], { cwd: SERVER_DIR, encoding: 'utf8' });
  if (server.status !== 0) throw new Error(`server build failed: ${server.stderr || server.stdout}`);
  if (existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) return;
  const web = spawnSync('npm', ['run', 'build', '-w', '@atende/web'], { cwd: ROOT, encoding: 'utf8' });
  if (web.status !== 0) throw new Error(`web build failed: ${web.stderr || web.stdout}`);
}

export interface TopologyNode {
  /** `api`, `worker,channels`, ... */
  services: string;
  /** The port it listens on (api nodes). */
  port: number;
  pid: number;
  output(): string;
  alive(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `node dist-topology/main.js --services=<services>` (only what `env` gives, as
 * systemd's EnvironmentFile would); settles once it printed that it is running.
 */
export async function startNode(services: string, env: Record<string, string>, port: number): Promise<TopologyNode> {
  const child = spawn(process.execPath, ['--enable-source-maps', `${BUNDLE_DIR}/main.js`, `--services=${services}`], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const node: TopologyNode = {
    services,
    port,
    pid: child.pid ?? 0,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal) {
      if (!node.alive()) return;
      child.kill(signal);
      await exit;
    },
  };
  await new Promise<void>((resolve, reject) => {
    const late = setTimeout(() => reject(new Error(`--services=${services} did not start within 90 s:\n${output}`)), 90_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('Atende is running')) {
        clearTimeout(late);
        resolve();
      }
    });
    void exit.then(() => {
      clearTimeout(late);
      reject(new Error(`--services=${services} exited before starting:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await node.kill('SIGKILL');
    throw error;
  });
  return node;
}

/** Secrets and the first admin, shared by every node (one EnvironmentFile). */
export function nodeSecrets(admin: { email: string; password: string }): Record<string, string> {
  return {
    JWT_SECRET: randomBytes(32).toString('hex'),
    JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  };
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the shared PostgreSQL (127.0.0.1:5432, or TEST_PG_URL's server); the nodes migrate it. */
export async function createDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `atende_topology_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export interface Certificate {
  dir: string;
  certificate: string;
  key: string;
  /** The certificate (PEM), for clients to trust. */
  pem: string;
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day. */
export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-tls-'));
  const certificate = path.join(dir, 'fullchain.pem');
  const key = path.join(dir, 'privkey.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', certificate],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { dir, certificate, key, pem: readFileSync(certificate, 'utf8'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Connections open to a node's port right now (ESTABLISHED on 127.0.0.1:port, as
 * /proc/net/tcp lists them). The nginx site keeps no idle connection to the nodes, so
 * these are its sockets and the requests in flight there: which node holds a socket.
 */
export function openConnectionsTo(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const [, address, , state] = line.trim().split(/\s+/);
      return address === local && state === '01';
    }).length;
}
