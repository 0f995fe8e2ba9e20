import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Authenticate, RequestContext } from '../../platform/http/context.js';
import { familyActive } from './refresh-tokens.repo.js';
import { loadSession } from './session.repo.js';
import type { TokenService } from './tokens.js';


export interface SessionCache {
  get(userId: number): RequestContext | undefined;
  set(userId: number, ctx: RequestContext): void;
  /** After a change to a user (profile, queues, password) or to its company. */
  forget(userId?: number): void;
  /** Whether a sign-in (refresh family) was open when last read within the TTL; undefined when not known. */
  familyOpen(familyId: string): boolean | undefined;
  rememberFamily(familyId: string, open: boolean): void;
}

/**
 * Sessions are read on every request; keeping each for a few seconds removes
 * that statement from the hot path. A change made on this node is seen at once
 * (forget); a change made on another node within the TTL at most.
 */
export function createSessionCache(ttlMs = 5_000, maxEntries = 10_000): SessionCache {
  const entries = new Map<number, { ctx: RequestContext; expiresAt: number }>();
  const families = new Map<string, { open: boolean; expiresAt: number }>();
  return {
    get(userId) {
      const entry = entries.get(userId);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        entries.delete(userId);
        return undefined;
      }
      return entry.ctx;
    },
    set(userId, ctx) {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(userId, { ctx, expiresAt: Date.now() + ttlMs });
    },
    forget(userId) {
      if (userId === undefined) {
        entries.clear();
        families.clear();
      } else entries.delete(userId);
    },
    familyOpen(familyId) {
      const entry = families.get(familyId);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        families.delete(familyId);
        return undefined;
      }
      return entry.open;
    },
    rememberFamily(familyId, open) {
      if (families.size >= maxEntries) families.clear();
      families.set(familyId, { open, expiresAt: Date.now() + ttlMs });
    },
  };
}

/**
 * Turns an access token into a request context. Shared by HTTP requests and
 * socket handshakes so both apply the same checks: signature, expiry, the user
 * still existing in the token's company, the token version (bumped on
 * password change) still current, and the token's sign-in not logged out.
 */
export function createAuthenticate(db: Db, tokens: TokenService, cache: SessionCache): Authenticate {
  return async (accessToken) => {
    const claims = await tokens.verifyAccess(accessToken);
    let ctx = cache.get(claims.userId);
    if (!ctx || ctx.user.tokenVersion !== claims.tokenVersion) {
      ctx = (await loadSession(db, claims.userId)) ?? undefined;
      if (ctx) cache.set(claims.userId, ctx);
    }
    if (!ctx || ctx.companyId !== claims.companyId || ctx.user.tokenVersion !== claims.tokenVersion) {
      throw new AppError('ERR_SESSION_EXPIRED', 401);
    }
    // Logout revokes the sign-in's family: its access tokens end with it (at once on
    // this node, within the cache TTL on the others).
    if (claims.familyId !== undefined) {
      let open = cache.familyOpen(claims.familyId);
      if (open === undefined) {
        open = await familyActive(db, claims.familyId);
        cache.rememberFamily(claims.familyId, open);
      }
      if (!open) throw new AppError('ERR_SESSION_EXPIRED', 401);
    }
    return ctx;
  };
}
