import { z } from 'zod';
import { flag } from './conventions.js';

/**
 * Event webhooks (issue 34 item 3): the events a company may subscribe a URL to.
 * `message.updated` covers acks, edits and deletions; `ticket.updated` a ticket's
 * status, user, queue and tags. docs/webhooks.md describes each payload.
 */
export const WEBHOOK_EVENTS = [
  'message.created',
  'message.updated',
  'ticket.created',
  'ticket.updated',
  'sla.breached',
  'contact.created',
  'contact.updated',
  'campaign.finished',
  'connection.updated',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Every secret starts with this (`whsec_` + 32 random bytes, base64url). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Deliveries a page of the log holds. */
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;
/** How much of the receiver's answer the log keeps. */
export const WEBHOOK_RESPONSE_EXCERPT_CHARS = 500;

const webhookUrl = () =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .max(2048, 'validation.tooLong')
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, 'validation.invalidValue');

const webhookEvents = () =>
  z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'validation.invalidValue' }), { error: 'validation.required' })
    .min(1, 'validation.required')
    .max(WEBHOOK_EVENTS.length, 'validation.tooLong')
    .refine((events) => new Set(events).size === events.length, 'validation.invalidValue');

const webhookDescription = () => z.string().trim().max(200, 'validation.tooLong');

export const WebhookBody = z.object({
  url: webhookUrl(),
  events: webhookEvents(),
  description: webhookDescription().optional(),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

/** `PUT /webhooks/:id`: only the fields sent change; `enabled: true` clears `disabledReason` and the failing clock. */
export const WebhookUpdateBody = z.object({
  url: webhookUrl().optional(),
  events: webhookEvents().optional(),
  description: webhookDescription().optional(),
  enabled: flag().optional(),
});
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBody>;

export const WebhookDeliveriesQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: 'validation.invalidValue' }).optional(),
  pageNumber: z.coerce.number({ error: 'validation.invalidNumber' }).int('validation.invalidNumber').min(1, 'validation.invalidNumber').max(100_000, 'validation.invalidNumber').optional().default(1),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

export const WebhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  enabled: z.boolean(),
  /** Why the server turned it off (`failing`: its deliveries failed for 24 h), or null. */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** `POST /webhooks`'s answer: the only time the signing secret is shown. */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) });
export type WebhookList = z.infer<typeof WebhookListSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.number(),
  /** The event's id, the same in every attempt (and `x-atende-event-id`): receivers de-duplicate on it. */
  eventId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  latencyMs: z.number().nullable(),
  /** The first 500 characters of the receiver's last answer. */
  responseExcerpt: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryPageSchema = z.object({ deliveries: z.array(WebhookDeliverySchema), hasMore: z.boolean() });
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;

/** `POST /webhooks/:id/deliveries/:deliveryId/retry` (202): the delivery, queued again. */
export const RetriedWebhookDeliverySchema = z.object({ delivery: WebhookDeliverySchema });
export type RetriedWebhookDelivery = z.infer<typeof RetriedWebhookDeliverySchema>;

/** `company-{id}-webhook`, to the company's admins. */
export type WebhookRealtimeEvent = { action: 'update'; webhook: Webhook } | { action: 'delete'; webhookId: number } | { action: 'delivery'; webhookId: number; delivery: WebhookDelivery };

/** What a receiver gets (the JSON body of every delivery). */
export interface WebhookPayload<Data = unknown> {
  id: string;
  event: WebhookEvent;
  companyId: number;
  createdAt: string;
  data: Data;
}
