import { randomBytes } from 'node:crypto';
import { NO_EXPIRY_DUE_DATE } from '@atende/shared';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { companies, plans, users } from '../../platform/db/schema.js';
import { hashPassword } from '../auth/auth.service.js';
import { insertDefaultSettings } from '../settings/settings.repo.js';

export interface SeedResult {
  seeded: boolean;
  adminEmail: string;
  /** Present only when the password was generated now: print it once. */
  generatedPassword?: string;
}

/**
 * First start: a plan with every feature on, company 1 with the default settings
 * and a super admin. Runs once; later starts find the company and change nothing.
 */
export async function seedFirstStart(db: Db, options: { adminEmail: string; adminPassword?: string }): Promise<SeedResult> {
  const [existing] = await db.select({ value: count() }).from(companies);
  if ((existing?.value ?? 0) > 0) return { seeded: false, adminEmail: options.adminEmail };

  const generatedPassword = options.adminPassword ? undefined : randomBytes(9).toString('base64url');
  const passwordHash = await hashPassword(options.adminPassword ?? generatedPassword ?? '');
  await db.transaction(async (tx) => {
    const [plan] = await tx
      .insert(plans)
      .values({ name: 'Plano 1', users: 100, connections: 100, queues: 100, valueCents: 0 })
      .returning({ id: plans.id });
    if (!plan) throw new Error('plan insert returned nothing');
    await tx.insert(companies).values({ id: 1, name: 'Empresa 1', planId: plan.id, recurrence: 'MENSAL', dueDate: new Date(NO_EXPIRY_DUE_DATE) });
    // Company 1 was inserted with an explicit id: move the sequence past it.
    await tx.execute(sql`select setval(pg_get_serial_sequence('companies', 'id'), (select max(id) from companies))`);
    await insertDefaultSettings(tx, { companyId: 1 });
    await tx.insert(users).values({
      companyId: 1,
      name: 'Admin',
      email: options.adminEmail.toLowerCase(),
      passwordHash,
      profile: 'admin',
      super: true,
      allTicket: 'enabled',
    });
  });
  return { seeded: true, adminEmail: options.adminEmail.toLowerCase(), generatedPassword };
}
