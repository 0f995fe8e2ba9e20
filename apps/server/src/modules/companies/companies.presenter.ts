import { presentDueDate, presentSchedules, type PresentedCompany, type PresentedCompanyPlan } from '@atende/shared';
import { presentPlanRow } from '../plans/plans.presenter.js';
import type { CompanyDetail } from './companies.repo.js';

export function presentCompany({ company, plan, campaignsEnabled }: CompanyDetail): PresentedCompany {
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    phone: company.phone,
    planId: company.planId,
    plan: presentPlanRow(plan),
    status: company.status,
    dueDate: presentDueDate(company.dueDate),
    recurrence: company.recurrence,
    schedules: presentSchedules(company.schedules),
    timezone: company.timezone,
    campaignsEnabled,
    createdAt: company.createdAt.toISOString(),
    updatedAt: company.updatedAt.toISOString(),
  };
}

/** `GET /companies/listPlan/{companyId}`: the company and its plan only. */
export function presentCompanyPlan({ company, plan }: CompanyDetail): PresentedCompanyPlan {
  return { id: company.id, name: company.name, plan: presentPlanRow(plan) };
}
