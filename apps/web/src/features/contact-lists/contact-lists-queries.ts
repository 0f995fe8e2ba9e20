import type { PresentedContactList, PresentedContactListItem } from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export interface ContactListPage {
  records: PresentedContactList[];
  hasMore: boolean;
}
export interface ContactListItemPage {
  contacts: PresentedContactListItem[];
  hasMore: boolean;
}

export const contactListKeys = {
  pages: ['contact-lists', 'page'] as const,
  page: (search: string) => ['contact-lists', 'page', search] as const,
  one: (id: number) => ['contact-lists', 'one', id] as const,
  items: (listId: number) => ['contact-list-items', listId] as const,
  itemPage: (listId: number, search: string) => ['contact-list-items', listId, search] as const,
};

/** `GET /contact-lists` (searchParam, pageNumber → records, hasMore). */
export function useContactListPages(search: string, enabled: boolean) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: contactListKeys.page(search),
    queryFn: ({ pageParam }) => api.get<ContactListPage>('/contact-lists', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

export function useContactList(id: number, enabled: boolean) {
  const { api } = useSession();
  return useQuery({ queryKey: contactListKeys.one(id), queryFn: () => api.get<PresentedContactList>(`/contact-lists/${id}`), enabled });
}

/** `GET /contact-list-items` (searchParam, pageNumber, contactListId → contacts, hasMore). */
export function useContactListItemPages(listId: number, search: string, enabled: boolean) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: contactListKeys.itemPage(listId, search),
    queryFn: ({ pageParam }) => api.get<ContactListItemPage>('/contact-list-items', { contactListId: listId, searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

type ListPages = InfiniteData<ContactListPage, number>;

/** A saved list replaces its loaded row, or joins the first page of a list whose search it matches. */
export function cacheSavedContactList(queryClient: QueryClient, list: PresentedContactList): void {
  for (const [key, data] of queryClient.getQueriesData<ListPages>({ queryKey: contactListKeys.pages })) {
    if (!data) continue;
    const search = typeof key[2] === 'string' ? key[2] : '';
    const listed = data.pages.some((page) => page.records.some((row) => row.id === list.id));
    if (listed) {
      queryClient.setQueryData<ListPages>(key, { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.map((row) => (row.id === list.id ? list : row)) })) });
    } else if (data.pages.length > 0 && (!search || list.name.toLowerCase().includes(search))) {
      const [first, ...rest] = data.pages as [ContactListPage, ...ContactListPage[]];
      const records = [...first.records, list].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      queryClient.setQueryData<ListPages>(key, { ...data, pages: [{ ...first, records }, ...rest] });
    }
  }
  queryClient.setQueryData(contactListKeys.one(list.id), list);
}

export function cacheRemovedContactList(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<ListPages>({ queryKey: contactListKeys.pages }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, records: page.records.filter((row) => row.id !== id) })) } : data,
  );
}

type ListEvent =
  | { action: 'create' | 'update'; record: PresentedContactList }
  | { action: 'delete'; id: number }
  | { action: 'checking'; id: number; total: number; unchecked: number };

/** Progress of the WhatsApp check per list, from `company-{id}-ContactList` `checking` events. */
export type CheckProgress = Record<number, { total: number; unchecked: number }>;

/** `company-{id}-ContactList`: lists upsert and go live; the WhatsApp check reports its progress. */
export function useContactListEvents(): CheckProgress {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<CheckProgress>({});
  useCompanyEvent<ListEvent>('ContactList', (payload) => {
    if (payload.action === 'delete') cacheRemovedContactList(queryClient, payload.id);
    else if (payload.action === 'checking') setProgress((current) => ({ ...current, [payload.id]: { total: payload.total, unchecked: payload.unchecked } }));
    else cacheSavedContactList(queryClient, payload.record);
  });
  return progress;
}

type ItemEvent =
  | { action: 'create' | 'update'; record: PresentedContactListItem }
  | { action: 'delete'; id: number; contactListId: number }
  | { action: 'reload'; contactListId: number };

/** `company-{id}-ContactListItem`: any change to a list's items reloads that list's loaded pages (spec part 2 §4: items also reload). */
export function useContactListItemEvents(listId: number): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ItemEvent>('ContactListItem', (payload) => {
    const changed = 'record' in payload ? payload.record.contactListId : payload.contactListId;
    if (changed !== listId) return;
    void queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) });
    void queryClient.invalidateQueries({ queryKey: contactListKeys.one(listId) });
  });
}
