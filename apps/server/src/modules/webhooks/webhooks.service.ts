import type { WebhookBody, WebhookDeliveriesQuery, WebhookUpdateBody } from '@atende/shared';
import { changedFields, recordAudit, recordedFields } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import { checkOutboundUrl, outboundPolicy, OutboundRefusedError } from '../../platform/http/outbound.js';
import type { Platform } from '../../platform/platform.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../platform/db/schema.js';
import { notifyWebhookDeliveriesDue } from './webhook-outbox.js';
import { newWebhookSecret } from './webhook-secret.js';
import {
  deleteWebhookRow,
  findWebhook,
  insertWebhook,
  listDeliveryRows,
  listWebhookRows,
  reopenDeliveryRow,
  updateWebhookRow,
  type WebhookChanges,
} from './webhooks.repo.js';

export type WebhooksDeps = Pick<Platform, 'db' | 'config' | 'secrets' | 'events' | 'logger'>;

/**
 * The URL must not name an internal address (the outbound policy, OUTBOUND_ALLOW_PRIVATE);
 * every delivery checks again at connect time, since DNS may change.
 */
async function checkWebhookUrl(deps: WebhooksDeps, url: string): Promise<void> {
  try {
    await checkOutboundUrl(outboundPolicy(deps.config), url);
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw new AppError('ERR_VALIDATION', undefined, { fields: { url: ['Invalid URL'] } });
    throw new AppError('ERR_OUTBOUND_URL_REFUSED', undefined, { message: error.message, fields: { url: [error.message] } });
  }
}

async function ownWebhook(deps: WebhooksDeps, ctx: RequestContext, id: number): Promise<WebhookRow> {
  const row = await findWebhook(deps.db, ctx, id);
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  return row;
}

/** What the audit log keeps of a webhook (never its secret). */
const WEBHOOK_AUDITED = ['url', 'events', 'description', 'enabled'] as const satisfies readonly (keyof WebhookRow)[];

/** `GET /webhooks`: the company's webhooks, newest first; never a secret. */
export async function listWebhooks(deps: WebhooksDeps, ctx: RequestContext): Promise<WebhookRow[]> {
  requireAdmin(ctx);
  return listWebhookRows(deps.db, ctx);
}

/** `POST /webhooks`: subscribes a URL; the signing secret leaves here once. */
export async function createWebhook(deps: WebhooksDeps, ctx: RequestContext, body: WebhookBody): Promise<{ row: WebhookRow; secret: string }> {
  requireAdmin(ctx);
  await checkWebhookUrl(deps, body.url);
  const secret = newWebhookSecret();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertWebhook(tx, ctx, { url: body.url, events: body.events, description: body.description ?? '', secretSealed: deps.secrets.seal(secret) });
    await recordAudit(tx, ctx, { action: 'webhook.created', entityId: inserted.id, changes: recordedFields(inserted, WEBHOOK_AUDITED) });
    return inserted;
  });
  deps.logger.child({ module: 'webhooks' }).info({ companyId: ctx.companyId, webhookId: row.id, events: row.events }, 'webhook created');
  deps.events.emit('webhook.saved', { companyId: ctx.companyId, webhook: row });
  return { row, secret };
}

/** `PUT /webhooks/:id`: the fields sent; turning it on again clears why it was off and its failing clock. */
export async function updateWebhook(deps: WebhooksDeps, ctx: RequestContext, id: number, body: WebhookUpdateBody): Promise<WebhookRow> {
  requireAdmin(ctx);
  const current = await ownWebhook(deps, ctx, id);
  if (body.url !== undefined && body.url !== current.url) await checkWebhookUrl(deps, body.url);
  const changes: WebhookChanges = {};
  if (body.url !== undefined) changes.url = body.url;
  if (body.events !== undefined) changes.events = body.events;
  if (body.description !== undefined) changes.description = body.description;
  if (body.enabled !== undefined) {
    changes.enabled = body.enabled;
    if (body.enabled) {
      changes.disabledReason = null;
      changes.failingSince = null;
    }
  }
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateWebhookRow(tx, ctx, id, changes);
    if (updated) await recordAudit(tx, ctx, { action: 'webhook.updated', entityId: id, changes: changedFields(current, updated, WEBHOOK_AUDITED) });
    return updated;
  });
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  // Deliveries held while it was off go out now.
  if (row.enabled && !current.enabled) await notifyWebhookDeliveriesDue(deps.db);
  deps.events.emit('webhook.saved', { companyId: ctx.companyId, webhook: row });
  return row;
}

/** `DELETE /webhooks/:id`: the webhook and its delivery log. */
export async function deleteWebhook(deps: WebhooksDeps, ctx: RequestContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const deleted = await deps.db.transaction(async (tx) => {
    const found = await deleteWebhookRow(tx, ctx, id);
    if (found) await recordAudit(tx, ctx, { action: 'webhook.deleted', entityId: id });
    return found;
  });
  if (!deleted) throw new AppError('ERR_NO_WEBHOOK_FOUND');
  deps.logger.child({ module: 'webhooks' }).info({ companyId: ctx.companyId, webhookId: id }, 'webhook deleted');
  deps.events.emit('webhook.deleted', { companyId: ctx.companyId, webhookId: id });
}

/** `GET /webhooks/:id/deliveries`: the delivery log, newest first, a page at a time. */
export async function listWebhookDeliveries(deps: WebhooksDeps, ctx: RequestContext, id: number, query: WebhookDeliveriesQuery): Promise<{ rows: WebhookDeliveryRow[]; hasMore: boolean }> {
  requireAdmin(ctx);
  await ownWebhook(deps, ctx, id);
  return listDeliveryRows(deps.db, ctx, id, query);
}

/** `POST /webhooks/:id/deliveries/:deliveryId/retry`: a new attempt of the same event (same id) now, whatever its status. */
export async function retryWebhookDelivery(deps: WebhooksDeps, ctx: RequestContext, id: number, deliveryId: number): Promise<WebhookDeliveryRow> {
  requireAdmin(ctx);
  await ownWebhook(deps, ctx, id);
  const row = await reopenDeliveryRow(deps.db, ctx, id, deliveryId);
  if (!row) throw new AppError('ERR_NO_WEBHOOK_DELIVERY_FOUND');
  await notifyWebhookDeliveriesDue(deps.db);
  deps.events.emit('webhook.delivery', { companyId: ctx.companyId, delivery: row });
  return row;
}
