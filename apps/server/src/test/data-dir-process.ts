import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The real server process from its sources (`node --import tsx src/main.ts`) on a
 * DATA_DIR the test chooses (several processes on one folder, a folder on a full disk),
 * on the embedded database unless `env` says otherwise, including starts that fail.
 */

const SERVER_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN_SCRIPT = path.join(SERVER_SRC, 'main.ts');
export const MIGRATE_SCRIPT = path.join(SERVER_SRC, 'cli', 'migrate.ts');

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Settles with the exit code (null after a signal) once it ended. */
  exited: Promise<number | null>;
}

export interface RunningServer extends ServerProcess {
  url: string;
}

function serverEnv(dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...env,
  };
}

/** Spawns a script (the server by default) and collects what it prints; does not wait for anything. */
export function spawnServer(dataDir: string, env: Record<string, string> = {}, script = MAIN_SCRIPT): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: serverEnv(dataDir, env), stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => (output += `${line}\n`));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits for the start banner's address; rejects with the output when the process ends first. */
function whenServing(server: ServerProcess): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.child.stdout });
    lines.on('line', (line) => {
      const match = /Atende is running: (http:\/\/\S+)/.exec(line);
      if (match?.[1]) resolve({ ...server, url: match[1] });
    });
    void server.exited.then((code) => reject(new Error(`server exited with ${code} before serving:\n${server.output()}`)));
  });
}

export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return whenServing(spawnServer(dataDir, env));
}

export async function login(url: string, credentials: { email: string; password: string }): Promise<{ status: number; token?: string }> {
  const response = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const body = (await response.json()) as { token?: string };
  return { status: response.status, token: body.token };
}

/** A signed-in server process's address and token, for `call`. */
export interface Api {
  url: string;
  token: string;
}

export async function call(api: Api, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const multipart = body instanceof FormData;
  const response = await fetch(`${api.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body && !multipart ? { 'content-type': 'application/json' } : {}) },
    body: multipart ? body : body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
