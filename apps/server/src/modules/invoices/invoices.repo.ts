import { NO_EXPIRY_DUE_DATE, PAGE_SIZE } from '@atende/shared';
import { and, desc, eq, ilike, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, invoices, pixCharges, type InvoiceRow, type PixChargeRow } from '../../platform/db/schema.js';
import { likeContains } from '../../platform/db/search.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/**
 * Makes the invoice of every active company whose due date is within `daysBefore`
 * days, from its plan's value (plans that cost nothing get none). One statement,
 * and one invoice per company and due date (unique key): running it twice, or on
 * two nodes at once, makes nothing more. `companyId` limits it to one company.
 */
export async function createDueInvoices(db: DbOrTx, options: { now: Date; daysBefore: number; companyId?: number }): Promise<{ id: number; companyId: number }[]> {
  // Due dates are calendar dates: the horizon is counted from today in each company's zone.
  const result = (await db.execute(sql`
    insert into invoices (company_id, plan_id, detail, value_cents, due_date)
    select c.id, p.id, p.name, p.value_cents, c.due_date
    from companies c join plans p on p.id = c.plan_id
    where c.status and not c.importing and c.due_date is not null and p.value_cents > 0
      and c.due_date <= (${options.now.toISOString()}::timestamptz at time zone c.timezone)::date + ${options.daysBefore}::int
      and c.due_date < ${NO_EXPIRY_DUE_DATE}::date
      ${options.companyId === undefined ? sql`` : sql`and c.id = ${options.companyId}`}
    on conflict (company_id, due_date) do nothing
    returning id, company_id`)) as unknown as { rows: { id: number; company_id: number }[] };
  return result.rows.map((row) => ({ id: Number(row.id), companyId: Number(row.company_id) }));
}

/**
 * The invoice of the company's current due date, made now if it has none (the same row
 * the hourly job would make: one per company and due date); null when there is nothing
 * to invoice (a free plan, no due date, or the no-expiry date).
 */
export async function issueCurrentInvoice(db: DbOrTx, companyId: number): Promise<{ invoice: InvoiceRow; created: boolean } | null> {
  const result = (await db.execute(sql`
    insert into invoices (company_id, plan_id, detail, value_cents, due_date)
    select c.id, p.id, p.name, p.value_cents, c.due_date
    from companies c join plans p on p.id = c.plan_id
    where c.id = ${companyId} and c.due_date is not null and p.value_cents > 0
      and c.due_date < ${NO_EXPIRY_DUE_DATE}::date
    on conflict (company_id, due_date) do nothing
    returning id`)) as unknown as { rows: { id: number }[] };
  const createdId = result.rows[0]?.id;
  const scope = { companyId };
  if (createdId !== undefined) {
    const invoice = await findInvoice(db, scope, Number(createdId));
    return invoice ? { invoice, created: true } : null;
  }
  const [existing] = await db
    .select({ invoice: invoices })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(inTenant(invoices, scope, eq(invoices.dueDate, companies.dueDate)))
    .limit(1);
  return existing ? { invoice: existing.invoice, created: false } : null;
}

/** A page of the company's invoices, the latest due date first; search by detail. */
export async function pageInvoices(db: DbOrTx, scope: TenantScope, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim();
  const where = inTenant(invoices, scope, term ? ilike(invoices.detail, likeContains(term)) : undefined);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const rows = await db
    .select()
    .from(invoices)
    .where(where)
    .orderBy(desc(invoices.dueDate), desc(invoices.id))
    .limit(PAGE_SIZE + 1)
    .offset(offset);
  return { invoices: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

/** The company's invoices, the latest due date first, at most `limit` (whaticket v6's `/invoices/list`). */
export async function listInvoices(db: DbOrTx, scope: TenantScope, limit: number): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(inTenant(invoices, scope)).orderBy(desc(invoices.dueDate), desc(invoices.id)).limit(limit);
}

export async function findInvoice(db: DbOrTx, scope: TenantScope, id: number): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(inTenant(invoices, scope, eq(invoices.id, id)))
    .limit(1);
  return row ?? null;
}

/** A charge of the invoice that can still be paid for a while, to show again instead of making another. */
export async function findOpenCharge(
  db: DbOrTx,
  scope: TenantScope,
  invoiceId: number,
  validAfter: Date,
  kind: { provider: PixChargeRow['provider']; method: PixChargeRow['method'] },
): Promise<PixChargeRow | null> {
  const [row] = await db
    .select()
    .from(pixCharges)
    .where(
      inTenant(
        pixCharges,
        scope,
        eq(pixCharges.invoiceId, invoiceId),
        eq(pixCharges.status, 'ATIVA'),
        eq(pixCharges.provider, kind.provider),
        eq(pixCharges.method, kind.method),
        sql`${pixCharges.expiresAt} > ${validAfter.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(pixCharges.id))
    .limit(1);
  return row ?? null;
}

/** The charge a PSP notification names: the txid (ours for Pix, Asaas's payment id) is unique across companies. */
export async function findChargeByTxid(db: DbOrTx, txid: string, provider: PixChargeRow['provider']): Promise<PixChargeRow | null> {
  const [row] = await db
    .select()
    .from(pixCharges)
    .where(and(eq(pixCharges.txid, txid), eq(pixCharges.provider, provider)))
    .limit(1);
  return row ?? null;
}

/** A stored charge the PSP no longer offers (removed, expired, or paid elsewhere): it is not shown again. */
export async function setChargeStatus(db: DbOrTx, chargeId: number, status: string): Promise<void> {
  await db.update(pixCharges).set({ status }).where(eq(pixCharges.id, chargeId));
}

export async function insertCharge(db: DbOrTx, charge: typeof pixCharges.$inferInsert): Promise<PixChargeRow | null> {
  const [row] = await db.insert(pixCharges).values(charge).returning();
  return row ?? null;
}

/** Marks the charge paid unless it already is; false when another notification (or node) did it first. */
export async function settleCharge(tx: DbOrTx, chargeId: number, paid: { at: Date; endToEndId: string }): Promise<boolean> {
  const [settled] = await tx
    .update(pixCharges)
    .set({ status: 'CONCLUIDA', paidAt: paid.at, endToEndId: paid.endToEndId })
    .where(and(eq(pixCharges.id, chargeId), ne(pixCharges.status, 'CONCLUIDA')))
    .returning({ id: pixCharges.id });
  return settled !== undefined;
}

/** Marks an open invoice paid; null when it was not open (already paid by another charge). */
export async function payInvoice(tx: DbOrTx, invoiceId: number, at: Date): Promise<InvoiceRow | null> {
  const [invoice] = await tx
    .update(invoices)
    .set({ status: 'paid', paidAt: at, updatedAt: at })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.status, 'open')))
    .returning();
  return invoice ?? null;
}

export async function companyBilling(tx: DbOrTx, companyId: number): Promise<{ recurrence: string; timezone: string } | null> {
  const [company] = await tx.select({ recurrence: companies.recurrence, timezone: companies.timezone }).from(companies).where(eq(companies.id, companyId));
  return company ?? null;
}

/** Moves the company's due date (a calendar date) to `months` after the day `base`, never back; 31 Jan + 1 month is the end of February. */
export async function extendDueDate(tx: DbOrTx, companyId: number, base: string, months: number, at: Date): Promise<{ id: number; dueDate: string | null } | null> {
  const [moved] = await tx
    .update(companies)
    .set({
      dueDate: sql`greatest(coalesce(${companies.dueDate}, ${base}::date), (${base}::date + make_interval(months => ${months}))::date)`,
      updatedAt: at,
    })
    .where(eq(companies.id, companyId))
    .returning({ id: companies.id, dueDate: companies.dueDate });
  return moved ?? null;
}
