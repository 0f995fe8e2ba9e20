/**
 * Event webhook figures (issue 34 item 3), on the server under test:
 *
 * - **throughput**: `backlog` events are written to the outbox in one statement (the rows
 *   `recordWebhookEvent` writes, in bulk), spread over `keys` ordering
 *   keys (tickets); the figure is the distinct event ids the local receiver got per second,
 *   from the commit to the last one.
 * - **latency**: customer messages are posted to the sandbox connection at a fixed rate; the
 *   webhook listens to `message.created`, and each delivery's delay is the receiver's clock
 *   minus the message's `createdAt` (stored by the server, same machine clock).
 *
 * The receiver answers 200 at once, on loopback (the server runs with OUTBOUND_ALLOW_PRIVATE=127.0.0.1).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendAtRate, wallClock } from './fanout.js';
import { summarize } from './load.js';
import type { Database } from '../apps/server/src/platform/db/client.js';

interface Receiver {
  url: string;
  /** Distinct event ids received, with the wall-clock time of the first receipt. */
  firstSeen: Map<string, number>;
  /** Every POST (duplicates included). */
  posts: number;
  /** Per message.created delivery: the receiver's time minus the message's createdAt (ms). */
  messageDelays: number[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const firstSeen = new Map<string, number>();
  const messageDelays: number[] = [];
  let posts = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = wallClock();
      response.statusCode = 200;
      response.end('ok');
      posts += 1;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; event: string; data?: { createdAt?: string } };
        if (firstSeen.has(body.id)) return;
        firstSeen.set(body.id, now);
        if (body.event === 'message.created' && body.data?.createdAt) messageDelays.push(now - Date.parse(body.data.createdAt));
      } catch {
        // not a delivery
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench-events`,
    firstSeen,
    messageDelays,
    get posts() {
      return posts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function call<T>(url: string, token: string, method: string, pathAndQuery: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > until) return false;
    await sleep(20);
  }
  return true;
}

/** Events delivered per second from a backlog written through the outbox in one commit. */
export async function webhookThroughput(options: { url: string; token: string; database: Database; companyId: number; backlog: number; keys: number }) {
  const { WEBHOOKS_DUE_CHANNEL } = await import('../apps/server/src/modules/webhooks/webhook-outbox.js');
  const { sql } = await import('drizzle-orm');
  const receiver = await startReceiver();
  const hook = await call<{ id: number }>(options.url, options.token, 'POST', '/webhooks', { url: receiver.url, events: ['ticket.updated'], description: 'bench throughput' });
  try {
    // The rows recordWebhookEvent writes (one per event and listening webhook, ids growing
    // in event order), written in one statement: the writing is not measured, and one
    // statement per event took minutes for the default backlog.
    const committing = performance.now();
    await options.database.db.execute(sql`
      WITH inserted AS (
        INSERT INTO webhook_deliveries (company_id, webhook_id, event_id, event, ordering_key, data)
        SELECT ${options.companyId}, ${hook.id}, gen_random_uuid()::text, 'ticket.updated', 'ticket:bench-' || (i % ${options.keys}),
               jsonb_build_object('id', i % ${options.keys}, 'bench', i)
        FROM generate_series(0, ${options.backlog - 1}) AS i ORDER BY i
        RETURNING 1
      )
      SELECT pg_notify(${WEBHOOKS_DUE_CHANNEL}, '') FROM (SELECT 1 FROM inserted LIMIT 1) AS any_inserted`);
    const committed = wallClock();
    const writeSeconds = (performance.now() - committing) / 1000;
    const complete = await waitUntil(() => receiver.firstSeen.size >= options.backlog, 300_000);
    const last = Math.max(...receiver.firstSeen.values());
    const seconds = (last - committed) / 1000;
    return {
      rps: Math.round(receiver.firstSeen.size / seconds),
      requests: receiver.firstSeen.size,
      errors: complete ? 0 : options.backlog - receiver.firstSeen.size,
      extra: { backlog: options.backlog, orderingKeys: options.keys, drainSeconds: Math.round(seconds * 10) / 10, outboxWriteSeconds: Math.round(writeSeconds * 10) / 10, posts: receiver.posts },
    };
  } finally {
    await call(options.url, options.token, 'DELETE', `/webhooks/${hook.id}`);
    await receiver.close();
  }
}

/** From a customer message stored to its `message.created` delivery received, at a fixed rate of messages. */
export async function webhookLatency(options: { url: string; token: string; connectionId: number; rate: number; seconds: number; warmup: number; conversations: number }) {
  const receiver = await startReceiver();
  const hook = await call<{ id: number }>(options.url, options.token, 'POST', '/webhooks', { url: receiver.url, events: ['message.created'], description: 'bench latency' });
  try {
    const send = (duration: number, prefix: string) =>
      sendAtRate({
        url: `${options.url}/sandbox/${options.connectionId}/inbound`,
        headers: () => ({ authorization: `Bearer ${options.token}` }),
        rate: options.rate,
        seconds: duration,
        body: (i) => ({ from: `55${String(11_800_000_000 + (i % options.conversations))}`, id: `${prefix}-${i}`, body: `webhook bench ${i}` }),
      });
    // The warm-up opens the conversations; the measured seconds write into them.
    await send(options.warmup, `wh-warm-${Date.now()}`);
    await sleep(1000);
    receiver.messageDelays.length = 0;
    const seen = receiver.firstSeen.size;
    const sends = await send(options.seconds, `wh-${Date.now()}`);
    const expected = sends.sent - sends.errors;
    await waitUntil(() => receiver.messageDelays.length >= expected, 30_000);
    const summary = summarize(receiver.messageDelays, sends.errors, options.seconds);
    return {
      p50: summary.p50,
      p90: summary.p90,
      p99: summary.p99,
      requests: sends.sent,
      errors: sends.errors,
      rps: sends.rps,
      extra: { deliveries: receiver.messageDelays.length, expectedDeliveries: expected, distinctEvents: receiver.firstSeen.size - seen, maxSendLagMs: sends.maxLagMs },
    };
  } finally {
    await call(options.url, options.token, 'DELETE', `/webhooks/${hook.id}`);
    await receiver.close();
  }
}
