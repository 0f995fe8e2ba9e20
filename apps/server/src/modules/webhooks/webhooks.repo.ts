import { and, desc, eq, sql } from 'drizzle-orm';
import { WEBHOOK_DELIVERIES_PAGE_SIZE, type WebhookDeliveryStatus } from '@atende/shared';
import type { DbOrTx } from '../../platform/db/client.js';
import { webhookDeliveries, webhooks, type WebhookDeliveryRow, type WebhookRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import type { TenantScope } from '../../platform/http/context.js';

/** Most webhooks a company lists (there is no paging: a company has a handful). */
const WEBHOOK_LIST_LIMIT = 200;

export async function listWebhookRows(db: DbOrTx, scope: TenantScope): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(inTenant(webhooks, scope)).orderBy(desc(webhooks.createdAt), desc(webhooks.id)).limit(WEBHOOK_LIST_LIMIT);
}

export async function findWebhook(db: DbOrTx, scope: TenantScope, id: number): Promise<WebhookRow | null> {
  const [row] = await db.select().from(webhooks).where(inTenant(webhooks, scope, eq(webhooks.id, id))).limit(1);
  return row ?? null;
}

export async function insertWebhook(db: DbOrTx, scope: TenantScope, values: Pick<WebhookRow, 'url' | 'events' | 'description' | 'secretSealed'>): Promise<WebhookRow> {
  const [row] = await db
    .insert(webhooks)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  if (!row) throw new Error('webhook insert returned nothing');
  return row;
}

export type WebhookChanges = Partial<Pick<WebhookRow, 'url' | 'events' | 'description' | 'enabled' | 'disabledReason' | 'failingSince'>>;

export async function updateWebhookRow(db: DbOrTx, scope: TenantScope, id: number, changes: WebhookChanges): Promise<WebhookRow | null> {
  const [row] = await db
    .update(webhooks)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(inTenant(webhooks, scope, eq(webhooks.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteWebhookRow(db: DbOrTx, scope: TenantScope, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(inTenant(webhooks, scope, eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/** A page of a webhook's delivery log, newest first; one row more than a page tells whether there are more. */
export async function listDeliveryRows(
  db: DbOrTx,
  scope: TenantScope,
  webhookId: number,
  query: { status?: WebhookDeliveryStatus; pageNumber: number },
): Promise<{ rows: WebhookDeliveryRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(inTenant(webhookDeliveries, scope, eq(webhookDeliveries.webhookId, webhookId), query.status ? eq(webhookDeliveries.status, query.status) : undefined))
    .orderBy(desc(webhookDeliveries.id))
    .limit(WEBHOOK_DELIVERIES_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * WEBHOOK_DELIVERIES_PAGE_SIZE);
  return { rows: rows.slice(0, WEBHOOK_DELIVERIES_PAGE_SIZE), hasMore: rows.length > WEBHOOK_DELIVERIES_PAGE_SIZE };
}

/**
 * "Send again": the delivery goes back to pending, due now, its lease dropped; the
 * same event id. A delivery being sent right now keeps its lease (the worker settles
 * it; the answer shows it pending).
 */
export async function reopenDeliveryRow(db: DbOrTx, scope: TenantScope, webhookId: number, deliveryId: number): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: sql`now()`, deliveredAt: null })
    .where(inTenant(webhookDeliveries, scope, and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, deliveryId))))
    .returning();
  return row ?? null;
}
