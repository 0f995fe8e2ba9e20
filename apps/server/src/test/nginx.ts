import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A test's own nginx (Debian's package): its own prefix in a temporary folder, with its
 * configuration, logs and temporary files there, in the foreground. CI installs nginx
 * (.ci/run); the tests that need it fail under CI without it and are skipped elsewhere.
 */
export const NGINX = '/usr/sbin/nginx';
export const nginxPresent = existsSync(NGINX);

export interface Nginx {
  /** Its prefix: nginx.conf, error.log and whatever the given configuration writes there. */
  dir: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (nginx ends its workers itself; SIGKILL would leave them running); settles once it ended. */
  stop(): Promise<void>;
}

/** `nginx version: nginx/1.22.1`, as `nginx -v` says it. */
export function nginxVersion(): string {
  return spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr.trim();
}

/**
 * Starts nginx with `http` as the content of its http block (`PREFIX` in it stands
 * for its folder); ready once each of `ports` accepts connections.
 */
export async function startNginx(http: string, ports: number[]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-nginx-'));
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${http.replaceAll('PREFIX', dir)}
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', conf, '-g', `daemon off; pid ${dir}/nginx.pid;`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nginx: Nginx = {
    dir,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exit;
        clearTimeout(late);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const exited = exit.then(() => {
    throw new Error(`nginx exited:\n${output}`);
  });
  exited.catch(() => undefined);
  try {
    for (const port of ports) await Promise.race([exited, accepting(port)]);
  } catch (error) {
    await nginx.stop();
    throw error;
  }
  return nginx;
}

/** Settles once 127.0.0.1:port accepts a connection. */
async function accepting(port: number): Promise<void> {
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
