import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 16 defect 11: with browsers connected, SIGTERM must end the process
 * within a bound (sockets closed, HTTP drained, jobs handed back), whatever the
 * clients do. A real server process, real sockets that reconnect like a browser.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const mainScript = path.resolve(here, 'main.ts');
const ADMIN = { email: 'shutdown@example.com', password: 'Shutdown123!' };
/** The rule's bound; the process's own limit is the same 10 s, so a clean stop is well under it. */
const EXIT_BOUND_MS = 10_000;

interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output(): string;
}

async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-shutdown-')),
      // The embedded database: the test needs no PostgreSQL of its own.
      DATABASE_URL: '',
      REDIS_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      output += `${line}\n`;
      const match = /Atende is running: (http:\/\/\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before starting:\n${output}`)));
  });
  return { child, url, output: () => output };
}

let server: Server | null = null;
const sockets: Socket[] = [];

afterAll(() => {
  for (const socket of sockets) socket.close();
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
});

describe('graceful shutdown of the real process', () => {
  it('exits on SIGTERM within the bound while browsers are connected and keep reconnecting', async () => {
    server = await startServer();
    const { url } = server;
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };

    // Like browser tabs: reconnect at once when the server drops them.
    const disconnected: Promise<string>[] = [];
    for (let i = 0; i < 4; i++) {
      const socket = io(url, { transports: ['websocket'], query: { token }, reconnectionDelay: 10, reconnectionDelayMax: 50 });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('ready', () => resolve());
        socket.once('connect_error', reject);
      });
      disconnected.push(new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason))));
    }
    // A keep-alive HTTP connection left idle, as a browser leaves one.
    expect((await fetch(`${url}/health`)).status).toBeLessThan(500);

    const { child } = server;
    const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
      const startedAt = Date.now();
      child.once('exit', (code) => resolve({ code, ms: Date.now() - startedAt }));
    });
    child.kill('SIGTERM');
    const limit = new Promise<{ code: 'still running'; ms: number }>((resolve) => setTimeout(() => resolve({ code: 'still running', ms: EXIT_BOUND_MS + 5000 }), EXIT_BOUND_MS + 5000));
    const result = await Promise.race([exited, limit]);

    expect(result.code, server.output()).toBe(0);
    expect(result.ms, `exited after ${result.ms} ms`).toBeLessThan(EXIT_BOUND_MS);
    // Every socket was let go (closed by the server, not left hanging until the tab closes).
    expect(await Promise.all(disconnected)).toHaveLength(4);
  }, 60_000);
});
