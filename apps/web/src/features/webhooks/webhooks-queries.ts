import type { Webhook, WebhookDelivery, WebhookDeliveryPage, WebhookDeliveryStatus, WebhookEvent, WebhookRealtimeEvent } from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export const webhookKeys = {
  list: ['webhooks', 'list'] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
  deliveryPages: (id: number, status: WebhookDeliveryStatus | '') => ['webhooks', 'deliveries', id, status] as const,
};

/** The company's webhooks (`GET /webhooks`, admins). */
export function useWebhooks() {
  const { api } = useSession();
  return useQuery({ queryKey: webhookKeys.list, queryFn: async () => (await api.get<{ webhooks: Webhook[] }>('/webhooks')).webhooks });
}

/** A webhook's delivery log, newest first, a page at a time (`GET /webhooks/:id/deliveries`), optionally of one status. */
export function useWebhookDeliveries(webhookId: number, status: WebhookDeliveryStatus | '') {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveryPages(webhookId, status),
    queryFn: ({ pageParam }) => api.get<WebhookDeliveryPage>(`/webhooks/${webhookId}/deliveries`, { status, pageNumber: pageParam }),
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

/** The list with one webhook replaced (or put first when new). */
export function withWebhook(list: Webhook[] | undefined, webhook: Webhook): Webhook[] | undefined {
  if (!list) return list;
  return list.some((item) => item.id === webhook.id) ? list.map((item) => (item.id === webhook.id ? webhook : item)) : [webhook, ...list];
}

/**
 * Cached log pages with one delivery replaced; null when no page holds it (a new delivery).
 * A state older than the one shown (fewer attempts: "send again"'s answer arriving after the
 * socket told of the attempt it caused) is ignored.
 */
function withDelivery(data: InfiniteData<WebhookDeliveryPage> | undefined, delivery: WebhookDelivery): InfiniteData<WebhookDeliveryPage> | null {
  if (!data?.pages.some((page) => page.deliveries.some((item) => item.id === delivery.id))) return null;
  const newer = (item: WebhookDelivery) => item.id === delivery.id && delivery.attempts >= item.attempts;
  return { ...data, pages: data.pages.map((page) => ({ ...page, deliveries: page.deliveries.map((item) => (newer(item) ? delivery : item)) })) };
}

/**
 * A delivery's new state in the webhook's cached logs: replaced in place where shown (in a log
 * filtered by status too, until it is reloaded); a new one, or one a filtered log lacks, reloads
 * that webhook's open logs.
 */
export function cacheDelivery(queryClient: QueryClient, webhookId: number, delivery: WebhookDelivery): void {
  let unknown = false;
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<WebhookDeliveryPage>>({ queryKey: webhookKeys.deliveries(webhookId) })) {
    const next = withDelivery(data, delivery);
    if (next) queryClient.setQueryData(key, next);
    else unknown = true;
  }
  // Not cancelling a reload already running: a burst of deliveries must not keep restarting it.
  if (unknown) void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }, { cancelRefetch: false });
}

/**
 * `company-{id}-webhook` (admins): another admin's change to a webhook, the server turning a
 * failing one off, and every delivery attempt, so the list and an open log stay current.
 */
export function useWebhookEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<WebhookRealtimeEvent>('webhook', (payload) => {
    if (payload.action === 'update') {
      queryClient.setQueryData<Webhook[]>(webhookKeys.list, (list) => withWebhook(list, payload.webhook));
      return;
    }
    if (payload.action === 'delete') {
      queryClient.setQueryData<Webhook[]>(webhookKeys.list, (list) => list?.filter((item) => item.id !== payload.webhookId));
      return;
    }
    cacheDelivery(queryClient, payload.webhookId, payload.delivery);
  });
}
