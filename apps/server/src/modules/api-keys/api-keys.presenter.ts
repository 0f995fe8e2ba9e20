import type { ApiKeyScope, CreatedApiKey, PresentedApiKey } from '@atende/shared';
import type { ApiKeyRow } from '../../platform/db/schema.js';
import type { ApiKeyListRow } from './api-keys.repo.js';

export function presentApiKey(row: ApiKeyRow & { creatorName?: string | null }): PresentedApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiKeyScope[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.creatorName === undefined || row.creatorName === null ? null : { id: row.createdBy, name: row.creatorName },
  };
}

export function presentApiKeys(rows: ApiKeyListRow[]): PresentedApiKey[] {
  return rows.map(presentApiKey);
}

/** The creation answer: the only one that carries the secret. */
export function presentCreatedApiKey(row: ApiKeyRow, creatorName: string, key: string): CreatedApiKey {
  return { ...presentApiKey({ ...row, creatorName }), key };
}
