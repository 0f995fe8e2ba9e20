import type { PresentedQuickMessage, PresentedQuickMessagePage } from '@atende/shared';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

type QuickMessagePages = InfiniteData<PresentedQuickMessagePage, number>;

const quickMessageKeys = {
  all: ['quick-messages'] as const,
  lists: ['quick-messages', 'page'] as const,
  /** The composer's suggestions (`GET /quick-messages/list`, owned by the conversation screen). */
  usable: ['quick-messages', 'list'] as const,
  list: (search: string) => ['quick-messages', 'page', search] as const,
};

/** Spec part 2 §7: `GET /quick-messages` (searchParam, pageNumber) answers records and hasMore. */
export function useQuickMessagePages(search: string) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: quickMessageKeys.list(search),
    queryFn: ({ pageParam }) => api.get<PresentedQuickMessagePage>('/quick-messages', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

function matchesSearch(record: PresentedQuickMessage, search: string): boolean {
  return !search || record.shortcode.toLowerCase().includes(search) || record.message.toLowerCase().includes(search);
}

/** Live create/update (spec part 2 §4): replace in place, or add on top of a list whose search it matches. */
export function upsertQuickMessage(data: QuickMessagePages, record: PresentedQuickMessage, search: string): QuickMessagePages {
  const listed = data.pages.some((page) => page.records.some((r) => r.id === record.id));
  if (listed) return { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.map((r) => (r.id === record.id ? record : r)) })) };
  if (!matchesSearch(record, search) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [PresentedQuickMessagePage, ...PresentedQuickMessagePage[]];
  return { ...data, pages: [{ ...first, records: [record, ...first.records] }, ...rest] };
}

export function removeQuickMessage(data: QuickMessagePages, id: number): QuickMessagePages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.filter((r) => r.id !== id) })) };
}

export function cacheSavedQuickMessage(queryClient: QueryClient, record: PresentedQuickMessage): void {
  void queryClient.invalidateQueries({ queryKey: quickMessageKeys.usable });
  for (const [key, data] of queryClient.getQueriesData<QuickMessagePages>({ queryKey: quickMessageKeys.lists })) {
    if (data) queryClient.setQueryData(key, upsertQuickMessage(data, record, typeof key[2] === 'string' ? key[2] : ''));
  }
}

export function cacheRemovedQuickMessage(queryClient: QueryClient, id: number): void {
  void queryClient.invalidateQueries({ queryKey: quickMessageKeys.usable });
  queryClient.setQueriesData<QuickMessagePages>({ queryKey: quickMessageKeys.lists }, (data) => (data ? removeQuickMessage(data, id) : data));
}

interface QuickMessageEvent {
  action: 'create' | 'update' | 'delete';
  record?: PresentedQuickMessage;
  quickMessage?: PresentedQuickMessage;
  id?: number | string;
  quickMessageId?: number | string;
}

/** `company-{id}-quickMessage` (spec part 2 §7: create, update, delete). */
export function useQuickMessageEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<QuickMessageEvent>('quickMessage', (payload) => {
    const record = payload.record ?? payload.quickMessage;
    if (payload.action === 'delete') {
      const id = Number(payload.id ?? payload.quickMessageId ?? record?.id);
      if (Number.isInteger(id)) cacheRemovedQuickMessage(queryClient, id);
    } else if (record) cacheSavedQuickMessage(queryClient, record);
  });
}

/** Who sees a quick message in the composer, as the list says it: everyone, only the signed-in user, or only its author. */
export function quickMessageAudience(record: Pick<PresentedQuickMessage, 'geral' | 'userId'>, me: number | undefined): 'everyone' | 'onlyYou' | 'onlyAuthor' {
  if (record.geral) return 'everyone';
  return record.userId === me ? 'onlyYou' : 'onlyAuthor';
}
