import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError, tooManyRequests } from '../../platform/http/app-error.js';
import { isCompanyExpired, isCompanySuspended, type RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { endResetCodes } from '../password-reset/password-reset.repo.js';
import { spendSecondFactor } from '../two-factor/two-factor.service.js';
import { findEnabledTwoFactorForSignIn } from '../two-factor/two-factor.repo.js';
import { loadUserDetail } from '../users/users.repo.js';
import type { UserDetail } from '../users/users.presenter.js';
import { findCredentials, markSignedIn, markSignedOut, replacePasswordHash } from './auth.repo.js';
import type { LoginLimiter } from './login-limiter.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { loadSession } from './session.repo.js';
import type { AccessClaims, TokenService } from './tokens.js';
import {
  dropOldSuccessors,
  findRefreshToken,
  issueRefreshToken,
  revokeFamily,
  rotateRefreshToken,
} from './refresh-tokens.repo.js';

/** Sign-in, refresh and logout: the session's rows, the tokens, the login limits, and the sockets told of an ended session. */
export type AuthDeps = Pick<Platform, 'db' | 'config' | 'events' | 'access' | 'secrets' | 'clock'> & {
  tokens: TokenService;
  loginLimiter: LoginLimiter;
};

export interface SessionIssued {
  token: string;
  refreshToken: string;
  user: UserDetail;
}

/**
 * A refresh token presented again within this window after it was replaced is a benign
 * race (two tabs, several components refreshing at once): it answers the same new
 * session. Later it is a copy being replayed: the whole family is revoked.
 */
export const REUSE_GRACE_MS = 30_000;

// Verifying against a real hash keeps unknown-email logins as slow as wrong-password ones.
let dummyHash: Promise<string> | null = null;

export { hashPassword };

/** The spec's message names the due date as written: a calendar date is the same day in every zone. */
function expiredError(dueDate: string): AppError {
  const [year, month, day] = dueDate.split('-');
  return new AppError('ERR_SUBSCRIPTION_EXPIRED', undefined, {
    message: `Opss! Sua assinatura venceu ${day}/${month}/${year}. Entre em contato com o Suporte para mais informações!`,
    dueDate,
  });
}

/**
 * Who may hold a session: anyone of a current company, and super users always.
 * Checked after the password, so only the account's owner learns the company's state.
 */
function assertCompanyOpen(ctx: RequestContext, options: { billing: boolean }): void {
  if (ctx.user.super) return;
  if (isCompanySuspended(ctx.company)) throw new AppError('ERR_COMPANY_SUSPENDED');
  if (!isCompanyExpired(ctx.company) || !ctx.company.dueDate) return;
  // An admin may hold a session to pay: the auth hook lets it reach the billing routes only.
  if (options.billing && ctx.user.profile === 'admin') return;
  throw expiredError(ctx.company.dueDate);
}

/**
 * Signs in. The limiter admits the attempt before the password is checked (a refused
 * one costs no argon2) and counts it as a failure unless it succeeds: only failures
 * count (login-limiter.ts). An account with a second factor needs its `code` too: a
 * right password without one answers `twoFactorRequired` (no session; the attempt is
 * given back, it guessed nothing), a wrong code is a failure like a wrong password.
 * A full sign-in also ends the account's outstanding password-reset codes.
 */
export async function login(
  deps: Pick<AuthDeps, 'db' | 'config' | 'events' | 'tokens' | 'loginLimiter' | 'secrets' | 'clock'>,
  input: { email: string; password: string; code?: string; ip: string; userAgent?: string | null; billing?: boolean; deviceCookie?: string },
): Promise<(SessionIssued & { deviceCookie: string }) | { twoFactorRequired: true }> {
  const admission = await deps.loginLimiter.enter({ ip: input.ip, email: input.email, deviceCookie: input.deviceCookie });
  if (!admission.admitted) throw tooManyRequests(admission.retryAfterSeconds);
  const { db } = deps;
  const row = await findCredentials(db, input.email);
  if (!row) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verifyPassword(await dummyHash, input.password);
    throw new AppError('ERR_INVALID_CREDENTIALS');
  }
  const valid = await verifyPassword(row.passwordHash, input.password);
  // The account's company sees the failed attempt and its address (an unknown e-mail belongs to no company: not recorded).
  const actor = { companyId: row.companyId, userId: row.id, userName: row.name, client: { ip: input.ip, userAgent: input.userAgent ?? null } };
  if (!valid) {
    await recordAudit(db, actor, { action: 'auth.login_failed', entityId: row.id });
    throw new AppError('ERR_INVALID_CREDENTIALS');
  }
  // An imported whaticket user's bcrypt hash becomes argon2 with the password just proven.
  if (needsRehash(row.passwordHash)) await replacePasswordHash(db, row.id, row.passwordHash, await hashPassword(input.password));
  const secondFactor = await findEnabledTwoFactorForSignIn(db, row.id);
  if (secondFactor) {
    if (input.code === undefined) {
      await admission.attempt.released();
      return { twoFactorRequired: true };
    }
    // A wrong, replayed or spent code leaves the attempt counted, as a wrong password does.
    if (!(await spendSecondFactor(deps, secondFactor, input.code))) {
      await recordAudit(db, actor, { action: 'two_factor.failed', entityId: row.id });
      throw new AppError('ERR_INVALID_TWO_FACTOR_CODE');
    }
  }
  const deviceCookie = await admission.attempt.succeeded();
  // Whoever asked for them, codes are no longer needed once the owner knows the password.
  await endResetCodes(db, row.id);

  const ctx = await loadSession(db, row.id);
  if (!ctx) throw new AppError('ERR_INVALID_CREDENTIALS');
  assertCompanyOpen(ctx, { billing: input.billing === true });

  const familyId = randomUUID();
  const refreshToken = await issueRefreshToken(db, ctx, ctx.user.id, deps.config.REFRESH_TOKEN_TTL_SECONDS, familyId);
  await markSignedIn(db, ctx.user.id);
  await recordAudit(db, actor, { action: 'auth.login', entityId: row.id });
  const token = await deps.tokens.signAccess({
    userId: ctx.user.id,
    companyId: ctx.companyId,
    tokenVersion: ctx.user.tokenVersion,
    familyId,
  });
  // Sessions of this user elsewhere are told (spec part 1 §4 "account used elsewhere").
  deps.events.emit('auth.loggedIn', {
    companyId: ctx.companyId,
    user: { id: ctx.user.id, email: ctx.user.email, companyId: ctx.companyId },
  });
  const user = await loadUserDetail(db, ctx, ctx.user.id);
  if (!user) throw new AppError('ERR_INVALID_CREDENTIALS');
  return { token, refreshToken, user, deviceCookie };
}

export async function refresh(deps: Pick<AuthDeps, 'db' | 'config' | 'access' | 'secrets' | 'tokens'>, presented: string | undefined): Promise<SessionIssued> {
  const { db } = deps;
  if (!presented) throw new AppError('ERR_SESSION_EXPIRED', 401);
  let stored = await findRefreshToken(db, presented);
  if (!stored || stored.revokedAt || stored.expiresAt.getTime() <= Date.now()) {
    throw new AppError('ERR_SESSION_EXPIRED', 401);
  }
  // One successor per token, even when refreshes race: the loser of the conditional
  // update reads the winner's successor and answers it, like a later request would.
  let refreshToken = stored.usedAt ? null : await rotateRefreshToken(db, stored, deps.config.REFRESH_TOKEN_TTL_SECONDS, (value) => deps.secrets.seal(value));
  if (refreshToken) {
    await dropOldSuccessors(db, new Date(Date.now() - REUSE_GRACE_MS));
  } else {
    if (!stored.usedAt) stored = await findRefreshToken(db, presented);
    if (!stored || stored.revokedAt || !stored.usedAt) throw new AppError('ERR_SESSION_EXPIRED', 401);
    refreshToken = await graceSuccessor(deps, stored);
  }

  const ctx = await loadSession(db, stored.userId);
  if (!ctx) throw new AppError('ERR_SESSION_EXPIRED', 401);
  // A session an admin opened to pay is refreshed while the company is overdue.
  assertCompanyOpen(ctx, { billing: true });

  const token = await deps.tokens.signAccess({
    userId: ctx.user.id,
    companyId: ctx.companyId,
    tokenVersion: ctx.user.tokenVersion,
    familyId: stored.familyId,
  });
  const user = await loadUserDetail(db, ctx, ctx.user.id);
  if (!user) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return { token, refreshToken, user };
}

/**
 * A replaced refresh token came back. Within the grace window it is a concurrent
 * refresh: it answers the same successor (if that is still open). Later it is a copy
 * being replayed: the whole family goes, its access tokens and sockets with it.
 */
async function graceSuccessor(
  deps: Pick<AuthDeps, 'db' | 'access' | 'secrets'>,
  stored: NonNullable<Awaited<ReturnType<typeof findRefreshToken>>>,
): Promise<string> {
  const { db } = deps;
  const usedAt = stored.usedAt?.getTime() ?? 0;
  if (Date.now() - usedAt > REUSE_GRACE_MS) {
    await revokeFamily(db, stored.familyId);
    // Its access tokens and sockets end now, on every node.
    await deps.access.changed({ companyId: stored.companyId, userIds: [stored.userId], endedFamilies: [stored.familyId] });
    throw new AppError('ERR_SESSION_EXPIRED', 401);
  }
  if (!stored.successorSealed) throw new AppError('ERR_SESSION_EXPIRED', 401);
  let successor: string;
  try {
    successor = deps.secrets.open(stored.successorSealed);
  } catch {
    throw new AppError('ERR_SESSION_EXPIRED', 401);
  }
  const next = await findRefreshToken(db, successor);
  if (!next || next.revokedAt || next.expiresAt.getTime() <= Date.now()) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return successor;
}

/**
 * Ends a sign-in: the refresh family of the cookie and the one named by the access
 * token (claim `fid`). Every node is told (`access.changed` with the ended
 * families): that access token stops working and that sign-in's sockets end at once.
 */
export async function logout(deps: Pick<AuthDeps, 'db' | 'access' | 'tokens'>, presented: string | undefined, bearer: string | null): Promise<void> {
  const { db } = deps;
  // An expired or invalid access token still ends the cookie's sign-in.
  const access: AccessClaims | null = bearer ? await deps.tokens.verifyAccess(bearer).catch(() => null) : null;
  const families = new Set<string>();
  let owner = access ? { companyId: access.companyId, userId: access.userId } : null;
  if (presented) {
    const stored = await findRefreshToken(db, presented);
    if (stored) {
      families.add(stored.familyId);
      owner ??= { companyId: stored.companyId, userId: stored.userId };
    }
  }
  if (access?.familyId) families.add(access.familyId);
  for (const familyId of families) await revokeFamily(db, familyId);
  if (access) await markSignedOut(db, access.userId);
  if (owner) await deps.access.changed({ companyId: owner.companyId, userIds: [owner.userId], endedFamilies: [...families] });
}

/** The refresh family of the presented cookie, so a password change can keep this session. */
export async function currentFamily(deps: Pick<Platform, 'db'>, presented: string | undefined): Promise<string | undefined> {
  if (!presented) return undefined;
  return (await findRefreshToken(deps.db, presented))?.familyId;
}

/** `GET /auth/me`: the signed-in user as the login answered it. */
export async function currentUser(deps: Pick<Platform, 'db'>, ctx: RequestContext): Promise<UserDetail> {
  const user = await loadUserDetail(deps.db, ctx, ctx.user.id);
  if (!user) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return user;
}
