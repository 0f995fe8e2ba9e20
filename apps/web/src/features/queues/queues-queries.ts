import type { PresentedQueue, QueueEventPayload } from '@atende/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';
import type { QueueOption } from './option-tree';

/** The same key the queue pickers (tickets, transfer) read, so one cache serves them all. */
export const queuesKey = ['queues'] as const;
export const queueOptionsKey = (queueId: number) => ['queue-options', queueId] as const;

export function useQueues() {
  const { api } = useSession();
  return useQuery({ queryKey: queuesKey, queryFn: () => api.get<PresentedQueue[]>('/queue') });
}

/** The server's order: orderQueue first (queues without one last), then name. */
export function byQueueOrder(a: PresentedQueue, b: PresentedQueue): number {
  if (a.orderQueue !== b.orderQueue) {
    if (a.orderQueue === null) return 1;
    if (b.orderQueue === null) return -1;
    return a.orderQueue - b.orderQueue;
  }
  return a.name.localeCompare(b.name) || a.id - b.id;
}

/** Live create/update upsert a queue in its place; delete removes it (spec part 2 §4). */
export function applyQueueEvent(list: readonly PresentedQueue[], event: QueueEventPayload): PresentedQueue[] {
  if (event.action === 'delete') return list.filter((queue) => queue.id !== Number(event.queueId));
  return [...list.filter((queue) => queue.id !== event.queue.id), event.queue].sort(byQueueOrder);
}

export function cacheQueueEvent(queryClient: QueryClient, event: QueueEventPayload): void {
  queryClient.setQueryData<PresentedQueue[]>(queuesKey, (list) => (list ? applyQueueEvent(list, event) : list));
  if (event.action === 'delete') queryClient.removeQueries({ queryKey: queueOptionsKey(Number(event.queueId)) });
}

/** `company-{id}-queue` (spec part 2 §7). */
export function useQueueEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<QueueEventPayload>('queue', (payload) => cacheQueueEvent(queryClient, payload));
}

/** The whole option tree of a queue (`parentId=-1`: the roots, each with its subtree). */
export function useQueueOptions(queueId: number | null) {
  const { api } = useSession();
  return useQuery({
    queryKey: queueOptionsKey(queueId ?? 0),
    queryFn: () => api.get<QueueOption[]>('/queue-options', { queueId, parentId: -1 }),
    enabled: queueId !== null,
  });
}
