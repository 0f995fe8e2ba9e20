import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

/** The events a webhook can subscribe to (issue 34), in the order the dialog lists them. */
export const WEBHOOK_EVENTS = [
  'message.created',
  'message.updated',
  'ticket.created',
  'ticket.updated',
  'contact.created',
  'contact.updated',
  'campaign.finished',
  'connection.updated',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A webhook as `GET /webhooks` lists it: never its secret. */
export interface Webhook {
  id: number;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  enabled: boolean;
  /** Why the server turned it off (repeated failures); null while it has not. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `POST /webhooks`'s answer: the only time the signing secret is shown. */
export interface CreatedWebhook extends Webhook {
  secret: string;
}

export interface WebhookDelivery {
  id: number;
  eventId: string;
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  hasMore: boolean;
}

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
  deliveryPages: (id: number, status: DeliveryStatus | '') => ['webhooks', 'deliveries', id, status] as const,
};

/** The company's webhooks (`GET /webhooks`, admins). */
export function useWebhooks() {
  const { api } = useSession();
  return useQuery({ queryKey: webhookKeys.list, queryFn: async () => (await api.get<{ webhooks: Webhook[] }>('/webhooks')).webhooks });
}

/** A webhook's delivery log, newest first, a page at a time (`GET /webhooks/:id/deliveries`), optionally of one status. */
export function useWebhookDeliveries(webhookId: number, status: DeliveryStatus | '') {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveryPages(webhookId, status),
    queryFn: ({ pageParam }) => api.get<DeliveryPage>(`/webhooks/${webhookId}/deliveries`, { status, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** How the list shows a webhook: on, turned off by an admin, or turned off by the server after failures. */
export function webhookStatus(webhook: Pick<Webhook, 'enabled' | 'disabledReason'>): 'active' | 'paused' | 'failing' {
  if (webhook.enabled) return 'active';
  return webhook.disabledReason ? 'failing' : 'paused';
}

/** The text key of an event's name (i18next reads `.` as a key separator, so the key has `_`). */
export function eventText(event: WebhookEvent): string {
  return `webhooks.events.${event.replace('.', '_')}`;
}

/** Whether the text is an http(s) address the server can be asked to call (its own policy decides the rest). */
export function isWebhookUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
