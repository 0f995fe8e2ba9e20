import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The real server process (`node --import tsx src/main.ts`) on the embedded database in
 * a fresh DATA_DIR, for tests about the process itself: its sockets, its shutdown.
 */

const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  /** Everything it printed so far. */
  output(): string;
  /** Settles with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** SIGKILL if still running; settles once it ended. */
  kill(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-process-')),
      DATABASE_URL: '',
      REDIS_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'process@example.com',
      ADMIN_PASSWORD: 'Process123!',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      const match = /Atende is running: (http:\/\/\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before starting:\n${output}`)));
  });
  return {
    child,
    url,
    port: Number(new URL(url).port),
    output: () => output,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
