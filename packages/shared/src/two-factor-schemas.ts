import { z } from 'zod';

/**
 * Two-factor sign-in (issue 35 item 3; docs/architecture.md, "Two-factor sign-in").
 * A code is the authenticator app's 6 digits (TOTP, RFC 6238) or one of the ten
 * recovery codes `enable` answers once (`xxxxx-xxxxx`, base32 letters and digits).
 * Spaces and dashes typed with a code are ignored.
 */
export const TWO_FACTOR_RECOVERY_CODE_COUNT = 10;

/** What a user types: up to 64 characters, read once the spaces are gone. */
export const twoFactorCode = () =>
  z
    .string({ error: 'validation.required' })
    .max(64, 'validation.tooLong')
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().min(1, 'validation.required'));

export const TwoFactorEnableBody = z.object({ code: twoFactorCode() });
export type TwoFactorEnableBody = z.infer<typeof TwoFactorEnableBody>;

/** Turning the second factor off proves the owner: a current code (or a recovery code), or the password. */
export const TwoFactorDisableBody = z
  .object({
    code: twoFactorCode().optional(),
    password: z.string().min(1, 'validation.required').max(128, 'validation.tooLong').optional(),
  })
  .refine((body) => body.code !== undefined || body.password !== undefined, { message: 'validation.required', path: ['code'] });
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBody>;

/** `POST /auth/2fa/setup`: the new secret (base32) and the `otpauth://` address an authenticator app reads from a QR code. */
export const TwoFactorSetupAnswer = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TwoFactorSetupAnswer = z.infer<typeof TwoFactorSetupAnswer>;

/** `POST /auth/2fa/enable`: the recovery codes, shown this once (only their hashes are kept). */
export const TwoFactorEnableAnswer = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorEnableAnswer = z.infer<typeof TwoFactorEnableAnswer>;

/** `GET /auth/2fa`: the caller's second factor. */
export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** The company asks every user for one (setting `requireTwoFactor`). */
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** `POST /auth/login` for an account with a second factor and no `code` in the body: no session yet. */
export const TwoFactorRequiredAnswer = z.object({ twoFactorRequired: z.literal(true) });
export type TwoFactorRequiredAnswer = z.infer<typeof TwoFactorRequiredAnswer>;
