import { randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client.js';
import { hashPassword } from '../auth/auth.service.js';
import { countCompanies, insertFirstCompany, lockFirstStart } from './companies.repo.js';

export interface SeedResult {
  seeded: boolean;
  adminEmail: string;
  /** Present only when the password was generated now: print it once. */
  generatedPassword?: string;
}

/**
 * First start: a plan with every feature on, company 1 with the default settings
 * and a super admin. Runs once; later starts, and nodes started at the same time,
 * find the company and change nothing.
 */
export async function seedFirstStart(db: Db, options: { adminEmail: string; adminPassword?: string }): Promise<SeedResult> {
  if ((await countCompanies(db)) > 0) return { seeded: false, adminEmail: options.adminEmail };

  const generatedPassword = options.adminPassword ? undefined : randomBytes(9).toString('base64url');
  const passwordHash = await hashPassword(options.adminPassword ?? generatedPassword ?? '');
  const seeded = await db.transaction(async (tx) => {
    // Another node starting at the same time may have seeded meanwhile.
    await lockFirstStart(tx);
    if ((await countCompanies(tx)) > 0) return false;
    await insertFirstCompany(tx, { email: options.adminEmail.toLowerCase(), passwordHash });
    return true;
  });
  if (!seeded) return { seeded: false, adminEmail: options.adminEmail };
  return { seeded: true, adminEmail: options.adminEmail.toLowerCase(), generatedPassword };
}
