import { PAGE_SIZE } from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';
import type { Integration } from './integration-form';

export interface IntegrationPage {
  queueIntegrations: Integration[];
  count: number;
  hasMore: boolean;
}

type IntegrationPages = InfiniteData<IntegrationPage, number>;

const integrationKeys = {
  all: ['queue-integrations'] as const,
  lists: ['queue-integrations', 'page'] as const,
  list: (search: string) => ['queue-integrations', 'page', search] as const,
  /** Every integration, for the queue and connection pickers. */
  options: ['queue-integrations', 'options'] as const,
};

/** Spec part 2 §7: `GET /queueIntegration` (searchParam, pageNumber) answers a page, the total and hasMore. */
export function useIntegrationPages(search: string, enabled: boolean) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: integrationKeys.list(search),
    queryFn: ({ pageParam }) => api.get<IntegrationPage>('/queueIntegration', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

/** At most this many pages for a picker: more integrations than that is not a real company. */
const MAX_OPTION_PAGES = 25;

/** All integrations (id and name are what a picker needs), page after page. */
export function useIntegrationOptions(enabled: boolean) {
  const { api } = useSession();
  return useQuery({
    queryKey: integrationKeys.options,
    queryFn: async () => {
      const all: Integration[] = [];
      for (let page = 1; page <= MAX_OPTION_PAGES; page += 1) {
        const answer = await api.get<IntegrationPage>('/queueIntegration', { pageNumber: page });
        all.push(...answer.queueIntegrations);
        if (!answer.hasMore || answer.queueIntegrations.length < PAGE_SIZE) break;
      }
      return all;
    },
    enabled,
  });
}

function matchesSearch(integration: Integration, search: string): boolean {
  return !search || integration.name.toLowerCase().includes(search);
}

/** Live create/update (spec part 2 §4): replace in place, or add on top of a list whose search it matches. */
function upsertIntegration(data: IntegrationPages, integration: Integration, search: string): IntegrationPages {
  const listed = data.pages.some((page) => page.queueIntegrations.some((i) => i.id === integration.id));
  if (listed) {
    return { ...data, pages: data.pages.map((page) => ({ ...page, queueIntegrations: page.queueIntegrations.map((i) => (i.id === integration.id ? integration : i)) })) };
  }
  if (!matchesSearch(integration, search) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [IntegrationPage, ...IntegrationPage[]];
  return { ...data, pages: [{ ...first, count: first.count + 1, queueIntegrations: [integration, ...first.queueIntegrations] }, ...rest] };
}

function removeIntegration(data: IntegrationPages, id: number): IntegrationPages {
  const listed = data.pages.some((page) => page.queueIntegrations.some((i) => i.id === id));
  if (!listed) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      // The title's count lives in the first page.
      count: index === 0 ? Math.max(0, page.count - 1) : page.count,
      queueIntegrations: page.queueIntegrations.filter((i) => i.id !== id),
    })),
  };
}

export function cacheSavedIntegration(queryClient: QueryClient, integration: Integration): void {
  void queryClient.invalidateQueries({ queryKey: integrationKeys.options });
  for (const [key, data] of queryClient.getQueriesData<IntegrationPages>({ queryKey: integrationKeys.lists })) {
    if (data) queryClient.setQueryData(key, upsertIntegration(data, integration, typeof key[2] === 'string' ? key[2] : ''));
  }
}

export function cacheRemovedIntegration(queryClient: QueryClient, id: number): void {
  void queryClient.invalidateQueries({ queryKey: integrationKeys.options });
  queryClient.setQueriesData<IntegrationPages>({ queryKey: integrationKeys.lists }, (data) => (data ? removeIntegration(data, id) : data));
}

type IntegrationEvent = { action: 'create' | 'update'; queueIntegration: Integration } | { action: 'delete'; integrationId: number };

/** `company-{id}-queueIntegration` (admins). */
export function useIntegrationEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<IntegrationEvent>('queueIntegration', (payload) => {
    if (payload.action === 'delete') cacheRemovedIntegration(queryClient, Number(payload.integrationId));
    else cacheSavedIntegration(queryClient, payload.queueIntegration);
  });
}
