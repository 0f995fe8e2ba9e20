import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { call, login, startServer, type Api, type RunningServer } from './data-dir-process.js';


/**
 * What the backup tests share (cli/backup/*.test.ts): the real server on a DATA_DIR with a
 * sandbox connection, customers writing to it (texts and photos) while a backup runs, the
 * real CLI, and the checks that a restored install holds a consistent state.
 */

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'cli');
const BACKUP_ADMIN = { email: 'backup@example.com', password: 'Backup123!' };

/** The server on `dataDir` (and `env`: DATABASE_URL), signed in, with a sandbox connection. */
export async function serveWithSandbox(dataDir: string, env: Record<string, string> = {}): Promise<{ server: RunningServer; api: Api; whatsappId: number }> {
  const server = await startServer(dataDir, { ADMIN_EMAIL: BACKUP_ADMIN.email, ADMIN_PASSWORD: BACKUP_ADMIN.password, DATA_DIR_MIN_FREE_MB: '0', ...env });
  const session = await login(server.url, BACKUP_ADMIN);
  expect(session.status).toBe(200);
  const api = { url: server.url, token: session.token ?? '' };
  const existing = await call(api, 'GET', '/whatsapp');
  const found = (existing.body as unknown as { id: number; provider: string }[]).find?.((connection) => connection.provider === 'sandbox');
  if (found) return { server, api, whatsappId: found.id };
  const created = await call(api, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
  expect(created.status).toBe(201);
  return { server, api, whatsappId: Number(created.body.id) };
}

export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  expect(await server.exited, server.output()).toBe(0);
}

/** The bytes of the photo of message `externalId`: its id repeated, a size of its own. */
export function photoOf(externalId: string): Buffer {
  let size = 3000;
  for (const char of externalId) size = (size * 31 + char.charCodeAt(0)) % 40_000;
  return Buffer.alloc(3000 + size, `${externalId}|`);
}

/** `<uuid>-photo-<externalId>.jpg` (media-storage.ts keeps the sanitized name after a random id). */
function externalIdOfFile(name: string): string | null {
  return /^[0-9a-f-]{36}-photo-(.+)\.jpg$/.exec(name)?.[1] ?? null;
}

export interface Writers {
  /** Messages each writer had stored (answered 201) so far: writer w's are `w<w>-0`, `w<w>-1`, ... */
  stored(): number[];
  /** Stops them (each finishes the message it is sending) and returns how many each stored. */
  stop(): Promise<number[]>;
}

/**
 * Customers writing to the sandbox connection one message after another (`count` of them at
 * once): each message from a number of its own (a contact, a ticket and the message, in one
 * transaction), every third with a photo.
 */
export function startWriters(api: Api, whatsappId: number, count: number): Writers {
  const stored = Array.from({ length: count }, () => 0);
  let stopping = false;
  const loops = stored.map(async (_, writer) => {
    for (let n = 0; !stopping; n++) {
      const id = `w${writer}-${n}`;
      const from = `55119${writer}${String(n).padStart(6, '0')}`;
      let body: unknown = { from, body: `message ${id}`, id };
      if (n % 3 === 0) {
        const form = new FormData();
        form.append('from', from);
        form.append('body', `photo ${id}`);
        form.append('id', id);
        form.append('media', new Blob([photoOf(id)], { type: 'image/jpeg' }), `photo-${id}.jpg`);
        body = form;
      }
      const answer = await call(api, 'POST', `/sandbox/${whatsappId}/inbound`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      stored[writer] = n + 1;
    }
  });
  return {
    stored: () => [...stored],
    async stop() {
      stopping = true;
      await Promise.all(loops);
      return [...stored];
    },
  };
}

export type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** The customers' messages of a restored database, each with what it refers to. */
async function writtenMessages(query: Query) {
  return (await query(
    `select m.external_id, m.media_path, t.id as ticket_id, c.id as contact_id, t.last_message
       from messages m left join tickets t on t.id = m.ticket_id left join contacts c on c.id = m.contact_id
      where not m.from_me and m.external_id like 'w%'`,
  )) as { external_id: string; media_path: string | null; ticket_id: number | null; contact_id: number | null; last_message: string | null }[];
}

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/**
 * Checks a restored install: for each writer, the messages are exactly its first k (a
 * snapshot of one instant: no gap, nothing half-stored), k at least what it had stored
 * when the backup began; every message has its ticket and contact; every photo a message
 * names is in the media, whole; every file in the media is whole (none half-written).
 * Returns k per writer.
 */
export async function expectConsistentRestore(query: Query, mediaRoot: string, storedBeforeBackup: number[]): Promise<number[]> {
  const messages = await writtenMessages(query);
  const perWriter = storedBeforeBackup.map(() => new Set<number>());
  for (const message of messages) {
    const [, writer, n] = /^w(\d+)-(\d+)$/.exec(message.external_id) ?? [];
    perWriter[Number(writer)]?.add(Number(n));
    expect(message.ticket_id, `the ticket of ${message.external_id}`).not.toBeNull();
    expect(message.contact_id, `the contact of ${message.external_id}`).not.toBeNull();
    expect(message.last_message, `the ticket's last message of ${message.external_id}`).toMatch(/^(message|photo) w/);
    const n_ = Number(n);
    if (n_ % 3 === 0) {
      expect(message.media_path, `the photo of ${message.external_id}`).toBeTruthy();
      const file = path.join(mediaRoot, message.media_path ?? '');
      expect(existsSync(file), `${file} (${message.external_id}) is restored`).toBe(true);
      expect(readFileSync(file).equals(photoOf(message.external_id)), `${file} is whole`).toBe(true);
    }
  }
  const restored = perWriter.map((numbers, writer) => {
    const k = numbers.size;
    expect([...numbers].every((n) => n < k), `writer ${writer}: messages 0..${k - 1}, no gap`).toBe(true);
    expect(k, `writer ${writer}: at least what was stored before the backup`).toBeGreaterThanOrEqual(storedBeforeBackup[writer] ?? 0);
    return k;
  });
  for (const key of filesUnder(mediaRoot)) {
    const externalId = externalIdOfFile(path.basename(key));
    if (!externalId) continue;
    expect(readFileSync(path.join(mediaRoot, key)).equals(photoOf(externalId)), `${key} is whole`).toBe(true);
  }
  return restored;
}

export { filesUnder };

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run backup` or `npm run restore`'s script as the real process, with `env` over the test's. */
export function runCli(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(CLI, `${name}.ts`), ...args], {
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** What the backup and the restore read of the configuration, for a test's data dir (media in its folder). */
export function backupConfig(dataDir: string, databaseUrl?: string) {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    MEDIA_STORAGE: 'local' as const,
    S3_ENDPOINT: undefined,
    S3_BUCKET: '',
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: '',
    S3_SECRET_ACCESS_KEY: '',
    S3_FORCE_PATH_STYLE: false,
  };
}
