import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Language, ResetPasswordBody } from '@atende/shared';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestClient } from '../../platform/http/context.js';
import type { RateLimiter } from '../../platform/http/rate-limiter.js';
import type { Platform } from '../../platform/platform.js';
import { hashPassword } from '../auth/auth.service.js';
import { revokeUserTokens } from '../auth/refresh-tokens.repo.js';
import { resetCodeMail } from '../signup/account-mails.js';
import { loadSetting } from '../settings/settings.repo.js';
import { countResetTry, endResetCodes, findAccountByEmail, insertResetCode, setPassword, useResetCode } from './password-reset.repo.js';
import { platformSetting } from '../signup/signup.service.js';

export type PasswordResetDeps = Pick<Platform, 'db' | 'config' | 'mailer' | 'access'> & {
  /** Password-reset requests and tries (fixed windows of an hour). */
  resetLimiter: RateLimiter;
};

/** DECISIONS.md §11: a code lasts 30 minutes, is used once and tried at most 5 times. */
const RESET_CODE_MINUTES = 30;
const RESET_CODE_TRIES = 5;

function hashCode(userId: number, code: string): string {
  return createHash('sha256').update(`${userId}:${code}`).digest('hex');
}

/**
 * `POST /forgetpassword/{email}`: e-mails a 6-digit code to the account's owner. The
 * answer is the same whether or not the e-mail has an account (unless a super user
 * turned on the spec's 404-in-body for a client that expects it). A new code
 * replaces the earlier ones. Limited per address and per account (e-mail), the
 * account's count kept for unknown e-mails too, so a 429 tells nothing either.
 */
export async function requestReset(
  deps: PasswordResetDeps,
  input: { email: string; ip: string; client?: RequestClient; language?: Language; log: (error: unknown) => void },
): Promise<{ found: boolean }> {
  const { config } = deps;
  if (!(await deps.resetLimiter.hit(`ip:${input.ip}`, config.PASSWORD_RESET_LIMIT_PER_IP))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  if (!deps.mailer.configured) throw new AppError('ERR_MAIL_UNAVAILABLE');
  // Whatever the address: rotating addresses (or a trusted proxy's header) gets no more codes.
  if (!(await deps.resetLimiter.hit(`codes:${input.email}`, config.PASSWORD_RESET_CODES_PER_ACCOUNT))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  const user = await findAccountByEmail(deps.db, input.email);
  if (!user) return { found: false };
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await deps.db.transaction(async (tx) => {
    await endResetCodes(tx, user.id);
    await insertResetCode(tx, {
      companyId: user.companyId,
      userId: user.id,
      codeHash: hashCode(user.id, code),
      expiresAt: new Date(Date.now() + RESET_CODE_MINUTES * 60_000),
    });
    // Asked by whoever knows the e-mail: the entry names the account and the address that asked.
    await recordAudit(tx, { companyId: user.companyId, userId: user.id, userName: user.name, client: input.client ?? null }, { action: 'auth.password_reset_requested', entityId: user.id });
  });
  // The page's language, else the user's, else the company's (DECISIONS §1).
  const language = (input.language ?? user.language ?? (await loadSetting(deps.db, { companyId: user.companyId }, 'language'))) as Language;
  // Sent after the answer is decided: a slow or failing SMTP server shows nothing about the account.
  deps.mailer.send(resetCodeMail(input.email, code, RESET_CODE_MINUTES, language)).catch(input.log);
  return { found: true };
}

/** Whether the spec's "404 in the body" answer is on (off by default: it tells who has an account). */
export async function revealsUnknownEmail(deps: Pick<Platform, 'db'>): Promise<boolean> {
  return (await platformSetting(deps, 'passwordResetNotFound')) === 'enabled';
}

/**
 * Sets a new password with a code: one answer (ERR_INVALID_RESET_CODE) for an
 * unknown e-mail, a wrong, used or expired code, or a code tried too often. Each
 * try counts before the code is compared, on the code and on the account (e-mail,
 * whatever the address: PASSWORD_RESET_TRIES_PER_ACCOUNT an hour across all its
 * codes, unknown e-mails counted alike, so the 429 beyond tells nothing). Every
 * session of the user ends, and every other code of the account.
 */
export async function resetPassword(deps: PasswordResetDeps, body: ResetPasswordBody, client?: RequestClient): Promise<void> {
  const triesKey = `tries:${body.email}`;
  if (!(await deps.resetLimiter.hit(triesKey, deps.config.PASSWORD_RESET_TRIES_PER_ACCOUNT))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  // Hashed first, so an unknown e-mail answers as slowly as a wrong code.
  const passwordHash = await hashPassword(body.newPassword);
  const user = await findAccountByEmail(deps.db, body.email);
  if (!user) throw new AppError('ERR_INVALID_RESET_CODE');
  const revoked = await deps.db.transaction(async (tx) => {
    const reset = await countResetTry(tx, user.id, RESET_CODE_TRIES);
    if (!reset) return null;
    const given = Buffer.from(hashCode(user.id, body.token));
    if (!timingSafeEqual(given, Buffer.from(reset.codeHash))) return null;
    if (!(await useResetCode(tx, reset.id))) return null;
    await endResetCodes(tx, user.id);
    await setPassword(tx, user.id, passwordHash);
    await recordAudit(tx, { companyId: user.companyId, userId: user.id, userName: user.name, client: client ?? null }, { action: 'auth.password_reset', entityId: user.id });
    return revokeUserTokens(tx, user, user.id);
  });
  if (!revoked) throw new AppError('ERR_INVALID_RESET_CODE');
  // The owner is back in: the account's tries start again (they were wrong tries only).
  await deps.resetLimiter.forget([triesKey]);
  await deps.access.changed({ companyId: user.companyId, userIds: [user.id], endedFamilies: revoked });
}
