import { NO_EXPIRY_DUE_DATE, type CompanyBody, type CompanyUpdateBody, type ScheduleEntry } from '@atende/shared';
import { eq } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import { hashPassword } from '../auth/auth.service.js';
import { findPlan } from '../plans/plans.repo.js';
import { insertDefaultSettings, upsertSetting } from '../settings/settings.repo.js';
import { emailTaken } from '../users/users.repo.js';
import { findCompany, type CompanyDetail } from './companies.repo.js';

export const MAIN_COMPANY_ID = 1;

function companyColumns(body: CompanyUpdateBody) {
  return {
    name: body.name,
    email: body.email,
    phone: body.phone,
    planId: body.planId,
    status: body.status,
    dueDate: body.dueDate === undefined ? undefined : body.dueDate === null ? null : new Date(body.dueDate),
    recurrence: body.recurrence,
    timezone: body.timezone,
  };
}

/** One company with its default settings and, when given, its first admin (super-user create and sign-up). */
export async function insertCompany(
  tx: DbOrTx,
  input: { company: typeof companies.$inferInsert; campaignsEnabled: boolean; admin: { name: string; email: string; passwordHash: string } | null },
): Promise<number> {
  const [company] = await tx.insert(companies).values(input.company).returning({ id: companies.id });
  if (!company) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  await insertDefaultSettings(tx, { companyId: company.id }, { campaignsEnabled: input.campaignsEnabled ? 'true' : 'false' });
  if (input.admin) {
    await tx.insert(users).values({ companyId: company.id, ...input.admin, profile: 'admin', allTicket: 'enabled' });
  }
  return company.id;
}

export async function createCompany(services: AppServices, ctx: RequestContext, body: CompanyBody): Promise<CompanyDetail> {
  requireSuper(ctx);
  if (!(await findPlan(services.db, body.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  const adminEmail = body.password ? body.email : undefined;
  if (adminEmail && (await emailTaken(services.db, adminEmail))) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  const passwordHash = body.password && adminEmail ? await hashPassword(body.password) : null;

  const companyId = await services.db.transaction((tx) =>
    insertCompany(tx, {
      company: {
        ...companyColumns(body),
        // Created without one: no expiry, as a date the spec's client accepts.
        ...(body.dueDate === undefined ? { dueDate: new Date(NO_EXPIRY_DUE_DATE) } : {}),
        name: body.name,
        planId: body.planId,
      },
      campaignsEnabled: body.campaignsEnabled !== false,
      admin: passwordHash && adminEmail ? { name: body.name, email: adminEmail, passwordHash } : null,
    }),
  );
  const detail = await findCompany(services.db, companyId);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}

export async function updateCompany(services: AppServices, ctx: RequestContext, id: number, body: CompanyUpdateBody): Promise<CompanyDetail> {
  requireSuper(ctx);
  if (body.planId !== undefined && !(await findPlan(services.db, body.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  await services.db.transaction(async (tx) => {
    const updated = await tx
      .update(companies)
      .set({ ...companyColumns(body), updatedAt: new Date() })
      .where(eq(companies.id, id))
      .returning({ id: companies.id });
    if (updated.length === 0) throw new AppError('ERR_NO_COMPANY_FOUND');
    if (body.campaignsEnabled !== undefined) {
      await upsertSetting(tx, { companyId: id }, 'campaignsEnabled', body.campaignsEnabled ? 'true' : 'false');
    }
  });
  // Sessions carry the company's status, due date and plan; a deactivated company's sockets end.
  await services.access.changed({ companyId: id });
  const detail = await findCompany(services.db, id);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}

export async function deleteCompany(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  requireSuper(ctx);
  if (id === MAIN_COMPANY_ID || id === ctx.companyId) throw new AppError('ERR_CANNOT_DELETE_MAIN_COMPANY');
  const deleted = await services.db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
  if (deleted.length === 0) throw new AppError('ERR_NO_COMPANY_FOUND');
  await services.access.changed({ companyId: id });
}

/** A company reads itself; a super user reads any. Another tenant's id is "not found". */
export function assertOwnCompanyOrSuper(ctx: RequestContext, id: number): void {
  if (id !== ctx.companyId && !ctx.user.super) throw new AppError('ERR_NO_COMPANY_FOUND');
}

export async function updateCompanySchedules(
  services: AppServices,
  ctx: RequestContext,
  id: number,
  schedules: ScheduleEntry[],
): Promise<CompanyDetail> {
  assertOwnCompanyOrSuper(ctx, id);
  requireAdmin(ctx);
  const updated = await services.db
    .update(companies)
    .set({ schedules, updatedAt: new Date() })
    .where(eq(companies.id, id))
    .returning({ id: companies.id });
  if (updated.length === 0) throw new AppError('ERR_NO_COMPANY_FOUND');
  const detail = await findCompany(services.db, id);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}
