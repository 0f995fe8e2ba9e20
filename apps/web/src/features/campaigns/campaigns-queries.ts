import type { PresentedCampaign } from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export interface CampaignPage {
  records: PresentedCampaign[];
  hasMore: boolean;
}

const campaignKeys = {
  pages: ['campaigns', 'page'] as const,
  page: (search: string) => ['campaigns', 'page', search] as const,
  one: (id: number) => ['campaigns', 'one', id] as const,
};

/** `GET /campaigns` (searchParam, pageNumber → records, hasMore). */
export function useCampaignPages(search: string, enabled: boolean) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: campaignKeys.page(search),
    queryFn: ({ pageParam }) => api.get<CampaignPage>('/campaigns', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

/** `GET /campaigns/{id}`: the campaign with its progress and failures (the report). */
export function useCampaign(id: number, enabled: boolean) {
  const { api } = useSession();
  return useQuery({ queryKey: campaignKeys.one(id), queryFn: () => api.get<PresentedCampaign>(`/campaigns/${id}`), enabled });
}

type Pages = InfiniteData<CampaignPage, number>;

/** A saved campaign replaces its row, or opens the first page (newest first) of a list whose search it matches. */
export function cacheSavedCampaign(queryClient: QueryClient, campaign: PresentedCampaign): void {
  for (const [key, data] of queryClient.getQueriesData<Pages>({ queryKey: campaignKeys.pages })) {
    if (!data) continue;
    const search = typeof key[2] === 'string' ? key[2] : '';
    const listed = data.pages.some((page) => page.records.some((row) => row.id === campaign.id));
    if (listed) {
      queryClient.setQueryData<Pages>(key, { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.map((row) => (row.id === campaign.id ? campaign : row)) })) });
    } else if (data.pages.length > 0 && (!search || campaign.name.toLowerCase().includes(search))) {
      const [first, ...rest] = data.pages as [CampaignPage, ...CampaignPage[]];
      queryClient.setQueryData<Pages>(key, { ...data, pages: [{ ...first, records: [campaign, ...first.records] }, ...rest] });
    }
  }
  // The report keeps its failures list; the rest follows the event.
  queryClient.setQueryData<PresentedCampaign>(campaignKeys.one(campaign.id), (current) => ({ ...campaign, failures: campaign.failures ?? current?.failures ?? [] }));
}

export function cacheRemovedCampaign(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<Pages>({ queryKey: campaignKeys.pages }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.filter((row) => row.id !== id) })) } : data,
  );
}

type CampaignEvent = { action: 'create' | 'update'; record: PresentedCampaign } | { action: 'delete'; id: number };

/** `company-{id}-campaign` (create, update with progress, delete). */
export function useCampaignEvents(onSaved?: (campaign: PresentedCampaign) => void): void {
  const queryClient = useQueryClient();
  useCompanyEvent<CampaignEvent>('campaign', (payload) => {
    if (payload.action === 'delete') cacheRemovedCampaign(queryClient, payload.id);
    else {
      cacheSavedCampaign(queryClient, payload.record);
      onSaved?.(payload.record);
    }
  });
}
