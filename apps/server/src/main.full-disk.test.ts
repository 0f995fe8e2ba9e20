import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, spawnServer, startServer, type Api, type RunningServer, type ServerProcess } from './test/data-dir-process.js';
import { openTestDatabase, usePostgres } from './test/test-database.js';
import { mountSmallDisk, type SmallDisk } from './test/tmpfs.js';

/**
 * Issue 28 defect 9: a full disk gave vague 500s, left partial files and a start-up
 * that printed raw SQL. The real process with DATA_DIR on a real small disk (a tmpfs),
 * filled with a file: uploads and inbound messages answer 507 ERR_STORAGE_FULL and
 * leave no file, /health says so, an inbound message that could not be stored is
 * stored once when it is sent again after space is freed, everything works again,
 * and a start on the full disk exits with "no space left in DATA_DIR".
 * Embedded database under `npm test`; the media part on PostgreSQL under `test:pg`.
 */

const ADMIN = { email: 'disk@example.com', password: 'Disk12345!' };
/** The disk is 64 MB and the embedded database takes about 30 MB of it. */
const MIN_FREE_MB = 8;

const processes: ServerProcess[] = [];
afterAll(() => {
  for (const process of processes) if (process.child.exitCode === null) process.child.kill('SIGKILL');
});

/** The exit code of a start that must fail, or 'still running' (killed) after a minute. */
async function exitCode(process: ServerProcess): Promise<number | null | 'still running'> {
  const limit = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000).unref());
  const code = await Promise.race([process.exited, limit]);
  if (code === 'still running') process.child.kill('SIGKILL');
  return code;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

async function health(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function photo(field: string, bytes: number, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(field, new Blob([Buffer.alloc(bytes, 9)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

async function serve(dataDir: string, env: Record<string, string>): Promise<{ server: RunningServer; api: Api }> {
  const server = await startServer(dataDir, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, DATA_DIR_MIN_FREE_MB: String(MIN_FREE_MB), ...env });
  processes.push(server);
  const session = await login(server.url, ADMIN);
  expect(session.status).toBe(200);
  return { server, api: { url: server.url, token: session.token ?? '' } };
}

/** A quick message to attach files to: an upload that involves nothing but the file. */
async function quickMessage(api: Api): Promise<number> {
  const created = await call(api, 'POST', '/quick-messages', { shortcode: 'disk', message: 'with a file' });
  expect(created.status).toBe(201);
  return Number(created.body.id);
}

const mounted = mountSmallDisk(64);

describe.skipIf(Boolean(mounted.skipped) || usePostgres)('a full disk under the real process (embedded database)', () => {
  let disk: SmallDisk;
  let server: RunningServer;
  let api: Api;
  let whatsappId: number;
  let quickMessageId: number;
  let mediaBefore: string[];
  const media = () => path.join(disk.dir, 'media');
  /** What the customer's phone could not deliver while the disk was full, to send again. */
  let refusedText: { from: string; body: string; id: string } | undefined;

  beforeAll(async () => {
    disk = mounted.disk!;
    ({ server, api } = await serve(disk.dir, {}));
    const connection = await call(api, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    expect(connection.status).toBe(201);
    whatsappId = Number(connection.body.id);
    expect((await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, { from: '5511990000001', body: 'before the disk filled', id: 'before-1' })).status).toBe(201);
    quickMessageId = await quickMessage(api);
    expect((await call(api, 'POST', `/quick-messages/${quickMessageId}/media-upload`, photo('file', 10_000))).status).toBe(200);
    mediaBefore = filesUnder(media());
    expect(mediaBefore).toHaveLength(1);
  }, 180_000);

  afterAll(() => {
    disk?.free();
    disk?.unmount();
  });

  it('with the disk full: /health says so; uploads and inbound messages answer 507 ERR_STORAGE_FULL and leave no file', async () => {
    disk.fill();

    const report = await health(server.url);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ status: 'storage_full', database: 'pglite', storage: { status: 'full', minFreeMb: MIN_FREE_MB } });
    expect(String((report.body.storage as { reason?: string }).reason)).toMatch(/^no space left in DATA_DIR \(\d+ MB free\)$/);

    expect(await call(api, 'POST', `/quick-messages/${quickMessageId}/media-upload`, photo('file', 300_000))).toEqual({ status: 507, body: { error: 'ERR_STORAGE_FULL' } });
    const withPhoto = photo('media', 300_000, { from: '5511990000002', id: 'photo-1' });
    expect(await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, withPhoto)).toEqual({ status: 507, body: { error: 'ERR_STORAGE_FULL' } });
    expect(filesUnder(media())).toEqual(mediaBefore);

    // Plain texts, each from a new customer (a contact, a ticket, a message), until the database cannot write.
    for (let i = 0; i < 400 && !refusedText; i++) {
      const text = { from: `55119900${String(1000 + i)}`, body: `message ${i} ${'x'.repeat(2000)}`, id: `flood-${i}` };
      const answer = await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, text);
      if (answer.status === 201) continue;
      expect(answer).toEqual({ status: 507, body: { error: 'ERR_STORAGE_FULL' } });
      refusedText = text;
    }
    expect(refusedText, 'the database never ran out of space').toBeDefined();
    expect(server.child.exitCode).toBeNull();
  }, 180_000);

  it('once space is freed: /health is ok, the refused messages are stored once when sent again, uploads work', async () => {
    disk.free();
    const report = await health(server.url);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ status: 'ok', database: 'pglite', storage: { status: 'ok' } });

    // The phone was never told "stored": it sends again, and the message is stored once.
    const text = refusedText!;
    const stored = await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, text);
    expect(stored.status).toBe(201);
    expect((await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, text)).body).toMatchObject({ duplicate: true });
    const history = await call(api, 'GET', `/messages/${String(stored.body.ticketId)}`);
    expect((history.body.messages as { body: string }[]).filter((message) => message.body === text.body)).toHaveLength(1);

    const withPhoto = () => photo('media', 300_000, { from: '5511990000002', id: 'photo-1' });
    expect((await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, withPhoto())).status).toBe(201);
    expect((await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, withPhoto())).body).toMatchObject({ duplicate: true });

    expect((await call(api, 'POST', `/quick-messages/${quickMessageId}/media-upload`, photo('file', 300_000))).status).toBe(200);
    expect((await call(api, 'POST', '/quick-messages', { shortcode: 'after', message: 'the disk has room again' })).status).toBe(201);

    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  }, 120_000);

  it('a start on the full disk exits non-zero with "no space left in DATA_DIR", naming the folder', async () => {
    disk.fill();
    const refused = spawnServer(disk.dir, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    processes.push(refused);
    expect(await exitCode(refused), refused.output()).not.toBe(0);
    expect(refused.output()).toMatch(/no space left in DATA_DIR \(\d+ MB free\)/);
    expect(refused.output()).toContain(disk.dir);
    expect(refused.output()).not.toContain('Atende is running');

    // With the free-space check off and room for the lock only, the embedded database itself meets the
    // full disk (PGlite's WebAssembly aborts; it opens with 128 KB): the same sentence, not its RuntimeError.
    disk.free();
    disk.fill(32 * 1024);
    const unchecked = spawnServer(disk.dir, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, DATA_DIR_MIN_FREE_MB: '0' });
    processes.push(unchecked);
    expect(await exitCode(unchecked), unchecked.output()).not.toBe(0);
    expect(unchecked.output()).toMatch(/no space left in DATA_DIR \(\d+ MB free\)/);
    expect(unchecked.output()).toContain('a write in');
    expect(unchecked.output()).not.toMatch(/RuntimeError|Failed query/);
  }, 120_000);
});

describe.skipIf(Boolean(mounted.skipped) || !usePostgres)('a full DATA_DIR under the real process on PostgreSQL (media)', () => {
  it('uploads answer 507 ERR_STORAGE_FULL and leave no file, /health says so; freed, both are fine again', async () => {
    const disk = mounted.disk!;
    const database = await openTestDatabase();
    try {
      const { server, api } = await serve(disk.dir, { DATABASE_URL: database.url ?? '' });
      const quickMessageId = await quickMessage(api);
      expect((await call(api, 'POST', `/quick-messages/${quickMessageId}/media-upload`, photo('file', 10_000))).status).toBe(200);
      const before = filesUnder(path.join(disk.dir, 'media'));

      disk.fill();
      expect(await health(server.url)).toMatchObject({ status: 503, body: { status: 'storage_full', database: 'postgres', storage: { status: 'full' } } });
      expect(await call(api, 'POST', `/quick-messages/${quickMessageId}/media-upload`, photo('file', 300_000))).toEqual({ status: 507, body: { error: 'ERR_STORAGE_FULL' } });
      expect(filesUnder(path.join(disk.dir, 'media'))).toEqual(before);

      disk.free();
      expect(await health(server.url)).toMatchObject({ status: 200, body: { status: 'ok', storage: { status: 'ok' } } });
      expect((await call(api, 'POST', `/quick-messages/${quickMessageId}/media-upload`, photo('file', 300_000))).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      disk.free();
      disk.unmount();
      await database.close();
    }
  }, 180_000);
});
