import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { users, webhookDeliveries, webhooks, type WebhookDeliveryRow, type WebhookRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * The sender's statements (webhook-sender.ts). They run across companies: the worker
 * serves every tenant, and each row carries its company.
 */

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  companyId: number;
  webhookId: number;
  eventId: string;
  event: string;
  data: unknown;
  createdAt: Date;
  attempts: number;
  url: string;
  secretSealed: string;
}

type RawRow = Record<string, unknown>;
const rowsOf = (result: unknown): RawRow[] => (Array.isArray(result) ? result : ((result as { rows?: RawRow[] }).rows ?? [])) as RawRow[];
const dateOf = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/**
 * Claims up to `limit` due deliveries, each the oldest unfinished one of its webhook's
 * ordering key (a later one waits for it to be delivered or failed), under a lease of
 * `leaseMs`: a worker that dies leaves them to the next claim once it expires. SKIP
 * LOCKED lets several nodes claim at once without taking the same row. Deliveries of a
 * webhook that is turned off wait.
 */
export async function claimDueDeliveries(db: DbOrTx, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const result = await db.transaction(async (tx) => {
    // The claim walks webhook_deliveries_due_idx in its order and stops at the LIMIT (the
    // first due heads of their keys come early in it): a few ms whatever the backlog. Left
    // alone, the planner misjudges how many rows the NOT EXISTS keeps and reads every due
    // row to sort them (about 130 ms for 13,000 pending, issue 34). Only for this transaction.
    await tx.execute(sql`SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`);
    return tx.execute(sql`
    UPDATE webhook_deliveries d
    SET locked_until = now() + make_interval(secs => ${leaseMs / 1000}), attempts = d.attempts + 1, last_attempt_at = now()
    FROM webhooks w
    WHERE w.id = d.webhook_id AND d.id IN (
      SELECT c.id FROM webhook_deliveries c
      JOIN webhooks cw ON cw.id = c.webhook_id AND cw.enabled
      WHERE c.status = 'pending' AND c.next_attempt_at <= now()
        AND (c.locked_until IS NULL OR c.locked_until < now())
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries o
          WHERE o.status = 'pending' AND o.webhook_id = c.webhook_id AND o.ordering_key = c.ordering_key AND o.id < c.id
        )
      ORDER BY c.next_attempt_at, c.id
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED
    )
    RETURNING d.id, d.company_id, d.webhook_id, d.event_id, d.event, d.data, d.created_at, d.attempts, w.url, w.secret_sealed`);
  });
  return rowsOf(result).map((row) => ({
    id: Number(row.id),
    companyId: Number(row.company_id),
    webhookId: Number(row.webhook_id),
    eventId: String(row.event_id),
    event: String(row.event),
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as unknown) : row.data,
    createdAt: dateOf(row.created_at),
    attempts: Number(row.attempts),
    url: String(row.url),
    secretSealed: String(row.secret_sealed),
  }));
}

/** The soonest time a pending delivery is due (for the sender's sleep), or null. */
export async function nextDueAt(db: DbOrTx): Promise<Date | null> {
  const result = await db.execute(sql`
    SELECT greatest(min(d.next_attempt_at), now()) AS due FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
    WHERE d.status = 'pending'`);
  const due = rowsOf(result)[0]?.due;
  return due ? dateOf(due) : null;
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
}

/**
 * Several 2xx answers settled in one statement (one commit, one disk flush, instead of
 * one per delivery), and their webhooks healthy again in a second one that writes only
 * when a failing clock was running. Answers the rows that were still pending.
 */
export async function settleDeliveredMany(db: DbOrTx, settled: readonly { delivery: ClaimedDelivery; outcome: AttemptOutcome }[]): Promise<WebhookDeliveryRow[]> {
  if (settled.length === 0) return [];
  const outcomes = JSON.stringify(
    Object.fromEntries(settled.map(({ delivery, outcome }) => [String(delivery.id), { code: outcome.statusCode, latency: outcome.latencyMs, excerpt: outcome.responseExcerpt }])),
  );
  const field = (name: string) => sql`(${outcomes}::jsonb -> (${webhookDeliveries.id})::text ->> ${name})`;
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: 'delivered',
      deliveredAt: sql`now()`,
      lockedUntil: null,
      lastStatusCode: sql`${field('code')}::int`,
      lastError: null,
      latencyMs: sql`${field('latency')}::int`,
      responseExcerpt: field('excerpt'),
    })
    .where(and(inArray(webhookDeliveries.id, settled.map(({ delivery }) => delivery.id)), eq(webhookDeliveries.status, 'pending')))
    .returning();
  const webhookIds = [...new Set(settled.map(({ delivery }) => delivery.webhookId))];
  // Each id is one company's webhook: the ids come from rows that carry their company.
  await db
    .update(webhooks)
    .set({ failingSince: null })
    .where(and(inArray(webhooks.id, webhookIds), sql`${webhooks.failingSince} IS NOT NULL`));
  return rows;
}

/**
 * A failed attempt: due again after `retryInMs`, never later than `retryForMs` after the
 * event; once that time has come, failed for good.
 */
export async function settleFailed(db: DbOrTx, delivery: ClaimedDelivery, outcome: AttemptOutcome, retryInMs: number, retryForMs: number): Promise<WebhookDeliveryRow | null> {
  const deadline = sql`${webhookDeliveries.createdAt} + make_interval(secs => ${retryForMs / 1000})`;
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      status: sql`CASE WHEN now() >= ${deadline} THEN 'failed' ELSE 'pending' END`,
      nextAttemptAt: sql`least(now() + make_interval(secs => ${retryInMs / 1000}), ${deadline})`,
      lockedUntil: null,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      latencyMs: outcome.latencyMs,
      responseExcerpt: outcome.responseExcerpt,
    })
    .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
    .returning();
  return row ?? null;
}

/**
 * Starts the webhook's failing clock (kept when already running) and, once it has run
 * for `disableAfterMs` without a success, turns the webhook off. Answers the webhook
 * when this call turned it off.
 */
export async function noteWebhookFailure(db: DbOrTx, delivery: ClaimedDelivery, disableAfterMs: number): Promise<WebhookRow | null> {
  const scope = { companyId: delivery.companyId };
  await db
    .update(webhooks)
    .set({ failingSince: sql`coalesce(${webhooks.failingSince}, now())` })
    .where(inTenant(webhooks, scope, eq(webhooks.id, delivery.webhookId)));
  const [disabled] = await db
    .update(webhooks)
    .set({ enabled: false, disabledReason: 'failing', updatedAt: sql`now()` })
    .where(inTenant(webhooks, scope, eq(webhooks.id, delivery.webhookId), eq(webhooks.enabled, true), sql`${webhooks.failingSince} <= now() - make_interval(secs => ${disableAfterMs / 1000})`))
    .returning();
  return disabled ?? null;
}

/** The company's admins' addresses (told when a webhook is turned off). */
export async function companyAdminEmails(db: DbOrTx, companyId: number): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(inTenant(users, { companyId }, eq(users.profile, 'admin')));
  return rows.map((row) => row.email);
}

/** Retention: finished deliveries (delivered or failed) older than `keepMs` go. Answers how many. */
export async function deleteOldDeliveries(db: DbOrTx, keepMs: number): Promise<number> {
  const deleted = await db
    .delete(webhookDeliveries)
    .where(sql`${webhookDeliveries.status} <> 'pending' AND ${webhookDeliveries.createdAt} < now() - make_interval(secs => ${keepMs / 1000})`)
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}
