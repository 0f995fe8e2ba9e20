import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Real processes for the fault suite: a private PostgreSQL cluster, a private
 * Redis and the server itself, each on a free port of its own so a test can
 * kill or restart them without touching the shared 5432/6379 services.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(everyMs);
  }
}

function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('no PostgreSQL under /usr/lib/postgresql');
  return path.join(root, versions[0], 'bin', name);
}

/** initdb refuses to run as root: as root the cluster belongs to the postgres user. */
function asPostgres(command: string, args: string[]): { command: string; args: string[] } {
  return process.getuid?.() === 0 ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { command, args };
}

function run(command: string, args: string[]): void {
  const wrapped = asPostgres(command, args);
  const result = spawnSync(wrapped.command, wrapped.args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

/** Where a private cluster lives; the suite's global setup makes one and hands this to every file. */
export interface PostgresCluster {
  dir: string;
  port: number;
}

export interface PrivatePostgres {
  /** A database of this test file's own in the suite's cluster. */
  url: string;
  port: number;
  start(): Promise<void>;
  /** `fast` ends every session (what a restart does); `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
}

const dataDir = (cluster: PostgresCluster) => path.join(cluster.dir, 'data');
const startOptions = (cluster: PostgresCluster) =>
  `-p ${cluster.port} -k ${cluster.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;

function startCluster(cluster: PostgresCluster): void {
  run(postgresBin('pg_ctl'), ['-D', dataDir(cluster), '-o', startOptions(cluster), '-l', path.join(cluster.dir, 'log'), '-w', 'start']);
}

function stopCluster(cluster: PostgresCluster, mode: 'fast' | 'immediate' = 'fast'): void {
  run(postgresBin('pg_ctl'), ['-D', dataDir(cluster), '-m', mode, '-w', 'stop']);
}

/** initdb into a temporary directory and start it on a free port (as the postgres user when run as root). */
export async function createCluster(): Promise<PostgresCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-fault-pg-'));
  if (process.getuid?.() === 0) {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(uid.stdout.trim()), Number(gid.stdout.trim()));
  }
  const cluster = { dir, port: await freePort() };
  run(postgresBin('initdb'), ['-D', dataDir(cluster), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  startCluster(cluster);
  return cluster;
}

export function removeCluster(cluster: PostgresCluster): void {
  try {
    stopCluster(cluster, 'immediate');
  } catch {
    // already stopped
  }
  rmSync(cluster.dir, { recursive: true, force: true });
}

/** A fresh database in the suite's cluster, with the cluster's stop and start (files run one at a time). */
export async function privatePostgres(cluster: PostgresCluster): Promise<PrivatePostgres> {
  const name = `fault_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${cluster.port}/postgres` });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres@127.0.0.1:${cluster.port}/${name}`,
    port: cluster.port,
    start: async () => startCluster(cluster),
    stop: (mode) => stopCluster(cluster, mode),
  };
}

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      child = started;
      await waitFor('redis to listen', async () => {
        const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
        return ping.stdout.trim() === 'PONG';
      });
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      child = null;
    },
    close: () => redis.stop(),
  };
  await redis.start();
  return redis;
}

export interface ServerProcess {
  url: string;
  port: number;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
  /** Exit code or signal, once it ended. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Secrets and the first admin shared by every start of one test's server. */
export function serverSecrets(): Record<string, string> {
  return {
    JWT_SECRET: randomBytes(32).toString('hex'),
    JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: 'faults@atende.test',
    ADMIN_PASSWORD: 'fault-suite-password',
  };
}

/** The suite's bundle: a folder of its own, since CI runs the suite beside the browser tests, whose server runs dist/main.js. */
const BUNDLE_DIR = 'dist-faults';

/** Bundles the server as `npm run build` does (the suite runs what production runs), into BUNDLE_DIR. */
export function buildServer(): void {
  const result = spawnSync(process.execPath, ['build.mjs', '--outdir', BUNDLE_DIR], { cwd: SERVER_DIR, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`server build failed: ${result.stderr || result.stdout}`);
}

/** The built server (see buildServer) as production runs it, answering /health; `args` such as `--services=api`. */
export async function startServer(env: Record<string, string>, port?: number, args: string[] = []): Promise<ServerProcess> {
  if (!env.DATABASE_URL) throw new Error('the fault suite runs the server on PostgreSQL: DATABASE_URL is required');
  const chosen = port ?? (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-fault-data-'));
  const child = spawn(process.execPath, ['--enable-source-maps', `${BUNDLE_DIR}/main.js`, ...args], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(chosen),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_LIMIT_PER_IP: '1000',
      LOGIN_LIMIT_PER_EMAIL: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void exit.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${chosen}`;
  const server: ServerProcess = {
    url,
    port: chosen,
    output: () => output,
    exited: () => exit,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal) {
      if (!server.alive()) return;
      child.kill(signal);
      await exit;
    },
  };
  try {
    await waitFor(
      'the server to answer /health',
      async () => {
        if (!server.alive()) throw new Error(`server exited: ${output}`);
        const response = await fetch(`${url}/health`);
        return response.status === 200;
      },
      60_000,
      200,
    );
  } catch (error) {
    await server.kill('SIGKILL');
    throw error;
  }
  return server;
}

/** Logs in (the seeded admin of the first company); the access token and the user's company. */
export async function signIn(server: Pick<ServerProcess, 'url'>, email: string, password: string): Promise<{ token: string; companyId: number }> {
  const response = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { token: string; user: { companyId: number } };
  return { token: body.token, companyId: body.user.companyId };
}

export async function login(server: Pick<ServerProcess, 'url'>, email: string, password: string): Promise<string> {
  return (await signIn(server, email, password)).token;
}

export async function api(server: Pick<ServerProcess, 'url'>, token: string, method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** One statement on a private database, on a connection of its own (the server under test may be down). */
export async function queryDatabase<Row>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}
