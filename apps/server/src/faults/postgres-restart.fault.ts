import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeGraphApi, type FakeGraphApi } from '../test/fake-graph-api.js';
import { cloudApiDelivery, createBurstConnections, judge, newCounters, report, runChats, sandboxDelivery, storedInbound, type Delivery } from './burst.js';
import { api, login, serverSecrets, sleep, privatePostgres, startRedis, startServer, waitFor, type PrivatePostgres, type PrivateRedis, type ServerProcess } from './processes.js';

const CHATS = 6;
/** Chats through the Cloud API webhook: acknowledged to Meta means queued in PostgreSQL, processed after the outage. */
const CLOUD_CHATS = 2;
const MESSAGES_PER_CHAT = 50;
const STOP_AFTER_ACKNOWLEDGED = 100;
const OUTAGE_MS = 4_000;

let pg: PrivatePostgres;
let redis: PrivateRedis;
let graph: FakeGraphApi;
let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  [pg, redis, graph] = await Promise.all([privatePostgres(inject('faultCluster')), startRedis(), startFakeGraphApi()]);
  // A webhook job running when PostgreSQL went away cannot record its failure: it stays active until its
  // lease (30 s) runs out and maintenance hands it back. Maintenance every 5 s keeps that within the wait below.
  env = { ...serverSecrets(), DATABASE_URL: pg.url, REDIS_URL: redis.url, GRAPH_API_BASE_URL: graph.baseUrl, JOBS_MAINTENANCE_SECONDS: '5' };
  server = await startServer(env);
}, 90_000);

afterAll(async () => {
  if (server && !server.alive()) process.stdout.write(`server died; its last output:\n${server.output().slice(-4000)}\n`);
  await server?.kill('SIGKILL');
  await redis?.close();
  await graph?.close();
  // The cluster is the suite's: leave it running for the next file even when this test failed mid-outage.
  await pg?.start().catch(() => undefined);
});

describe('PostgreSQL stopped in the middle of a burst', () => {
  it('answers 503 with Retry-After during the outage (never 500), stays up, recovers by itself and loses nothing acknowledged (sandbox and Cloud API webhook)', async () => {
    const token = await login(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const { sandboxId: whatsappId, cloudId, target } = await createBurstConnections(server, token, graph);

    const sent = new Map<string, string[]>();
    const chats: Delivery[][] = [];
    for (let c = 0; c < CHATS; c++) {
      const number = `55419${String(6_000_000 + c).padStart(8, '0')}`;
      const ids = Array.from({ length: MESSAGES_PER_CHAT }, (_, m) => `pg-outage-${c}-${m}`);
      sent.set(`${whatsappId}:${number}`, ids);
      chats.push(ids.map((id, m) => sandboxDelivery(() => server.url, token, whatsappId, number, id, `mensagem ${m}`)));
    }
    const firstSecond = Math.floor(Date.now() / 1000) - MESSAGES_PER_CHAT - 60;
    for (let c = 0; c < CLOUD_CHATS; c++) {
      const number = `55419${String(5_000_000 + c).padStart(8, '0')}`;
      const ids = Array.from({ length: MESSAGES_PER_CHAT }, (_, m) => `wamid.PGOUT${c}x${m}`);
      sent.set(`${cloudId}:${number}`, ids);
      chats.push(ids.map((id, m) => cloudApiDelivery(() => server.url, target, number, id, `mensagem ${m}`, firstSecond + m)));
    }
    const total = (CHATS + CLOUD_CHATS) * MESSAGES_PER_CHAT;

    // An agent's screen keeps reading the ticket list through the outage.
    const reads = new Map<number, number>();
    const unavailable: { retryAfter: string | null; body: unknown }[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        try {
          const response = await api(server, token, 'GET', '/tickets?showAll=true');
          reads.set(response.status, (reads.get(response.status) ?? 0) + 1);
          const body: unknown = await response.json();
          if (response.status === 503) unavailable.push({ retryAfter: response.headers.get('retry-after'), body });
        } catch {
          // The connection itself failed: counted as status 0, which the test refuses below.
          reads.set(0, (reads.get(0) ?? 0) + 1);
        }
        await sleep(50);
      }
    })();

    const counters = newCounters();
    let outage: Promise<void> | null = null;
    await runChats(chats, counters, {
      redeliverEvery: 10,
      deadline: Date.now() + 60_000,
      onAcknowledged() {
        if (outage || counters.acknowledged < STOP_AFTER_ACKNOWLEDGED) return;
        outage = (async () => {
          pg.stop('fast');
          await sleep(OUTAGE_MS);
          await pg.start();
        })();
      },
    });
    await outage;
    await sleep(500);
    reading = false;
    await reader;

    // The process lived through it and serves again without a restart.
    expect(server.alive()).toBe(true);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await api(server, token, 'GET', '/tickets?showAll=true')).status).toBe(200);

    // During the outage: 503 ERR_SERVICE_UNAVAILABLE with Retry-After, for reads and for inbound messages; never a 500.
    expect(reads.get(503) ?? 0).toBeGreaterThan(0);
    expect(counters.statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(reads.get(500) ?? 0).toBe(0);
    expect(reads.get(0) ?? 0).toBe(0);
    expect(counters.statuses.get(500) ?? 0).toBe(0);
    expect(unavailable[0]).toEqual({ retryAfter: '5', body: { error: 'ERR_SERVICE_UNAVAILABLE' } });
    expect(new Set(unavailable.map((u) => u.retryAfter))).toEqual(new Set(['5']));

    // Webhook jobs queued before and after the outage are worked by the same process once PostgreSQL is back.
    const stored = await waitFor(
      'every acknowledged message to be stored',
      async () => {
        const rows = await storedInbound(pg.url, [whatsappId, cloudId]);
        return rows.length >= total ? rows : null;
      },
      75_000,
      500,
    ).catch(async () => storedInbound(pg.url, [whatsappId, cloudId]));
    const verdict = judge(sent, stored);
    report('PostgreSQL stopped mid-burst', { faults: 1, sent: counters.sent + counters.redelivered, stored: verdict.stored, lost: verdict.lost.length, duplicated: verdict.duplicated.length });
    expect(counters.acknowledged).toBe(total);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.outOfOrder).toEqual([]);
  }, 180_000);
});
