import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Settings } from '../platform/storage/s3-media-store.js';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/s3rver.mjs');

/**
 * A local S3-compatible server for the tests: s3rver (scripts/s3rver.mjs) in a process of
 * its own, on a free port of loopback, keeping its objects in a folder of its own, with one
 * bucket. `stop` kills it (SIGKILL: an outage, not a shutdown) and `start` brings it back
 * on the same port with the same objects.
 *
 * Every request's Signature V4 is checked by the script's proxy (with the AWS SDK's signer),
 * so a request S3 would refuse for its signature is refused here too. What s3rver does not
 * do as S3 does, and the tests therefore do not lean on: it does not check Content-MD5 (the
 * store compares the ETag itself), and it keeps an aborted upload as an empty object (the
 * store removes what its failed put left).
 */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The server's environment for MEDIA_STORAGE=s3. */
  env: Record<string, string>;
  settings: S3Settings;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

function run(directory: string, bucket: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SCRIPT, '--port', String(port), '--directory', directory, '--bucket', bucket], {
    // Its standard input is this process's pipe: when the test process dies, the server ends too.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`s3rver did not start within 20 s: ${output}`));
    }, 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening (\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve({ child, port: Number(listening[1]) });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}): ${output}`));
    });
  });
}

export async function startS3Server(bucket = 'atende-media'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'atende-s3-'));
  let running = await run(directory, bucket, 0);
  let child: ChildProcess | null = running.child;
  const port = running.port;
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
  const stop = async () => {
    const current = child;
    child = null;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  return {
    endpoint,
    bucket,
    env: { MEDIA_STORAGE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: 'true', ...credentials },
    settings: { endpoint, bucket, region: 'us-east-1', accessKeyId: credentials.S3_ACCESS_KEY_ID, secretAccessKey: credentials.S3_SECRET_ACCESS_KEY, forcePathStyle: true },
    async start() {
      if (child) return;
      running = await run(directory, bucket, port);
      child = running.child;
    },
    stop,
    async close() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
