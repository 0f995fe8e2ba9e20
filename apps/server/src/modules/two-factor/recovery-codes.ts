import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { TWO_FACTOR_RECOVERY_CODE_COUNT } from '@atende/shared';
import { base32Encode } from './totp.js';

/**
 * Recovery codes: ten per enabled second factor, each 50 random bits written
 * `xxxxx-xxxxx` (base32, lower case). Only a keyed hash is stored: HMAC-SHA-256 under a
 * key derived from ENCRYPTION_KEY (HKDF, info `two-factor-recovery-codes`), of the user
 * id and the code. A fast hash is enough here: the codes are random (not chosen by
 * people), the database alone does not give the key, and a sign-in checks one code
 * against one indexed row instead of ten argon2 hashes.
 */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: TWO_FACTOR_RECOVERY_CODE_COUNT }, () => {
    const code = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** How a typed code is compared: case, dashes and spaces do not matter. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function createRecoveryCodeHasher(encryptionKey: string): (userId: number, code: string) => string {
  const key = Buffer.from(hkdfSync('sha256', encryptionKey, 'atende', 'two-factor-recovery-codes', 32));
  return (userId, code) => createHmac('sha256', key).update(`${userId}:${normalizeRecoveryCode(code)}`).digest('hex');
}
