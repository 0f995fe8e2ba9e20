import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { AppError } from '../../platform/http/app-error.js';

export interface AccessClaims {
  userId: number;
  companyId: number;
  tokenVersion: number;
  /**
   * The sign-in (refresh family) the token belongs to, claim `fid`: logout revokes
   * the family and the auth hook then refuses its access tokens. Absent only in
   * tokens signed before the claim existed, which expire within their TTL.
   */
  familyId?: string;
}

interface VerifiedAccess extends AccessClaims {
  /** When the token expires, ms since epoch (an open socket ends then unless refreshed). */
  expiresAt: number;
}

export interface TokenService {
  signAccess(claims: AccessClaims): Promise<string>;
  /** Expired → 403 ERR_SESSION_EXPIRED (the client refreshes); anything else → 401. */
  verifyAccess(token: string): Promise<VerifiedAccess>;
}

/** Tokens already verified, kept until they expire: the signature check then runs once per token, not once per request. */
const VERIFIED_TOKENS_MAX = 10_000;

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, VerifiedAccess>();
  return {
    signAccess: ({ userId, companyId, tokenVersion, familyId }) =>
      new SignJWT({ cid: companyId, tv: tokenVersion, ...(familyId === undefined ? {} : { fid: familyId }) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(key),
    async verifyAccess(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt > Date.now()) return known;
        verified.delete(token);
        throw new AppError('ERR_SESSION_EXPIRED', 403);
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || typeof payload.cid !== 'number' || typeof payload.tv !== 'number' || typeof payload.exp !== 'number') {
          throw new AppError('ERR_SESSION_EXPIRED', 401);
        }
        if (payload.fid !== undefined && typeof payload.fid !== 'string') throw new AppError('ERR_SESSION_EXPIRED', 401);
        const claims: VerifiedAccess = { userId, companyId: payload.cid, tokenVersion: payload.tv, expiresAt: payload.exp * 1000, ...(payload.fid === undefined ? {} : { familyId: payload.fid }) };
        if (verified.size >= VERIFIED_TOKENS_MAX) verified.clear();
        verified.set(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new AppError('ERR_SESSION_EXPIRED', 403);
        if (error instanceof AppError) throw error;
        throw new AppError('ERR_SESSION_EXPIRED', 401);
      }
    },
  };
}

/** Opaque refresh tokens: the client holds the value, the database only its hash. */
export function newRefreshToken(): { value: string; hash: string } {
  const value = randomBytes(32).toString('base64url');
  return { value, hash: hashRefreshToken(value) };
}

export function hashRefreshToken(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
