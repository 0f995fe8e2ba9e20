import { AUDIT_FIELDS, AUTO_ASSIGN_MODES, isSettingKey, PROFILES, type AuditAction, type AuditLogPage } from '@atende/shared';
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

/** Says a stored value in words (`valueTextKey`), or undefined to show it as it is. */
type SayValue = (value: string | boolean) => string | undefined;

/** A changed field as the table shows it: `from → to`, or only that it changed (secrets). */
export function describeChange(value: unknown, say?: SayValue): { from?: string; to?: string; hidden: boolean } {
  const show = (part: unknown) => shown(part, say);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const change = value as Record<string, unknown>;
    if ('changed' in change) return { hidden: true };
    if ('from' in change || 'to' in change) {
      return { ...('from' in change ? { from: show(change.from) } : {}), ...('to' in change ? { to: show(change.to) } : {}), hidden: false };
    }
  }
  return { to: show(value), hidden: false };
}

function shown(value: unknown, say: SayValue | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map((item) => shown(item, say)).join(', ') || '—';
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string' || typeof value === 'boolean') return say?.(value) ?? String(value);
  return String(value);
}

/**
 * The i18n key of a stored value a person should read as words, not as stored: yes and no,
 * on and off, a user's profile, a queue's assignment mode; null to show it as it is.
 */
export function valueTextKey(field: string, value: string | boolean): string | null {
  if (typeof value === 'boolean') return `auditLogs.values.${value ? 'yes' : 'no'}`;
  if (value === 'enabled' || value === 'disabled') return `auditLogs.values.${value}`;
  // `allTicket` keeps the spelling the spec gives it.
  if (value === 'desabled') return 'auditLogs.values.disabled';
  if (field === 'profile' && (PROFILES as readonly string[]).includes(value)) return `userModal.profiles.${value}`;
  if (field === 'autoAssign' && (AUTO_ASSIGN_MODES as readonly string[]).includes(value)) return `queues.autoAssign.modes.${value}`;
  return null;
}

/**
 * The i18n key naming a recorded field: a setting's key (in a setting's entry: `language` there
 * is the company's), a field of `AUDIT_FIELDS`, or an uploaded file (`upload.<ref>`); null for a
 * name this version does not know (kept raw).
 */
export function fieldTextKey(field: string, entity?: string): { key: string; name?: string } | null {
  if (entity === 'setting' && isSettingKey(field)) return { key: `auditLogs.settings.${field}` };
  if ((AUDIT_FIELDS as readonly string[]).includes(field)) return { key: `auditLogs.fields.${field}` };
  if (isSettingKey(field)) return { key: `auditLogs.settings.${field}` };
  if (field.startsWith('upload.')) return { key: 'auditLogs.upload', name: field.slice('upload.'.length) };
  return null;
}
