import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';

describe('password hashes', () => {
  it('verifies argon2 hashes, and the bcrypt ones whaticket users arrive with ($2a$, $2b$, $2y$)', async () => {
    const argon = await hashPassword('Senha@123');
    expect(await verifyPassword(argon, 'Senha@123')).toBe(true);
    expect(await verifyPassword(argon, 'outra')).toBe(false);
    expect(needsRehash(argon)).toBe(false);
    const b = bcrypt.hashSync('Senha@123', 4);
    for (const prefix of ['$2a$', '$2b$', '$2y$']) {
      const stored = prefix + b.slice(4);
      expect(await verifyPassword(stored, 'Senha@123')).toBe(true);
      expect(await verifyPassword(stored, 'outra')).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it('refuses a hash of neither kind without throwing', async () => {
    expect(await verifyPassword('plain-text', 'plain-text')).toBe(false);
    expect(await verifyPassword('$2a$10$broken', 'x')).toBe(false);
  });
});
