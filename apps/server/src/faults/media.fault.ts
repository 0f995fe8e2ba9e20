import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../test/s3-server.js';
import { judge, newCounters, report, runChats, storedInbound, type Delivery } from './burst.js';
import { api, privatePostgres, queryDatabase, serverSecrets, signIn, sleep, startRedis, startServer, type PrivatePostgres, type PrivateRedis, type ServerProcess } from './processes.js';

const CHATS = 3;
const FILES_PER_CHAT = 12; // 36 files of 20 to 220 KB
const KILL_AFTER_ACKNOWLEDGED = 8;
const BUCKET_DOWN_AFTER_ACKNOWLEDGED = 20;
const BUCKET_DOWN_MS = 1_500;

/**
 * Customers' files arriving while the node that stores them is killed (SIGKILL) and, on a
 * bucket, while the object store is down for a moment: run on both media stores. The
 * local store's two nodes share DATA_DIR (what it requires); the bucket's have each their
 * own, as on two machines. Every file acknowledged is stored once, whole, and served
 * through a signed URL by the other node.
 */
describe.each(['local', 's3'] as const)('media on %s during faults', (storage) => {
  let database: PrivatePostgres;
  let redis: PrivateRedis;
  let s3: TestS3Server | null = null;
  let sharedDataDir: string | null = null;
  let node: ServerProcess;
  /** An API node never killed: the files are read back through it. */
  let reader: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    [database, redis] = await Promise.all([privatePostgres(inject('faultCluster')), startRedis()]);
    let media: Record<string, string>;
    if (storage === 's3') {
      s3 = await startS3Server();
      media = s3.env;
    } else {
      sharedDataDir = mkdtempSync(path.join(tmpdir(), 'atende-fault-media-'));
      media = { DATA_DIR: sharedDataDir };
    }
    env = { ...serverSecrets(), DATABASE_URL: database.url, REDIS_URL: redis.url, ...media };
    // One after the other: the first start migrates the new database.
    node = await startServer(env);
    reader = await startServer(env, undefined, ['--services=api']);
  }, 90_000);

  afterAll(async () => {
    await node?.kill('SIGKILL');
    await reader?.kill('SIGKILL');
    await redis?.close();
    await s3?.close();
    if (sharedDataDir) rmSync(sharedDataDir, { recursive: true, force: true });
  });

  it(`stores every acknowledged file once and whole through a SIGKILL${storage === 's3' ? ' and a bucket outage' : ''}, and the other node serves it`, async () => {
    const { token } = await signIn(node, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const created = await api(node, token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    expect(created.status).toBe(201);
    const sandboxId = ((await created.json()) as { id: number }).id;

    const digests = new Map<string, string>();
    const sent = new Map<string, string[]>();
    const chats: Delivery[][] = [];
    for (let c = 0; c < CHATS; c++) {
      const number = `55419${String(6_000_000 + c).padStart(8, '0')}`;
      const ids: string[] = [];
      const chat: Delivery[] = [];
      for (let m = 0; m < FILES_PER_CHAT; m++) {
        const id = `media-fault-${storage}-${c}-${m}`;
        const data = randomBytes(20_000 + ((c * FILES_PER_CHAT + m) % 11) * 20_000);
        digests.set(id, createHash('sha256').update(data).digest('hex'));
        ids.push(id);
        chat.push({
          async post() {
            const form = new FormData();
            form.append('from', number);
            form.append('id', id);
            form.append('body', id);
            form.append('media', new Blob([data], { type: 'image/jpeg' }), `foto ${m}.jpg`);
            const response = await fetch(`${node.url}/sandbox/${sandboxId}/inbound`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
            await response.arrayBuffer();
            return response.status;
          },
        });
      }
      sent.set(`${sandboxId}:${number}`, ids);
      chats.push(chat);
    }

    const counters = newCounters();
    let killed: Promise<void> | null = null;
    let bucketOutage: Promise<void> | null = null;
    await runChats(chats, counters, {
      redeliverEvery: 10,
      deadline: Date.now() + 90_000,
      onAcknowledged() {
        if (!killed && counters.acknowledged >= KILL_AFTER_ACKNOWLEDGED) {
          killed = (async () => {
            const port = node.port;
            await node.kill('SIGKILL');
            node = await startServer(env, port);
          })();
        }
        if (s3 && !bucketOutage && counters.acknowledged >= BUCKET_DOWN_AFTER_ACKNOWLEDGED) {
          const bucket = s3;
          bucketOutage = (async () => {
            await bucket.stop();
            await sleep(BUCKET_DOWN_MS);
            await bucket.start();
          })();
        }
      },
    });
    await killed;
    await bucketOutage;
    expect(killed).not.toBeNull();
    if (s3) expect(bucketOutage).not.toBeNull();

    const verdict = judge(sent, await storedInbound(database.url, [sandboxId]));

    // Every stored customer message's file, read back through the node that was never killed.
    const tickets = await queryDatabase<{ id: number }>(database.url, 'select distinct ticket_id as id from messages where whatsapp_id = $1', [sandboxId]);
    const served = new Map<string, string>();
    let broken = 0;
    for (const ticket of tickets) {
      for (let page = 1; ; page++) {
        const listed = (await (await api(reader, token, 'GET', `/messages/${ticket.id}?pageNumber=${page}`)).json()) as {
          messages: { body: string; fromMe: boolean; mediaUrl: string | null }[];
          hasMore: boolean;
        };
        for (const message of listed.messages.filter((m) => !m.fromMe)) {
          const download = message.mediaUrl ? await fetch(`${reader.url}${message.mediaUrl}`) : null;
          if (download?.status !== 200) {
            broken += 1;
            continue;
          }
          served.set(message.body, createHash('sha256').update(Buffer.from(await download.arrayBuffer())).digest('hex'));
        }
        if (!listed.hasMore) break;
      }
    }
    const corrupt = [...digests].filter(([id, digest]) => served.has(id) && served.get(id) !== digest).map(([id]) => id);
    report(`media (${storage}): server SIGKILL${s3 ? ' and bucket outage' : ''} during inbound files`, {
      faults: s3 ? 2 : 1,
      sent: counters.sent + counters.redelivered,
      stored: verdict.stored,
      lost: verdict.lost.length,
      duplicated: verdict.duplicated.length,
    });
    process.stdout.write(
      `media (${storage}): ${counters.acknowledged} files acknowledged, ${counters.retried} deliveries retried ` +
        `(${counters.statuses.get(503) ?? 0} answered 503), ${served.size} served whole by the other node, ${broken} not served, ${corrupt.length} corrupt\n`,
    );

    const total = CHATS * FILES_PER_CHAT;
    expect(counters.acknowledged).toBe(total);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.outOfOrder).toEqual([]);
    expect(counters.statuses.get(500) ?? 0).toBe(0);
    expect(broken).toBe(0);
    expect(corrupt).toEqual([]);
    expect(served.size).toBe(total);
    // The bucket's outage was answered 503 (with Retry-After) and the phone sent those files again.
    if (s3) expect(counters.statuses.get(503) ?? 0).toBeGreaterThan(0);
  }, 180_000);
});
