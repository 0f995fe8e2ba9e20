import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { apiKeys, users, type ApiKeyRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import type { TenantScope } from '../../platform/http/context.js';

/** Most keys the settings page lists (revoked ones included). */
const API_KEY_LIST_LIMIT = 200;

export type ApiKeyListRow = ApiKeyRow & { creatorName: string | null };

export async function listApiKeyRows(db: DbOrTx, scope: TenantScope): Promise<ApiKeyListRow[]> {
  return db
    .select({
      id: apiKeys.id,
      companyId: apiKeys.companyId,
      createdBy: apiKeys.createdBy,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      keyHash: apiKeys.keyHash,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      lastUsedIp: apiKeys.lastUsedIp,
      createdAt: apiKeys.createdAt,
      creatorName: users.name,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(inTenant(apiKeys, scope))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(API_KEY_LIST_LIMIT);
}

export async function insertApiKey(
  db: DbOrTx,
  scope: TenantScope,
  values: Pick<ApiKeyRow, 'createdBy' | 'name' | 'prefix' | 'keyHash' | 'scopes' | 'expiresAt'>,
): Promise<ApiKeyRow> {
  const [row] = await db
    .insert(apiKeys)
    .values({ ...values, companyId: scope.companyId })
    .returning();
  if (!row) throw new Error('api key insert returned nothing');
  return row;
}

/** Marks a key revoked; null when the company has no such key. A key already revoked keeps its first time. */
export async function revokeApiKeyRow(db: DbOrTx, scope: TenantScope, id: number): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(inTenant(apiKeys, scope, eq(apiKeys.id, id)))
    .returning();
  return row ?? null;
}

/**
 * The key a request presents, found by its public id part (`prefix`, unique) before the
 * company is known: the one lookup that is not inside a tenant. Revoked keys are not found.
 */
export async function findLiveApiKeyByPrefix(db: DbOrTx, prefix: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** Last use, written at most once a minute per key (the statement skips a fresher row). */
export async function touchApiKey(db: DbOrTx, id: number, ip: string): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
}
