import { DEFAULT_TIMEZONE, dueDateDay, NO_EXPIRY_DUE_DATE, type CompanyBody, type CompanyUpdateBody, type ScheduleEntry } from '@atende/shared';
import { recordAudit, recordedFields } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { hashPassword } from '../auth/auth.service.js';
import { makeDueInvoices } from '../invoices/invoices.service.js';
import { findPlan } from '../plans/plans.repo.js';
import { upsertSetting } from '../settings/settings.repo.js';
import { emailTaken } from '../users/users.repo.js';
import {
  deleteCompanyRow,
  findCompany,
  insertCompany,
  listCompanies,
  pageCompanies,
  updateCompanyRow,
  type CompanyDetail,
} from './companies.repo.js';

export const MAIN_COMPANY_ID = 1;

/** Companies are the tenants themselves: super users manage them; a company reads itself. */
export type CompaniesDeps = Pick<Platform, 'db' | 'access' | 'config'>;

/** `timeZone`: the company's, in which a due date sent as an instant is read as a day. */
function companyColumns(body: CompanyUpdateBody, timeZone: string) {
  return {
    name: body.name,
    email: body.email,
    phone: body.phone,
    planId: body.planId,
    status: body.status,
    dueDate: body.dueDate === undefined || body.dueDate === null ? body.dueDate : dueDateDay(body.dueDate, timeZone),
    recurrence: body.recurrence,
    timezone: body.timezone,
  };
}

/** A company reads itself; a super user reads any. Another tenant's id is "not found". */
function assertOwnCompanyOrSuper(ctx: RequestContext, id: number): void {
  if (id !== ctx.companyId && !ctx.user.super) throw new AppError('ERR_NO_COMPANY_FOUND');
}

export function companyPage(deps: Pick<Platform, 'db'>, query: { searchParam: string; pageNumber: number }) {
  return pageCompanies(deps.db, query);
}

export function listAllCompanies(deps: Pick<Platform, 'db'>): Promise<CompanyDetail[]> {
  return listCompanies(deps.db);
}

export async function showCompany(deps: Pick<Platform, 'db'>, ctx: RequestContext, id: number): Promise<CompanyDetail> {
  assertOwnCompanyOrSuper(ctx, id);
  const detail = await findCompany(deps.db, id);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}

export async function createCompany(deps: CompaniesDeps, ctx: RequestContext, body: CompanyBody): Promise<CompanyDetail> {
  requireSuper(ctx);
  if (!(await findPlan(deps.db, body.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  const adminEmail = body.password ? body.email : undefined;
  if (adminEmail && (await emailTaken(deps.db, adminEmail))) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  const passwordHash = body.password && adminEmail ? await hashPassword(body.password) : null;

  const companyId = await deps.db.transaction(async (tx) => {
    const created = await insertCompany(tx, {
      company: {
        ...companyColumns(body, body.timezone ?? DEFAULT_TIMEZONE),
        // Created without one: no expiry, as a date the spec's client accepts.
        ...(body.dueDate === undefined ? { dueDate: NO_EXPIRY_DUE_DATE } : {}),
        name: body.name,
        planId: body.planId,
      },
      campaignsEnabled: body.campaignsEnabled !== false,
      admin: passwordHash && adminEmail ? { name: body.name, email: adminEmail, passwordHash } : null,
    });
    // A platform-level entry: companies are the platform's records (super users read them).
    await recordAudit(tx, ctx, { action: 'company.created', entityId: created, changes: { name: body.name, planId: body.planId, adminEmail: adminEmail ?? null }, companyId: null });
    return created;
  });
  // A paid plan with a near due date is invoiced now, not at the hourly job's next run (which makes the same row).
  await makeDueInvoices(deps, companyId);
  const detail = await findCompany(deps.db, companyId);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}

export async function updateCompany(deps: CompaniesDeps, ctx: RequestContext, id: number, body: CompanyUpdateBody): Promise<CompanyDetail> {
  requireSuper(ctx);
  if (body.planId !== undefined && !(await findPlan(deps.db, body.planId))) throw new AppError('ERR_NO_PLAN_FOUND');
  const needsZone = typeof body.dueDate === 'string' && !body.timezone;
  const timeZone = body.timezone ?? (needsZone ? (await findCompany(deps.db, id))?.company.timezone : undefined) ?? DEFAULT_TIMEZONE;
  await deps.db.transaction(async (tx) => {
    const columns = companyColumns(body, timeZone);
    if (!(await updateCompanyRow(tx, id, columns))) throw new AppError('ERR_NO_COMPANY_FOUND');
    // In the company's own log: its admins see what the platform changed (plan, status, due date).
    const changed = { ...recordedFields(columns, (Object.keys(columns) as (keyof typeof columns)[]).filter((key) => columns[key] !== undefined)), ...(body.campaignsEnabled !== undefined ? { campaignsEnabled: body.campaignsEnabled } : {}) };
    await recordAudit(tx, ctx, { action: 'company.updated', entityId: id, changes: changed, companyId: id });
    if (body.campaignsEnabled !== undefined) {
      await upsertSetting(tx, { companyId: id }, 'campaignsEnabled', body.campaignsEnabled ? 'true' : 'false');
    }
  });
  // Sessions carry the company's status, due date and plan; a deactivated company's sockets end.
  await deps.access.changed({ companyId: id });
  await makeDueInvoices(deps, id);
  const detail = await findCompany(deps.db, id);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}

export async function deleteCompany(deps: CompaniesDeps, ctx: RequestContext, id: number): Promise<void> {
  requireSuper(ctx);
  if (id === MAIN_COMPANY_ID || id === ctx.companyId) throw new AppError('ERR_CANNOT_DELETE_MAIN_COMPANY');
  const deleted = await deps.db.transaction(async (tx) => {
    const removed = await deleteCompanyRow(tx, id);
    // The company's own entries go with it; this one stays at the platform level.
    if (removed) await recordAudit(tx, ctx, { action: 'company.deleted', entityId: id, companyId: null });
    return removed;
  });
  if (!deleted) throw new AppError('ERR_NO_COMPANY_FOUND');
  await deps.access.changed({ companyId: id });
}

export async function updateCompanySchedules(
  deps: Pick<Platform, 'db'>,
  ctx: RequestContext,
  id: number,
  schedules: ScheduleEntry[],
): Promise<CompanyDetail> {
  assertOwnCompanyOrSuper(ctx, id);
  requireAdmin(ctx);
  if (!(await updateCompanyRow(deps.db, id, { schedules }))) throw new AppError('ERR_NO_COMPANY_FOUND');
  const detail = await findCompany(deps.db, id);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return detail;
}
