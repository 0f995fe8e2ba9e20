import type { WebhookRealtimeEvent } from '@atende/shared';
import type { WebhookDeliveryRow, WebhookRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentWebhook, presentWebhookDelivery } from './webhooks.presenter.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'webhook.saved': { companyId: number; webhook: WebhookRow };
    'webhook.deleted': { companyId: number; webhookId: number };
    /** A delivery was attempted, settled or sent again. */
    'webhook.delivery': { companyId: number; delivery: WebhookDeliveryRow };
  }
}

/** `company-{id}-webhook`, to the company's admins only (the URL and the log are theirs). */
export function subscribeWebhookEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  const send = (companyId: number, payload: WebhookRealtimeEvent) => publisher.toRooms(companyId, [rooms.admins(companyId)], 'webhook', payload);
  events.on('webhook.saved', ({ companyId, webhook }) => send(companyId, { action: 'update', webhook: presentWebhook(webhook) }));
  events.on('webhook.deleted', ({ companyId, webhookId }) => send(companyId, { action: 'delete', webhookId }));
  events.on('webhook.delivery', ({ companyId, delivery }) => send(companyId, { action: 'delivery', webhookId: delivery.webhookId, delivery: presentWebhookDelivery(delivery) }));
}
