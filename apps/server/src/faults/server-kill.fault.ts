import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeGraphApi, type FakeGraphApi } from '../test/fake-graph-api.js';
import { cloudApiDelivery, createBurstConnections, judge, newCounters, report, runChats, sandboxDelivery, storedInbound, type Delivery } from './burst.js';
import { serverSecrets, privatePostgres, signIn, startRedis, startServer, waitFor, type PrivatePostgres, type PrivateRedis, type ServerProcess } from './processes.js';

const CHATS_PER_CHANNEL = 10;
const MESSAGES_PER_CHAT = 100; // 2 channels x 10 chats x 100 = 2,000 messages
const KILL_AFTER_ACKNOWLEDGED = 700;

let database: PrivatePostgres;
let redis: PrivateRedis;
let graph: FakeGraphApi;
let server: ServerProcess;
/** A second API node on the same database and Redis, never killed: the agent's screen is connected to it. */
let watcher: ServerProcess;
let agentSocket: Socket | null = null;
let env: Record<string, string>;

beforeAll(async () => {
  [database, redis, graph] = await Promise.all([privatePostgres(inject('faultCluster')), startRedis(), startFakeGraphApi()]);
  env = { ...serverSecrets(), DATABASE_URL: database.url, REDIS_URL: redis.url, GRAPH_API_BASE_URL: graph.baseUrl, JOBS_MAINTENANCE_SECONDS: '5' };
  server = await startServer(env);
  watcher = await startServer(env, undefined, ['--services=api']);
}, 90_000);

afterAll(async () => {
  agentSocket?.close();
  await server?.kill('SIGKILL');
  await watcher?.kill('SIGKILL');
  await redis?.close();
  await graph?.close();
});

/**
 * An admin's screen on the node that is not killed: the ids of the customer messages
 * whose `appMessage` create reached it (from whichever node stored them, through Redis).
 */
async function watchMessages(token: string, companyId: number): Promise<Set<number>> {
  const heard = new Set<number>();
  const socket = io(watcher.url, { transports: ['websocket'], query: { token }, reconnection: false });
  agentSocket = socket;
  socket.on(`company-${companyId}-appMessage`, (event: { action: string; message?: { id: number; fromMe: boolean } }) => {
    if (event.action === 'create' && event.message && !event.message.fromMe) heard.add(event.message.id);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return heard;
}

async function sqlRows<Row>(text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Row[];
  } finally {
    await client.end();
  }
}

const pendingWebhookJobs = async () =>
  Number((await sqlRows<{ count: string }>(`select count(*) from pgboss.job where name = 'cloud-api-webhook' and state in ('created', 'retry', 'active')`))[0]?.count ?? 0);

const activeWebhookJobs = async () =>
  Number((await sqlRows<{ count: string }>(`select count(*) from pgboss.job where name = 'cloud-api-webhook' and state = 'active'`))[0]?.count ?? 0);

describe('SIGKILL of the server during an inbound burst', () => {
  it('stores every message exactly once, in order per chat, through the sandbox and the Cloud API webhook, and shows each on an agent’s open screen', async () => {
    const { token, companyId } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const { sandboxId, cloudId, target } = await createBurstConnections(server, token, graph);
    const heard = await watchMessages(token, companyId);

    const baseUrl = () => server.url;
    const sent = new Map<string, string[]>();
    const chats: Delivery[][] = [];
    // Meta's timestamps are the customer's send times (seconds): one a second per chat, in the past.
    const firstSecond = Math.floor(Date.now() / 1000) - MESSAGES_PER_CHAT - 60;
    for (let c = 0; c < CHATS_PER_CHANNEL; c++) {
      const sandboxNumber = `55419${String(7_000_000 + c).padStart(8, '0')}`;
      const cloudNumber = `55419${String(8_000_000 + c).padStart(8, '0')}`;
      const sandboxIds: string[] = [];
      const cloudIds: string[] = [];
      const sandboxChat: Delivery[] = [];
      const cloudChat: Delivery[] = [];
      for (let m = 0; m < MESSAGES_PER_CHAT; m++) {
        const sid = `fault-sandbox-${c}-${m}`;
        const wid = `wamid.FAULT${c}x${m}`;
        sandboxIds.push(sid);
        cloudIds.push(wid);
        sandboxChat.push(sandboxDelivery(baseUrl, token, sandboxId, sandboxNumber, sid, `mensagem ${m}`));
        cloudChat.push(cloudApiDelivery(baseUrl, target, cloudNumber, wid, `mensagem ${m}`, firstSecond + m));
      }
      sent.set(`${sandboxId}:${sandboxNumber}`, sandboxIds);
      sent.set(`${cloudId}:${cloudNumber}`, cloudIds);
      chats.push(sandboxChat, cloudChat);
    }

    const counters = newCounters();
    let killed: Promise<void> | null = null;
    const started = Date.now();
    await runChats(chats, counters, {
      redeliverEvery: 10,
      deadline: Date.now() + 90_000,
      onAcknowledged() {
        if (killed || counters.acknowledged < KILL_AFTER_ACKNOWLEDGED) return;
        // The real process dies mid-burst with requests in flight, and comes back on the same port.
        killed = (async () => {
          const port = server.port;
          // Aim at a moment when a webhook job is being worked, so the kill leaves one active (leased).
          await waitFor('a webhook job in progress', async () => (await activeWebhookJobs()) > 0, 2_000, 5).catch(() => undefined);
          await server.kill('SIGKILL');
          server = await startServer(env, port);
        })();
      },
    });
    await killed;
    expect(killed).not.toBeNull();
    // Connection refused or reset while the server was down: those deliveries were retried.
    expect(counters.retried).toBeGreaterThan(0);

    // Cloud API messages are stored by jobs after Meta got its 200: wait for them to settle.
    const total = CHATS_PER_CHANNEL * MESSAGES_PER_CHAT * 2;
    const stored = await waitFor(
      'every acknowledged message to be stored',
      async () => {
        const rows = await storedInbound(database.url, [sandboxId, cloudId]);
        return rows.length >= total ? rows : null;
      },
      75_000,
      500,
    ).catch(async () => storedInbound(database.url, [sandboxId, cloudId]));
    const verdict = judge(sent, stored);
    // Every stored message reaches the open screen without a reload, those the killed process
    // committed but never announced included: their redelivery announces them. A webhook job the
    // killed process held is its redelivery, run once its lease (30 s) is over; then 15 s at most.
    await waitFor('the webhook jobs to be done', async () => (await pendingWebhookJobs()) === 0, 75_000, 500).catch(() => undefined);
    const storedIds = (await sqlRows<{ id: number }>(`select m.id from messages m where m.whatsapp_id in (${sandboxId}, ${cloudId}) and not m.from_me`)).map((row) => Number(row.id));
    const unannounced = await waitFor(
      'every stored message to reach the agent’s socket',
      async () => {
        const missing = storedIds.filter((id) => !heard.has(id));
        return missing.length === 0 ? missing : null;
      },
      15_000,
      200,
    ).catch(() => storedIds.filter((id) => !heard.has(id)));
    report('server SIGKILL during inbound burst', {
      faults: 1,
      sent: counters.sent + counters.redelivered,
      stored: verdict.stored,
      lost: verdict.lost.length,
      duplicated: verdict.duplicated.length,
      unannounced: unannounced.length,
    });
    const [leased] = await sqlRows<{ count: string }>(`select count(*) from pgboss.job where name = 'cloud-api-webhook' and retry_count > 0`);
    process.stdout.write(
      `burst: ${counters.acknowledged} acknowledged, ${counters.redelivered} redelivered, ${counters.retried} deliveries retried, ` +
        `${leased?.count ?? 0} webhook job(s) re-run after the killed process's lease, ${Date.now() - started} ms\n`,
    );

    expect(counters.acknowledged).toBe(total);
    expect(counters.redelivered).toBe(total / 10);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.outOfOrder).toEqual([]);
    expect(verdict.stored).toBe(total);
    expect(unannounced).toEqual([]);
    // Each chat's ticket shows its newest message, even where a re-run job stored an older one last.
    const previews = await sqlRows<{ last_message: string }>(
      `select t.last_message from tickets t where t.whatsapp_id in (${sandboxId}, ${cloudId}) order by t.id`,
    );
    expect(previews.map((row) => row.last_message)).toEqual(Array.from({ length: CHATS_PER_CHANNEL * 2 }, () => `mensagem ${MESSAGES_PER_CHAT - 1}`));
  }, 180_000);
});
