import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/** Whaticket's bcrypt hashes ($2a$, $2b$, $2y$), kept by the importer so imported users sign in with their old password. */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$/;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** Whether the password matches the stored hash: argon2id, or an imported bcrypt hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (BCRYPT_HASH.test(stored)) return bcrypt.compare(password, stored).catch(() => false);
  return verify(stored, password).catch(() => false);
}

/** A hash that is not argon2 (an imported bcrypt one) is replaced after the first successful sign-in. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$argon2');
}
