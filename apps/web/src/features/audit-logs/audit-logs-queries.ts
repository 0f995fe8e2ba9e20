import type { AuditAction, AuditLogPage } from '@atende/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

export interface AuditLogFilters {
  action: AuditAction | '';
  userId: number | '';
  /** Days (`YYYY-MM-DD`) in the company's zone, both included. */
  from: string;
  to: string;
}

/** `GET /audit-logs` page by page, newest first (admins; the server answers 403 to anyone else). */
export function useAuditLogPages(filters: AuditLogFilters) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: ['audit-logs', filters],
    queryFn: ({ pageParam }) =>
      api.get<AuditLogPage>('/audit-logs', {
        pageNumber: pageParam,
        ...(filters.action ? { action: filters.action } : {}),
        ...(filters.userId ? { userId: filters.userId } : {}),
        ...(filters.from ? { from: filters.from } : {}),
        ...(filters.to ? { to: filters.to } : {}),
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The company's users, for the "who" filter. */
export function useAuditUsers() {
  const { api } = useSession();
  return useQuery({ queryKey: ['users', 'list'], queryFn: () => api.get<{ id: number; name: string }[]>('/users/list') });
}

/** A changed field as the table shows it: `from → to`, or only that it changed (secrets). */
export function describeChange(value: unknown): { from?: string; to?: string; hidden: boolean } {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const change = value as Record<string, unknown>;
    if ('changed' in change) return { hidden: true };
    if ('from' in change || 'to' in change) {
      return { ...('from' in change ? { from: shown(change.from) } : {}), ...('to' in change ? { to: shown(change.to) } : {}), hidden: false };
    }
  }
  return { to: shown(value), hidden: false };
}

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(shown).join(', ') || '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
