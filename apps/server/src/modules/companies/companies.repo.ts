import { CHATBOT_TEXT_DEFAULTS, NO_EXPIRY_DUE_DATE, PAGE_SIZE, type Language } from '@atende/shared';
import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, plans, settings, users, type CompanyRow, type PlanRow } from '../../platform/db/schema.js';
import { likeContains } from '../../platform/db/search.js';
import { AppError } from '../../platform/http/app-error.js';
import { insertDefaultSettings } from '../settings/settings.repo.js';

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

/** A company the whaticket importer has not finished is nowhere to be seen (cli/import-whaticket). */
const visible = eq(companies.importing, false);

export async function findCompany(db: DbOrTx, id: number): Promise<CompanyDetail | null> {
  const rows = await selectCompanies(db).where(and(eq(companies.id, id), visible)).limit(1);
  const [detail] = await withDetails(db, rows);
  return detail ?? null;
}

export async function listCompanies(db: DbOrTx): Promise<CompanyDetail[]> {
  return withDetails(db, await selectCompanies(db).where(visible).orderBy(asc(companies.id)));
}

export async function pageCompanies(db: DbOrTx, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim();
  const where = term
    ? and(visible, or(ilike(companies.name, likeContains(term)), ilike(companies.email, likeContains(term)), ilike(companies.phone, likeContains(term))))
    : visible;
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const rows = await selectCompanies(db).where(where).orderBy(asc(companies.name), asc(companies.id)).limit(PAGE_SIZE).offset(offset);
  const [total] = await db.select({ value: count() }).from(companies).where(where);
  const totalCount = total?.value ?? 0;
  return { companies: await withDetails(db, rows), count: totalCount, hasMore: offset + rows.length < totalCount };
}

/**
 * One company with its default settings and, when given, its first admin (super-user
 * create and sign-up). Its language is Portuguese unless the sign-up page was in another,
 * and its chatbot's menu words start in it (DECISIONS §1).
 */
export async function insertCompany(
  tx: DbOrTx,
  input: {
    company: typeof companies.$inferInsert;
    campaignsEnabled: boolean;
    admin: { name: string; email: string; passwordHash: string } | null;
    language?: Language;
  },
): Promise<number> {
  const [company] = await tx.insert(companies).values(input.company).returning({ id: companies.id });
  if (!company) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  const language = input.language ?? 'pt';
  await insertDefaultSettings(tx, { companyId: company.id }, { campaignsEnabled: input.campaignsEnabled ? 'true' : 'false', language, ...CHATBOT_TEXT_DEFAULTS[language] });
  if (input.admin) {
    // The sign-up page's language is its admin's own choice; otherwise the admin follows the company's.
    await tx.insert(users).values({ companyId: company.id, ...input.admin, profile: 'admin', allTicket: 'enabled', language: input.language ?? null });
  }
  return company.id;
}

/** Writes a company's columns; false when there is no such company. */
export async function updateCompanyRow(db: DbOrTx, id: number, change: Partial<typeof companies.$inferInsert>): Promise<boolean> {
  const updated = await db
    .update(companies)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(companies.id, id))
    .returning({ id: companies.id });
  return updated.length > 0;
}

export async function deleteCompanyRow(db: DbOrTx, id: number): Promise<boolean> {
  const deleted = await db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
  return deleted.length > 0;
}

export async function countCompanies(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ value: count() }).from(companies);
  return row?.value ?? 0;
}

const FIRST_START_LOCK = 0x61_74_65_31; // "ate1"

/**
 * Held until the end of the transaction: of nodes starting together on an empty
 * database, one seeds it and the others, waiting here, then find its company.
 */
export async function lockFirstStart(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_START_LOCK})`);
}

/** The first start's rows: a plan with every feature on, company 1 with the default settings and its super admin. */
export async function insertFirstCompany(tx: DbOrTx, admin: { email: string; passwordHash: string }): Promise<void> {
  const [plan] = await tx
    .insert(plans)
    .values({ name: 'Plano 1', users: 100, connections: 100, queues: 100, valueCents: 0 })
    .returning({ id: plans.id });
  if (!plan) throw new Error('plan insert returned nothing');
  await tx.insert(companies).values({ id: 1, name: 'Empresa 1', planId: plan.id, recurrence: 'MENSAL', dueDate: NO_EXPIRY_DUE_DATE });
  // Company 1 was inserted with an explicit id: move the sequence past it.
  await tx.execute(sql`select setval(pg_get_serial_sequence('companies', 'id'), (select max(id) from companies))`);
  await insertDefaultSettings(tx, { companyId: 1 });
  await tx.insert(users).values({
    companyId: 1,
    name: 'Admin',
    email: admin.email,
    passwordHash: admin.passwordHash,
    profile: 'admin',
    super: true,
    allTicket: 'enabled',
  });
}
