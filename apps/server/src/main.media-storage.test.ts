import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, startServer, type ServerProcess } from './test/data-dir-process.js';
import { startS3Server, type TestS3Server } from './test/s3-server.js';

/**
 * The real process's start with MEDIA_STORAGE=s3: a bucket that does not exist stops it
 * with a sentence; one that does not answer now is a warning, and it starts; the banner
 * names where media are kept.
 */

let s3: TestS3Server;
const processes: ServerProcess[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  for (const process of processes) if (process.child.exitCode === null) process.child.kill('SIGKILL');
  await s3?.close();
});

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'atende-media-start-'));

describe('start-up with media on S3', () => {
  it('refuses a bucket that does not exist, saying so', async () => {
    const server = spawnServer(dataDir(), { ...s3.env, S3_BUCKET: 'no-such-bucket' });
    processes.push(server);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`Atende cannot start: the media storage (bucket no-such-bucket at ${s3.endpoint}) cannot be used: there is no such bucket (404)`);
  }, 60_000);

  it('a bucket that does not answer now is a warning, in the banner that names it, and the server starts', async () => {
    // A port nothing listens on.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const server = await startServer(dataDir(), { ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${closed}` });
    processes.push(server);
    // The banner's lines after its first.
    for (let i = 0; i < 50 && !server.output().includes('  Media: '); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output()).toContain(`  Media: bucket atende-media at http://127.0.0.1:${closed} (media storage unreachable now: HEAD bucket: ECONNREFUSED)`);
    expect((await fetch(`${server.url}/version`)).status).toBe(200);
  }, 90_000);
});
