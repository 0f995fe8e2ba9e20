import type { ContactEventPayload, PresentedContact, PresentedContactPage } from '@atende/shared';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export const contactKeys = {
  all: ['contacts'] as const,
  lists: ['contacts', 'list'] as const,
  list: (search: string) => ['contacts', 'list', search] as const,
  detail: (id: number) => ['contacts', 'detail', id] as const,
};

type ContactPages = InfiniteData<PresentedContactPage, number>;

/** Spec part 1 §4: pages by number, the next one while `hasMore`. */
export function useContactPages(search: string) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: contactKeys.list(search),
    queryFn: ({ pageParam }) => api.get<PresentedContactPage>('/contacts', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

function matchesSearch(contact: PresentedContact, search: string): boolean {
  if (!search) return true;
  return contact.name.toLowerCase().includes(search) || contact.number.includes(search) || (contact.email ?? '').toLowerCase().includes(search);
}

/**
 * A live create/update (spec part 2 §4): replace the contact where it is
 * listed, or put it at the top of a list whose search it matches.
 */
export function upsertContactInPages(data: ContactPages, contact: PresentedContact, search: string): ContactPages {
  const listed = data.pages.some((page) => page.contacts.some((c) => c.id === contact.id));
  if (listed) {
    return { ...data, pages: data.pages.map((page) => ({ ...page, contacts: page.contacts.map((c) => (c.id === contact.id ? contact : c)) })) };
  }
  if (!matchesSearch(contact, search) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [PresentedContactPage, ...PresentedContactPage[]];
  return {
    ...data,
    pages: [{ ...first, contacts: [contact, ...first.contacts] }, ...rest].map((page) => ({ ...page, count: page.count + 1 })),
  };
}

export function removeContactFromPages(data: ContactPages, contactId: number): ContactPages {
  const listed = data.pages.some((page) => page.contacts.some((c) => c.id === contactId));
  if (!listed) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, count: Math.max(0, page.count - 1), contacts: page.contacts.filter((c) => c.id !== contactId) })),
  };
}

export function cacheSavedContact(queryClient: QueryClient, contact: PresentedContact): void {
  queryClient.setQueryData(contactKeys.detail(contact.id), contact);
  for (const [key, data] of queryClient.getQueriesData<ContactPages>({ queryKey: contactKeys.lists })) {
    if (!data) continue;
    const search = typeof key[2] === 'string' ? key[2] : '';
    queryClient.setQueryData(key, upsertContactInPages(data, contact, search));
  }
}

export function cacheRemovedContact(queryClient: QueryClient, contactId: number): void {
  queryClient.removeQueries({ queryKey: contactKeys.detail(contactId) });
  queryClient.setQueriesData<ContactPages>({ queryKey: contactKeys.lists }, (data) => (data ? removeContactFromPages(data, contactId) : data));
}

/** `company-{id}-contact` keeps every cached contact list and detail live. */
export function useContactEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ContactEventPayload>('contact', (payload) => {
    if (payload.action === 'delete') cacheRemovedContact(queryClient, Number(payload.contactId));
    else if (payload.contact) cacheSavedContact(queryClient, payload.contact);
  });
}
