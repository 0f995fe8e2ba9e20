import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { WebhookEvent } from '@atende/shared';
import type { DbOrTx } from '../../platform/db/client.js';
import { webhooks } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * The outbox of event webhooks: every area that commits a change a webhook may hear
 * calls `recordWebhookEvent` with its transaction, so the delivery exists exactly when
 * the change does (a crash after commit still delivers it; a rollback never does). The
 * worker (webhook-sender.ts) sends it after commit.
 *
 * A company without a webhook on the event pays one indexed statement and writes
 * nothing; `data` (the entity as the API presents it) is only built when someone listens.
 */

/** Heard by every node's sender (LISTEN); PostgreSQL and PGlite deliver it at commit. */
export const WEBHOOKS_DUE_CHANNEL = 'atende_webhooks_due';

export interface WebhookEventInput {
  companyId: number;
  event: WebhookEvent;
  /**
   * The entity whose events reach each webhook in order: `ticket:<id>` (tickets and
   * their messages), `contact:<id>`, `connection:<id>`, `campaign:<id>`.
   */
  orderingKey: string;
  /** The body's `data`; read inside the transaction, only when a webhook listens. */
  data: () => unknown;
}

/** Where a message's media file path travels in `data` until the sender signs its link (webhook-sender.ts). */
export const WEBHOOK_MEDIA_PATH_KEY = '__mediaPath';

/** Whether an enabled webhook of the company listens to the event (the cheap statement). */
export async function webhookListens(tx: DbOrTx, companyId: number, event: WebhookEvent): Promise<boolean> {
  const rows = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(inTenant(webhooks, { companyId }, eq(webhooks.enabled, true), sql`${event} = ANY(${webhooks.events})`))
    .limit(1);
  return rows.length > 0;
}

/** Writes the event's deliveries (one per listening webhook, one event id) in the caller's transaction. */
export async function recordWebhookEvent(tx: DbOrTx, input: WebhookEventInput): Promise<void> {
  if (!(await webhookListens(tx, input.companyId, input.event))) return;
  const data = JSON.stringify((await input.data()) ?? null);
  await tx.execute(sql`
    WITH inserted AS (
      INSERT INTO webhook_deliveries (company_id, webhook_id, event_id, event, ordering_key, data)
      SELECT w.company_id, w.id, ${randomUUID()}, ${input.event}, ${input.orderingKey}, ${data}::jsonb
      FROM webhooks w
      WHERE w.company_id = ${input.companyId} AND w.enabled AND ${input.event} = ANY(w.events)
      RETURNING 1
    )
    SELECT pg_notify(${WEBHOOKS_DUE_CHANNEL}, '') FROM (SELECT 1 FROM inserted LIMIT 1) AS any_inserted`);
}

/** Several events of one transaction, in order (their ids grow in the order given). */
export async function recordWebhookEvents(tx: DbOrTx, inputs: readonly WebhookEventInput[]): Promise<void> {
  for (const input of inputs) await recordWebhookEvent(tx, input);
}

/** Wakes the senders (a delivery sent again, a webhook turned on); heard after the caller's commit. */
export async function notifyWebhookDeliveriesDue(db: DbOrTx): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${WEBHOOKS_DUE_CHANNEL}, '')`);
}

export interface ChangeWithEventsInput {
  companyId: number;
  event: WebhookEvent;
  /** `connection:` or `campaign:`: the changed row's id follows. */
  orderingPrefix: string;
  /** `UPDATE ... RETURNING <the row's columns, id among them>`: the change itself. */
  change: SQL;
  /** Each row's entity as the API presents it, read before the change (by id). */
  presented: ReadonlyMap<number, unknown>;
  /** A jsonb expression over the returned row `r`, laid over the presented entity (the columns the change wrote). */
  overlay: SQL;
}

/**
 * A change and its webhook events in ONE statement, for writers that hold no transaction
 * and must not open one (`writeSessionState`, a campaign's finish: they run beside other
 * transactions, and a nested one hung PGlite). The statement is atomic: an event exists
 * exactly when its row changed. Each event's data is the entity presented before the
 * change with the changed columns laid over from the updated row. Answers the changed ids.
 */
export async function changeWithWebhookEvents(db: DbOrTx, input: ChangeWithEventsInput): Promise<number[]> {
  const presented = JSON.stringify([...input.presented].map(([id, data]) => ({ id, data })));
  const result = (await db.execute(sql`
    with r as (${input.change}
    ), hooks as (
      select h.id from webhooks h where h.company_id = ${input.companyId} and h.enabled and ${input.event} = any(h.events)
    ), events as materialized (
      select r.id, gen_random_uuid()::text as event_id, p.data || ${input.overlay} as data
      from r join jsonb_to_recordset(${presented}::jsonb) as p(id int, data jsonb) on p.id = r.id
      where exists (select 1 from hooks)
    ), inserted as (
      insert into webhook_deliveries (id, company_id, webhook_id, event_id, event, ordering_key, data)
      overriding system value
      select nextval(pg_get_serial_sequence('webhook_deliveries', 'id')), ${input.companyId}, o.webhook_id, o.event_id, ${input.event}, ${input.orderingPrefix} || o.id, o.data
      from (select e.*, h.id as webhook_id from events e cross join hooks h order by e.id, h.id) o
      returning 1
    ), notified as (
      select pg_notify(${WEBHOOKS_DUE_CHANNEL}, '') from (select 1 from inserted limit 1) as any_inserted
    )
    select r.id, (select count(*) from notified) as notified from r`)) as unknown as { rows: { id: number | string }[] };
  return result.rows.map((row) => Number(row.id));
}
