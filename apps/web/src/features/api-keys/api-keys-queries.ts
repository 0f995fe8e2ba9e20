import type { ApiKeyScope, PresentedApiKey } from '@atende/shared';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

export const apiKeysKey = ['api-keys'] as const;

/** The company's API keys (`GET /api-keys`, admins): never a secret, revoked ones included. */
export function useApiKeys() {
  const { api } = useSession();
  return useQuery({ queryKey: apiKeysKey, queryFn: () => api.get<PresentedApiKey[]>('/api-keys') });
}

/** A key's state as the list shows it. */
export function apiKeyStatus(key: Pick<PresentedApiKey, 'revokedAt' | 'expiresAt'>, now = Date.now()): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

/** The end of a calendar day (`YYYY-MM-DD`) in the browser's zone, as the ISO instant the server stores. */
export function endOfDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1, 23, 59, 59, 999).toISOString();
}

/** The text key of a scope's description (i18next reads `:` as a namespace separator, so the key has `_`). */
export function scopeText(scope: ApiKeyScope): string {
  return `apiKeys.scopes.${scope.replace(':', '_')}`;
}
