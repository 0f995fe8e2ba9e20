import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Language, ResetPasswordBody } from '@atende/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { passwordResets, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { hashPassword } from '../auth/auth.service.js';
import { revokeUserTokens } from '../auth/refresh-tokens.repo.js';
import { resetCodeMail } from '../signup/account-mails.js';
import { endResetCodes } from './password-reset.repo.js';
import { platformSetting } from '../signup/signup.service.js';

/** DECISIONS.md §11: a code lasts 30 minutes, is used once and tried at most 5 times. */
export const RESET_CODE_MINUTES = 30;
export const RESET_CODE_TRIES = 5;

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
  services: AppServices,
  input: { email: string; ip: string; language?: Language; log: (error: unknown) => void },
): Promise<{ found: boolean }> {
  const { config } = services;
  if (!(await services.resetLimiter.hit(`ip:${input.ip}`, config.PASSWORD_RESET_LIMIT_PER_IP))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  if (!services.mailer.configured) throw new AppError('ERR_MAIL_UNAVAILABLE');
  // Whatever the address: rotating addresses (or a trusted proxy's header) gets no more codes.
  if (!(await services.resetLimiter.hit(`codes:${input.email}`, config.PASSWORD_RESET_CODES_PER_ACCOUNT))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  const [user] = await services.db
    .select({ id: users.id, companyId: users.companyId, language: users.language })
    .from(users)
    .where(eq(users.email, input.email))
    .limit(1);
  if (!user) return { found: false };
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await services.db.transaction(async (tx) => {
    await endResetCodes(tx, user.id);
    await tx.insert(passwordResets).values({
      companyId: user.companyId,
      userId: user.id,
      codeHash: hashCode(user.id, code),
      expiresAt: new Date(Date.now() + RESET_CODE_MINUTES * 60_000),
    });
  });
  const language = (input.language ?? user.language ?? undefined) as Language | undefined;
  // Sent after the answer is decided: a slow or failing SMTP server shows nothing about the account.
  services.mailer.send(resetCodeMail(input.email, code, RESET_CODE_MINUTES, language)).catch(input.log);
  return { found: true };
}

/** Whether the spec's "404 in the body" answer is on (off by default: it tells who has an account). */
export async function revealsUnknownEmail(services: AppServices): Promise<boolean> {
  return (await platformSetting(services, 'passwordResetNotFound')) === 'enabled';
}

/**
 * Sets a new password with a code: one answer (ERR_INVALID_RESET_CODE) for an
 * unknown e-mail, a wrong, used or expired code, or a code tried too often. Each
 * try counts before the code is compared, on the code and on the account (e-mail,
 * whatever the address: PASSWORD_RESET_TRIES_PER_ACCOUNT an hour across all its
 * codes, unknown e-mails counted alike, so the 429 beyond tells nothing). Every
 * session of the user ends, and every other code of the account.
 */
export async function resetPassword(services: AppServices, body: ResetPasswordBody): Promise<void> {
  const triesKey = `tries:${body.email}`;
  if (!(await services.resetLimiter.hit(triesKey, services.config.PASSWORD_RESET_TRIES_PER_ACCOUNT))) throw new AppError('ERR_TOO_MANY_REQUESTS');
  // Hashed first, so an unknown e-mail answers as slowly as a wrong code.
  const passwordHash = await hashPassword(body.newPassword);
  const [user] = await services.db.select({ id: users.id, companyId: users.companyId }).from(users).where(eq(users.email, body.email)).limit(1);
  if (!user) throw new AppError('ERR_INVALID_RESET_CODE');
  const revoked = await services.db.transaction(async (tx) => {
    const [reset] = await tx
      .update(passwordResets)
      .set({ attempts: sql`${passwordResets.attempts} + 1` })
      .where(
        and(
          eq(passwordResets.userId, user.id),
          isNull(passwordResets.usedAt),
          sql`${passwordResets.expiresAt} > now()`,
          sql`${passwordResets.attempts} < ${RESET_CODE_TRIES}`,
          sql`${passwordResets.id} = (select max(id) from password_resets where user_id = ${user.id})`,
        ),
      )
      .returning({ id: passwordResets.id, codeHash: passwordResets.codeHash });
    if (!reset) return null;
    const given = Buffer.from(hashCode(user.id, body.token));
    if (!timingSafeEqual(given, Buffer.from(reset.codeHash))) return null;
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (!used) return null;
    await endResetCodes(tx, user.id);
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    return revokeUserTokens(tx, user, user.id);
  });
  if (!revoked) throw new AppError('ERR_INVALID_RESET_CODE');
  // The owner is back in: the account's tries start again (they were wrong tries only).
  await services.resetLimiter.forget([triesKey]);
  await services.access.changed({ companyId: user.companyId, userIds: [user.id], endedFamilies: revoked });
}

