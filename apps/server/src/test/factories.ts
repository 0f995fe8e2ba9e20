import { randomBytes } from 'node:crypto';
import { dayIn, DEFAULT_TIMEZONE } from '@atende/shared';
import { hashPassword } from '../modules/auth/auth.service.js';
import { insertDefaultSettings } from '../modules/settings/settings.repo.js';
import type { Db } from '../platform/db/client.js';
import { companies, plans, queues, userQueues, users } from '../platform/db/schema.js';

type PlanOverrides = Partial<typeof plans.$inferInsert>;

export interface BuiltUser {
  id: number;
  companyId: number;
  email: string;
  password: string;
  login(): Promise<{ token: string; cookie: string }>;
}

export interface BuiltCompany {
  id: number;
  planId: number;
  admin: BuiltUser;
}

const unique = () => randomBytes(4).toString('hex');
// Hashing is deliberately slow; factories share one hash for their default password.
const DEFAULT_PASSWORD = 'Secret123!';
let defaultHash: Promise<string> | null = null;

export interface Factories {
  buildPlan(overrides?: PlanOverrides): Promise<{ id: number }>;
  /** A company with its own plan, the default settings and an admin user. */
  /** `dueDate`: a calendar date (`YYYY-MM-DD`); 30 days from now by default. */
  buildCompany(overrides?: { plan?: PlanOverrides; dueDate?: string | null; name?: string }): Promise<BuiltCompany>;
  buildUser(companyId: number, overrides?: Partial<typeof users.$inferInsert> & { password?: string; queueIds?: number[] }): Promise<BuiltUser>;
  buildQueue(companyId: number, overrides?: Partial<typeof queues.$inferInsert>): Promise<{ id: number; name: string; color: string }>;
}

export function createFactories(db: Db, login: (email: string, password: string) => Promise<{ token: string; cookie: string }>): Factories {
  const factories: Factories = {
    async buildPlan(overrides = {}) {
      const [plan] = await db.insert(plans).values({ name: `Plan ${unique()}`, users: 10, connections: 10, queues: 10, ...overrides }).returning({ id: plans.id });
      if (!plan) throw new Error('plan not created');
      return plan;
    },
    async buildCompany(overrides = {}) {
      const plan = await factories.buildPlan(overrides.plan);
      const dueDate = overrides.dueDate === undefined ? dayIn(new Date(Date.now() + 30 * 86_400_000), DEFAULT_TIMEZONE) : overrides.dueDate;
      const [company] = await db
        .insert(companies)
        .values({ name: overrides.name ?? `Company ${unique()}`, planId: plan.id, dueDate })
        .returning({ id: companies.id });
      if (!company) throw new Error('company not created');
      await insertDefaultSettings(db, { companyId: company.id });
      const admin = await factories.buildUser(company.id, { profile: 'admin', allTicket: 'enabled' });
      return { id: company.id, planId: plan.id, admin };
    },
    async buildUser(companyId, overrides = {}) {
      const { password = DEFAULT_PASSWORD, queueIds = [], ...columns } = overrides;
      defaultHash ??= hashPassword(DEFAULT_PASSWORD);
      const passwordHash = password === DEFAULT_PASSWORD ? await defaultHash : await hashPassword(password);
      const email = columns.email ?? `user-${unique()}@example.com`;
      const [user] = await db
        .insert(users)
        .values({ companyId, name: `User ${unique()}`, passwordHash, ...columns, email })
        .returning({ id: users.id });
      if (!user) throw new Error('user not created');
      if (queueIds.length > 0) await db.insert(userQueues).values(queueIds.map((queueId) => ({ companyId, userId: user.id, queueId })));
      return { id: user.id, companyId, email, password, login: () => login(email, password) };
    },
    async buildQueue(companyId, overrides = {}) {
      const [queue] = await db
        .insert(queues)
        .values({ companyId, name: `Queue ${unique()}`, color: `#${unique().slice(0, 6)}`, ...overrides })
        .returning({ id: queues.id, name: queues.name, color: queues.color });
      if (!queue) throw new Error('queue not created');
      return queue;
    },
  };
  return factories;
}
