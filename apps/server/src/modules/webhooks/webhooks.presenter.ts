import type { CreatedWebhook, Webhook, WebhookDelivery, WebhookDeliveryStatus, WebhookEvent } from '@atende/shared';
import type { WebhookDeliveryRow, WebhookRow } from '../../platform/db/schema.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The creation answer: the only one that carries the signing secret. */
export function presentCreatedWebhook(row: WebhookRow, secret: string): CreatedWebhook {
  return { ...presentWebhook(row), secret };
}

export function presentWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.event as WebhookEvent,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    latencyMs: row.latencyMs,
    responseExcerpt: row.responseExcerpt,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    deliveredAt: iso(row.deliveredAt),
  };
}
