import { routeKey, routeScope, type ApiKeyScope } from '@atende/shared';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/client.js';
import type { AccessChanges } from '../../platform/events/access-changes.js';
import { AppError, tooManyRequests } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { RateLimiter } from '../../platform/http/rate-limiter.js';
import { loadSession } from '../auth/session.repo.js';
import { apiKeyMatches, apiKeyPrefix } from './api-key-secret.js';
import { findLiveApiKeyByPrefix, touchApiKey } from './api-keys.repo.js';

/** Turns `Authorization: Bearer atk_...` into the request's context, for the route being called. */
export type AuthenticateApiKey = (key: string, request: FastifyRequest) => Promise<RequestContext>;

interface CachedKey {
  id: number;
  companyId: number;
  createdBy: number;
  keyHash: string;
  scopes: readonly ApiKeyScope[];
  expiresAt: number | null;
  ctx: RequestContext;
  cachedUntil: number;
}

export interface ApiKeyAuthOptions {
  db: Db;
  access: AccessChanges;
  /** Requests per key and minute, counted in the database (every node counts the same window). */
  limiter: RateLimiter;
  limitPerMinute: number;
  now?: () => number;
  onError(error: unknown, what: string): void;
}

/** How long a node keeps a key it read; revocations and rights changes empty it at once (access changes). */
const CACHE_TTL_MS = 30_000;
const MAX_CACHED = 10_000;
/** Last use is written at most this often per key and node (and the statement skips a row fresher than a minute). */
const TOUCH_EVERY_MS = 60_000;

/**
 * A key acts as the admin who made it, as that admin's company, narrowed to its scopes:
 * the route must be in `ROUTE_SCOPES` (else 403 ERR_API_KEY_ROUTE) with a scope the key
 * has (else 403 ERR_API_KEY_SCOPE naming it). Unknown, revoked and expired keys, and keys
 * whose admin is gone or no longer an admin, are 401 ERR_INVALID_API_KEY. Each key has
 * its own rate limit (429 with Retry-After).
 */
export function createApiKeyAuth(options: ApiKeyAuthOptions): AuthenticateApiKey {
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedKey>();
  const touchedAt = new Map<number, number>();

  options.access.onChange(({ companyId, userIds, apiKeyIds }) => {
    for (const [prefix, entry] of cache) {
      if (entry.companyId !== companyId) continue;
      const keyRevoked = apiKeyIds?.includes(entry.id) ?? false;
      // No userIds: the company itself changed (status, plan); else the admins named.
      const creatorChanged = userIds === undefined || userIds.includes(entry.createdBy);
      if (keyRevoked || creatorChanged) cache.delete(prefix);
    }
  });

  async function load(prefix: string): Promise<CachedKey | null> {
    const row = await findLiveApiKeyByPrefix(options.db, prefix);
    if (!row) return null;
    const session = await loadSession(options.db, row.createdBy);
    if (!session || session.companyId !== row.companyId || session.user.profile !== 'admin') return null;
    const ctx: RequestContext = {
      companyId: session.companyId,
      company: session.company,
      apiKeyId: row.id,
      // The admin's identity with an admin's reach and no platform rights: the scopes narrow it.
      user: { ...session.user, profile: 'admin', super: false, allTicket: 'enabled' },
    };
    if (cache.size >= MAX_CACHED) cache.clear();
    const entry: CachedKey = {
      id: row.id,
      companyId: row.companyId,
      createdBy: row.createdBy,
      keyHash: row.keyHash,
      scopes: row.scopes as ApiKeyScope[],
      expiresAt: row.expiresAt?.getTime() ?? null,
      ctx,
      cachedUntil: now() + CACHE_TTL_MS,
    };
    cache.set(prefix, entry);
    return entry;
  }

  function touch(entry: CachedKey, ip: string): void {
    const last = touchedAt.get(entry.id) ?? 0;
    if (now() - last < TOUCH_EVERY_MS) return;
    if (touchedAt.size >= MAX_CACHED) touchedAt.clear();
    touchedAt.set(entry.id, now());
    touchApiKey(options.db, entry.id, ip).catch((error: unknown) => options.onError(error, 'could not record an api key use'));
  }

  return async (key, request) => {
    const prefix = apiKeyPrefix(key);
    if (!prefix) throw new AppError('ERR_INVALID_API_KEY');
    let entry = cache.get(prefix);
    if (!entry || entry.cachedUntil <= now()) entry = (await load(prefix)) ?? undefined;
    if (!entry || !apiKeyMatches(key, entry.keyHash)) throw new AppError('ERR_INVALID_API_KEY');
    if (entry.expiresAt !== null && entry.expiresAt <= now()) throw new AppError('ERR_INVALID_API_KEY', undefined, { message: 'The key expired' });

    const needed = routeScope(routeKey(request.method, request.routeOptions.url ?? ''));
    if (!needed) throw new AppError('ERR_API_KEY_ROUTE', undefined, { message: 'API keys cannot call this route' });
    if (!entry.scopes.includes(needed)) {
      throw new AppError('ERR_API_KEY_SCOPE', undefined, { scope: needed, message: `The key lacks the scope ${needed}` });
    }

    const counter = String(entry.id);
    const refused = options.limiter.refusedFor(counter);
    if (refused > 0) throw tooManyRequests(refused / 1000);
    const admission = await options.limiter.take([{ key: counter, limit: options.limitPerMinute }]);
    if (!admission.admitted) throw tooManyRequests(admission.retryAfterMs / 1000);

    touch(entry, request.ip);
    return entry.ctx;
  };
}
