import type { InvoiceView, PaymentEventPayload, SubscriptionView } from '@atende/shared';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export interface InvoicePage {
  invoices: InvoiceView[];
  hasMore: boolean;
}

const invoiceKeys = {
  all: ['invoices'] as const,
  list: (search: string) => ['invoices', 'page', search] as const,
};

/**
 * `GET /invoices/all` answers the page as a bare array (the spec's client reads it
 * so); whether another page exists comes in the `x-has-more` header.
 */
export function useInvoicePages(search: string, enabled: boolean) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: invoiceKeys.list(search),
    queryFn: async ({ pageParam }): Promise<InvoicePage> => {
      const { data, headers } = await api.getWithHeaders<InvoiceView[]>('/invoices/all', { searchParam: search, pageNumber: pageParam });
      return { invoices: Array.isArray(data) ? data : [], hasMore: headers.get('x-has-more') === 'true' };
    },
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

/**
 * `company-{id}-payment` with CONCLUIDA (spec part 2 §4): the invoice list is
 * reloaded, and so is the session user, whose company now has its new due date
 * (an overdue session gets its pages back).
 */
export function usePaymentEvents(onConcluded?: (payment: PaymentEventPayload) => void): void {
  const queryClient = useQueryClient();
  const { reloadUser } = useSession();
  useCompanyEvent<PaymentEventPayload>('payment', (payment) => {
    if (payment.action !== 'CONCLUIDA') return;
    void queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    reloadUser().catch(() => undefined);
    onConcluded?.(payment);
  });
}

/** `GET /subscription`: the company's plan, trial and whether Pix is configured (the invoices and subscription pages). */
export function useSubscription(enabled: boolean) {
  const { api } = useSession();
  return useQuery({ queryKey: ['subscription'], queryFn: () => api.get<SubscriptionView>('/subscription'), enabled });
}
