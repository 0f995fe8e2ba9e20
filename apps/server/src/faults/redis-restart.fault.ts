import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { report, sandboxDelivery, deliver, newCounters, storedInbound } from './burst.js';
import { api, serverSecrets, signIn, sleep, privatePostgres, startRedis, startServer, waitFor, type PrivatePostgres, type PrivateRedis, type ServerProcess } from './processes.js';

const BEFORE = 10;
const DURING = 20;
const AFTER = 20;
const OFFLINE = 10;

let pg: PrivatePostgres;
let redis: PrivateRedis;
let server: ServerProcess;
let env: Record<string, string>;
let socket: Socket | null = null;

beforeAll(async () => {
  [pg, redis] = await Promise.all([privatePostgres(inject('faultCluster')), startRedis()]);
  env = { ...serverSecrets(), DATABASE_URL: pg.url, REDIS_URL: redis.url };
  server = await startServer(env);
}, 90_000);

afterAll(async () => {
  socket?.disconnect();
  await server?.kill('SIGKILL');
  await redis?.close();
});

describe('Redis restarted while agents are connected', () => {
  it('keeps serving HTTP, and the open socket receives every message event, those sent while Redis was down included', async () => {
    const { token, companyId } = await signIn(server, env.ADMIN_EMAIL!, env.ADMIN_PASSWORD!);
    const created = await api(server, token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    expect(created.status).toBe(201);
    const whatsappId = ((await created.json()) as { id: number }).id;

    const received: string[] = [];
    const client = io(server.url, { transports: ['websocket'], query: { token } });
    socket = client;
    client.on(`company-${companyId}-appMessage`, (event: { action?: string; message?: { body?: string; fromMe?: boolean } }) => {
      if (event.action === 'create' && event.message?.fromMe === false && event.message.body) received.push(event.message.body);
    });
    await waitFor('the socket to connect', async () => client.connected);

    const counters = newCounters();
    const number = '5541955500001';
    let n = 0;
    const send = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const body = `mensagem ${n++}`;
        counters.sent += 1;
        await deliver(sandboxDelivery(() => server.url, token, whatsappId, number, `redis-fault-${body}`, body), counters, Date.now() + 30_000);
        counters.acknowledged += 1;
      }
    };

    await send(BEFORE);
    await waitFor('the first events', async () => received.length === BEFORE);

    await redis.stop();
    // HTTP keeps answering, and customer messages are taken, while Redis is gone.
    await send(DURING);
    expect((await api(server, token, 'GET', '/tickets?showAll=true')).status).toBe(200);
    await sleep(1_000);
    await redis.start();
    await send(AFTER);

    // The agent's network drops after the restart: the socket reconnects and recovers what it missed
    // (Socket.IO connection-state recovery through the restarted Redis), without a page reload.
    await waitFor('the events sent so far', async () => received.length >= BEFORE + DURING + AFTER, 30_000).catch(() => undefined);
    let reconnected = false;
    client.io.once('reconnect', () => (reconnected = true));
    client.io.engine.close();
    await send(OFFLINE);
    await waitFor('the socket to reconnect', async () => reconnected && client.connected, 30_000);
    const recovered = client.recovered;

    const expected = Array.from({ length: BEFORE + DURING + AFTER + OFFLINE }, (_, i) => `mensagem ${i}`);
    await waitFor('every message event', async () => received.length >= expected.length, 30_000).catch(() => undefined);
    const stored = await storedInbound(pg.url, [whatsappId]);
    const missed = expected.filter((body) => !received.includes(body));
    const twice = received.filter((body, i) => received.indexOf(body) !== i);
    report('Redis restarted', { faults: 1, sent: counters.sent, stored: stored.length, lost: missed.length, duplicated: twice.length });

    expect(server.alive()).toBe(true);
    expect(counters.statuses.get(500) ?? 0).toBe(0);
    expect(stored).toHaveLength(expected.length);
    expect(received).toEqual(expected);
    expect(client.connected).toBe(true);
    expect(recovered).toBe(true);
  }, 120_000);
});
