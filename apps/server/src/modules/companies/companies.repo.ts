import { PAGE_SIZE } from '@atende/shared';
import { and, asc, count, eq, ilike, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, plans, settings, type CompanyRow, type PlanRow } from '../../platform/db/schema.js';
import { likeContains } from '../../platform/db/search.js';

export interface CompanyDetail {
  company: CompanyRow;
  plan: PlanRow;
  campaignsEnabled: boolean;
}

/** Companies are the tenants themselves: only super users (or a company reading itself) get here. */
async function withDetails(db: DbOrTx, rows: { company: CompanyRow; plan: PlanRow }[]): Promise<CompanyDetail[]> {
  if (rows.length === 0) return [];
  // campaignsEnabled is kept as a company setting (spec part 2 §3), read for all rows at once.
  const flags = await db
    .select({ companyId: settings.companyId })
    .from(settings)
    .where(
      and(
        eq(settings.key, 'campaignsEnabled'),
        eq(settings.value, 'true'),
        inArray(
          settings.companyId,
          rows.map((r) => r.company.id),
        ),
      ),
    );
  const enabled = new Set(flags.map((f) => f.companyId));
  return rows.map((row) => ({ ...row, campaignsEnabled: enabled.has(row.company.id) }));
}

function selectCompanies(db: DbOrTx) {
  return db.select({ company: companies, plan: plans }).from(companies).innerJoin(plans, eq(plans.id, companies.planId));
}

export async function findCompany(db: DbOrTx, id: number): Promise<CompanyDetail | null> {
  const rows = await selectCompanies(db).where(eq(companies.id, id)).limit(1);
  const [detail] = await withDetails(db, rows);
  return detail ?? null;
}

export async function listCompanies(db: DbOrTx): Promise<CompanyDetail[]> {
  return withDetails(db, await selectCompanies(db).orderBy(asc(companies.id)));
}

export async function pageCompanies(db: DbOrTx, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim();
  const where = term
    ? or(ilike(companies.name, likeContains(term)), ilike(companies.email, likeContains(term)), ilike(companies.phone, likeContains(term)))
    : undefined;
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const rows = await selectCompanies(db).where(where).orderBy(asc(companies.name), asc(companies.id)).limit(PAGE_SIZE).offset(offset);
  const [total] = await db.select({ value: count() }).from(companies).where(where);
  const totalCount = total?.value ?? 0;
  return { companies: await withDetails(db, rows), count: totalCount, hasMore: offset + rows.length < totalCount };
}
