import pg from 'pg';
import { customerTextValue, metaSignature, webhookEnvelope } from '../test/fake-graph-api.js';
import { api, sleep, type ServerProcess } from './processes.js';

/**
 * A customer's phone for the fault suite: sends its chat's messages one after the
 * other, each until the server acknowledges it (2xx), as WhatsApp and Meta do;
 * a share of them is delivered twice on purpose (a redelivery).
 */
export interface Delivery {
  /** Posts the message once; resolves with the HTTP status, rejects when the connection fails. */
  post(): Promise<number>;
}

export interface BurstCounters {
  sent: number;
  acknowledged: number;
  redelivered: number;
  /** Deliveries that failed (connection refused or reset, 5xx) and were retried. */
  retried: number;
  statuses: Map<number, number>;
}

export function newCounters(): BurstCounters {
  return { sent: 0, acknowledged: 0, redelivered: 0, retried: 0, statuses: new Map() };
}

/** Delivers until acknowledged; `stopAt` bounds the wait (a test never hangs). */
export async function deliver(delivery: Delivery, counters: BurstCounters, deadline: number): Promise<void> {
  for (;;) {
    let status = 0;
    try {
      status = await delivery.post();
    } catch {
      status = 0;
    }
    counters.statuses.set(status, (counters.statuses.get(status) ?? 0) + 1);
    if (status >= 200 && status < 300) return;
    if (status >= 400 && status < 500) throw new Error(`delivery refused with ${status}`);
    counters.retried += 1;
    if (Date.now() > deadline) throw new Error('delivery not acknowledged before the deadline');
    await sleep(100);
  }
}

/** Every chat sends its messages in order; chats run side by side. `redeliverEvery` of 10 = 10 %. */
export async function runChats(
  chats: Delivery[][],
  counters: BurstCounters,
  options: { redeliverEvery: number; deadline: number; onAcknowledged?: () => void },
): Promise<void> {
  let n = 0;
  await Promise.all(
    chats.map(async (chat) => {
      for (const message of chat) {
        counters.sent += 1;
        await deliver(message, counters, options.deadline);
        counters.acknowledged += 1;
        options.onAcknowledged?.();
        if (++n % options.redeliverEvery === 0) {
          counters.redelivered += 1;
          await deliver(message, counters, options.deadline);
        }
      }
    }),
  );
}

export function sandboxDelivery(baseUrl: () => string, token: string, whatsappId: number, from: string, id: string, body: string): Delivery {
  return {
    async post() {
      const response = await fetch(`${baseUrl()}/sandbox/${whatsappId}/inbound`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from, id, body, name: `Cliente ${from.slice(-3)}` }),
      });
      await response.arrayBuffer();
      return response.status;
    },
  };
}

export interface CloudApiTarget {
  phoneNumberId: string;
  wabaId: string;
  appSecret: string;
}

const APP_SECRET = 'fault-suite-app-secret';

/** The burst's two connections: a sandbox one, and a Cloud API one on the fake Graph API whose webhooks are signed with `target`. */
export async function createBurstConnections(
  server: Pick<ServerProcess, 'url'>,
  token: string,
  graph: { phoneNumberId: string; wabaId: string; accessToken: string },
): Promise<{ sandboxId: number; cloudId: number; target: CloudApiTarget }> {
  const create = async (body: unknown) => {
    const response = await api(server, token, 'POST', '/whatsapp', body);
    if (response.status !== 201) throw new Error(`POST /whatsapp: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: number }).id;
  };
  const sandboxId = await create({ name: 'Sandbox', provider: 'sandbox' });
  const cloudId = await create({
    name: 'Oficial',
    provider: 'cloud-api',
    cloudApi: { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId, accessToken: graph.accessToken, appSecret: APP_SECRET, verifyToken: 'fault-verify' },
  });
  return { sandboxId, cloudId, target: { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId, appSecret: APP_SECRET } };
}

/** One Meta webhook call carrying one text message, signed with the app secret as Meta signs it. */
export function cloudApiDelivery(baseUrl: () => string, target: CloudApiTarget, from: string, id: string, body: string, timestamp: number): Delivery {
  const raw = JSON.stringify(webhookEnvelope(target, [customerTextValue(from, id, body, timestamp)]));
  const signature = metaSignature(raw, target.appSecret);
  return {
    async post() {
      const response = await fetch(`${baseUrl()}/cloud-api/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body: raw,
      });
      await response.arrayBuffer();
      return response.status;
    },
  };
}

export interface StoredMessage {
  externalId: string;
  number: string;
  whatsappId: number;
}

/** Customer messages of the connections as the app lists them: per chat, by (created_at, id). */
export async function storedInbound(url: string, whatsappIds: number[]): Promise<StoredMessage[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ external_id: string; number: string; whatsapp_id: number }>(
      `select m.external_id, c.number, m.whatsapp_id from messages m join contacts c on c.id = m.contact_id
        where m.whatsapp_id = any($1::int[]) and not m.from_me order by m.created_at, m.id`,
      [whatsappIds],
    );
    return result.rows.map((row) => ({ externalId: row.external_id, number: row.number, whatsappId: row.whatsapp_id }));
  } finally {
    await client.end();
  }
}

export interface Verdict {
  expected: number;
  stored: number;
  lost: string[];
  duplicated: string[];
  /** Chats whose stored order differs from the order sent. */
  outOfOrder: string[];
}

/** Compares what was sent (per chat, in order) with what is stored. */
export function judge(sent: Map<string, string[]>, stored: StoredMessage[]): Verdict {
  const seen = new Map<string, number>();
  const byChat = new Map<string, string[]>();
  for (const row of stored) {
    seen.set(row.externalId, (seen.get(row.externalId) ?? 0) + 1);
    const key = `${row.whatsappId}:${row.number}`;
    byChat.set(key, [...(byChat.get(key) ?? []), row.externalId]);
  }
  const expected = [...sent.values()].flat();
  const lost = expected.filter((id) => !seen.has(id));
  const duplicated = [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  const outOfOrder = [...sent].filter(([key, ids]) => JSON.stringify(byChat.get(key) ?? []) !== JSON.stringify(ids)).map(([key]) => key);
  return { expected: expected.length, stored: stored.length, lost, duplicated, outOfOrder };
}

/**
 * Totals the suite prints for CI (one line per test, summed by .ci/run). `unannounced`: stored
 * messages whose live event never reached a connected agent's socket (where a test watches one).
 */
export function report(
  fault: string,
  totals: { faults: number; sent: number; stored: number; lost: number; duplicated: number; unannounced?: number },
): void {
  process.stdout.write(
    `FAULTS ${JSON.stringify({
      fault,
      faultsInjected: totals.faults,
      messagesSent: totals.sent,
      stored: totals.stored,
      lost: totals.lost,
      duplicated: totals.duplicated,
      ...(totals.unannounced === undefined ? {} : { unannounced: totals.unannounced }),
    })}\n`,
  );
}
