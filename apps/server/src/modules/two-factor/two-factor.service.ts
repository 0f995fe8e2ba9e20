import type { TwoFactorDisableBody, TwoFactorStatus } from '@atende/shared';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError, tooManyRequests } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireSuper } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { findCredentials } from '../auth/auth.repo.js';
import type { LoginLimiter } from '../auth/login-limiter.js';
import { verifyPassword } from '../auth/password-hash.js';
import { loadSetting } from '../settings/settings.repo.js';
import { createRecoveryCodeHasher, generateRecoveryCodes } from './recovery-codes.js';
import {
  acceptStep,
  countRecoveryCodesLeft,
  enableTwoFactor,
  findTwoFactor,
  findUserCompanyId,
  removeTwoFactor,
  saveSetup,
  useRecoveryCode,
  type StoredTwoFactor,
} from './two-factor.repo.js';
import { generateTotpSecret, isTotpCode, matchingTotpStep, otpauthUrl } from './totp.js';

/** The second factor's ports: its rows, the box that seals the secret, the clock codes are read against, and the sessions told of a change. */
export type TwoFactorDeps = Pick<Platform, 'db' | 'secrets' | 'clock' | 'config' | 'access'>;

/** What authenticator apps show above the code. */
const ISSUER = 'Atende';

const hashers = new Map<string, ReturnType<typeof createRecoveryCodeHasher>>();
function recoveryHash(deps: Pick<TwoFactorDeps, 'config'>, userId: number, code: string): string {
  let hasher = hashers.get(deps.config.ENCRYPTION_KEY);
  if (!hasher) {
    hasher = createRecoveryCodeHasher(deps.config.ENCRYPTION_KEY);
    hashers.set(deps.config.ENCRYPTION_KEY, hasher);
  }
  return hasher(userId, code);
}

function openSecret(deps: Pick<TwoFactorDeps, 'secrets'>, stored: StoredTwoFactor): string | null {
  try {
    return deps.secrets.open(stored.secretSealed);
  } catch {
    return null;
  }
}

/**
 * Checks a second factor and spends it: an authenticator code whose step is later than the
 * last accepted one (each code works once), or an unused recovery code. Used by the login
 * (auth.service.ts) and by turning the factor off.
 */
export async function spendSecondFactor(deps: Pick<TwoFactorDeps, 'db' | 'secrets' | 'clock' | 'config'>, stored: StoredTwoFactor, code: string): Promise<boolean> {
  if (isTotpCode(code)) {
    const secret = openSecret(deps, stored);
    const step = secret ? matchingTotpStep(secret, code, deps.clock.now()) : null;
    return step !== null && (await acceptStep(deps.db, stored.userId, step));
  }
  return useRecoveryCode(deps.db, stored.userId, recoveryHash(deps, stored.userId, code));
}

async function companyRequires(deps: Pick<TwoFactorDeps, 'db'>, ctx: RequestContext): Promise<boolean> {
  return (await loadSetting(deps.db, ctx, 'requireTwoFactor')) === 'enabled';
}

/** `GET /auth/2fa`: whether the caller's second factor is on, whether the company asks for one, and the recovery codes left. */
export async function twoFactorStatus(deps: TwoFactorDeps, ctx: RequestContext): Promise<TwoFactorStatus> {
  const stored = await findTwoFactor(deps.db, ctx, ctx.user.id);
  const enabled = Boolean(stored?.enabledAt);
  return {
    enabled,
    required: await companyRequires(deps, ctx),
    recoveryCodesLeft: enabled ? await countRecoveryCodesLeft(deps.db, ctx, ctx.user.id) : 0,
  };
}

/** `POST /auth/2fa/setup`: a new secret, sealed at rest, waiting for its first code. Refused while a second factor is on. */
export async function setUpTwoFactor(deps: TwoFactorDeps, ctx: RequestContext): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = generateTotpSecret();
  if (!(await saveSetup(deps.db, ctx, ctx.user.id, deps.secrets.seal(secret)))) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED');
  return { secret, otpauthUrl: otpauthUrl({ issuer: ISSUER, account: ctx.user.email, secret }) };
}

/**
 * `POST /auth/2fa/enable`: the first code proves the app holds the secret; the factor is on
 * and the ten recovery codes are answered this once. A session limited to the set-up (the
 * company requires a second factor) is a full one from now on, on every node.
 */
export async function enableSecondFactor(deps: TwoFactorDeps, ctx: RequestContext, code: string): Promise<{ recoveryCodes: string[] }> {
  const stored = await findTwoFactor(deps.db, ctx, ctx.user.id);
  if (!stored) throw new AppError('ERR_TWO_FACTOR_NOT_SET_UP');
  if (stored.enabledAt) throw new AppError('ERR_TWO_FACTOR_ALREADY_ENABLED');
  const secret = openSecret(deps, stored);
  const step = secret ? matchingTotpStep(secret, code, deps.clock.now()) : null;
  if (step === null) throw new AppError('ERR_INVALID_TWO_FACTOR_CODE');
  const recoveryCodes = generateRecoveryCodes();
  const hashes = recoveryCodes.map((recovery) => recoveryHash(deps, ctx.user.id, recovery));
  if (!(await enableTwoFactor(deps.db, ctx, ctx.user.id, step, hashes))) throw new AppError('ERR_TWO_FACTOR_NOT_SET_UP');
  await recordAudit(deps.db, ctx, { action: 'two_factor.enabled', entityId: ctx.user.id });
  await deps.access.changed({ companyId: ctx.companyId, userIds: [ctx.user.id] });
  return { recoveryCodes };
}

/**
 * `POST /auth/2fa/disable`: the owner proves itself with a code (or a recovery code) or the
 * password, counted by the login limiter like a sign-in (a stolen session cannot guess
 * either). Refused while the company requires a second factor.
 */
export async function disableSecondFactor(
  deps: TwoFactorDeps & { loginLimiter: LoginLimiter },
  ctx: RequestContext,
  body: TwoFactorDisableBody,
  client: { ip: string; deviceCookie?: string },
): Promise<void> {
  if (await companyRequires(deps, ctx)) throw new AppError('ERR_TWO_FACTOR_REQUIRED_BY_COMPANY');
  const stored = await findTwoFactor(deps.db, ctx, ctx.user.id);
  if (!stored?.enabledAt) throw new AppError('ERR_TWO_FACTOR_NOT_SET_UP');
  const admission = await deps.loginLimiter.enter({ ip: client.ip, email: ctx.user.email, deviceCookie: client.deviceCookie });
  if (!admission.admitted) throw tooManyRequests(admission.retryAfterSeconds);
  if (body.code !== undefined) {
    if (!(await spendSecondFactor(deps, stored, body.code))) throw new AppError('ERR_INVALID_TWO_FACTOR_CODE');
  } else {
    const credentials = await findCredentials(deps.db, ctx.user.email);
    if (!credentials || !(await verifyPassword(credentials.passwordHash, body.password ?? ''))) throw new AppError('ERR_WRONG_PASSWORD');
  }
  await admission.attempt.released();
  await removeTwoFactor(deps.db, ctx, ctx.user.id);
  await recordAudit(deps.db, ctx, { action: 'two_factor.disabled', entityId: ctx.user.id });
  await deps.access.changed({ companyId: ctx.companyId, userIds: [ctx.user.id] });
}

/**
 * `POST /users/:id/2fa/reset`: a super user removes a user's second factor (a lost phone), in any
 * company (the platform's support); that user signs in with the password alone, or sets a new one up.
 * Recorded in the user's company's log.
 */
export async function resetSecondFactor(deps: TwoFactorDeps, ctx: RequestContext, userId: number): Promise<void> {
  requireSuper(ctx);
  const companyId = await findUserCompanyId(deps.db, userId);
  if (companyId === null || !(await removeTwoFactor(deps.db, { companyId }, userId))) throw new AppError('ERR_NO_USER_FOUND');
  await recordAudit(deps.db, ctx, { action: 'two_factor.disabled', entityId: userId, changes: { resetBySuper: true }, companyId });
  await deps.access.changed({ companyId, userIds: [userId] });
}
