import type { PresentedTag, PresentedTagPage, TagEventPayload } from '@atende/shared';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

type TagPages = InfiniteData<PresentedTagPage, number>;

export const tagKeys = {
  all: ['tags'] as const,
  pages: ['tags', 'page'] as const,
  page: (search: string) => ['tags', 'page', search] as const,
  /** The pickers' `GET /tags/list` (the conversation's tag bar). */
  list: ['tags', 'list'] as const,
  /** The kanban board's lanes (`GET /tags/kanban`). */
  lanes: ['tags', 'kanban'] as const,
};

/** Spec part 2 §7: `GET /tags` (searchParam, pageNumber) answers tags and hasMore. */
export function useTagPages(search: string) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: tagKeys.page(search),
    queryFn: ({ pageParam }) => api.get<PresentedTagPage>('/tags', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

const byName = (a: PresentedTag, b: PresentedTag) => a.name.localeCompare(b.name) || a.id - b.id;

/**
 * Live create/update (spec part 2 §4): replaced in place (a rename re-sorts the
 * loaded rows, the server's order), or added to a list whose search it matches.
 */
function upsertTag(data: TagPages, tag: PresentedTag, search: string): TagPages {
  const listed = data.pages.some((page) => page.tags.some((row) => row.id === tag.id));
  if (listed) return { ...data, pages: data.pages.map((page) => ({ ...page, tags: page.tags.map((row) => (row.id === tag.id ? { ...row, ...tag } : row)).sort(byName) })) };
  if ((search && !tag.name.toLowerCase().includes(search)) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [PresentedTagPage, ...PresentedTagPage[]];
  return { ...data, pages: [{ ...first, tags: [...first.tags, tag].sort(byName), count: first.count + 1 }, ...rest] };
}

function removeTag(data: TagPages, id: number): TagPages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, tags: page.tags.filter((row) => row.id !== id) })) };
}

/** A saved tag reaches the tags page, the pickers and the board's lanes. */
export function cacheSavedTag(queryClient: QueryClient, tag: PresentedTag): void {
  for (const [key, data] of queryClient.getQueriesData<TagPages>({ queryKey: tagKeys.pages })) {
    if (data) queryClient.setQueryData(key, upsertTag(data, tag, typeof key[2] === 'string' ? key[2] : ''));
  }
  void queryClient.invalidateQueries({ queryKey: tagKeys.list });
  void queryClient.invalidateQueries({ queryKey: tagKeys.lanes });
}

export function cacheRemovedTag(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<TagPages>({ queryKey: tagKeys.pages }, (data) => (data ? removeTag(data, id) : data));
  void queryClient.invalidateQueries({ queryKey: tagKeys.list });
  void queryClient.invalidateQueries({ queryKey: tagKeys.lanes });
}

/** `company-{id}-tag` (create, update, delete). */
export function useTagEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<TagEventPayload>('tag', (payload) => {
    if (payload.action === 'delete') cacheRemovedTag(queryClient, Number(payload.tagId));
    else if (payload.tag) cacheSavedTag(queryClient, payload.tag);
  });
}
