import { NO_EXPIRY_DUE_DATE, PAGE_SIZE } from '@atende/shared';
import { desc, eq, ilike, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { invoices, pixCharges, type InvoiceRow, type PixChargeRow } from '../../platform/db/schema.js';
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
  const horizon = new Date(options.now.getTime() + options.daysBefore * 86_400_000);
  const result = (await db.execute(sql`
    insert into invoices (company_id, plan_id, detail, value_cents, due_date)
    select c.id, p.id, p.name, p.value_cents, c.due_date
    from companies c join plans p on p.id = c.plan_id
    where c.status and c.due_date is not null and p.value_cents > 0
      and c.due_date <= ${horizon.toISOString()}::timestamptz
      and c.due_date < ${NO_EXPIRY_DUE_DATE}::timestamptz
      ${options.companyId === undefined ? sql`` : sql`and c.id = ${options.companyId}`}
    on conflict (company_id, due_date) do nothing
    returning id, company_id`)) as unknown as { rows: { id: number; company_id: number }[] };
  return result.rows.map((row) => ({ id: Number(row.id), companyId: Number(row.company_id) }));
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

export async function findInvoice(db: DbOrTx, scope: TenantScope, id: number): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(inTenant(invoices, scope, eq(invoices.id, id)))
    .limit(1);
  return row ?? null;
}

/** A charge of the invoice that can still be paid for a while, to show again instead of making another. */
export async function findOpenCharge(db: DbOrTx, scope: TenantScope, invoiceId: number, validAfter: Date): Promise<PixChargeRow | null> {
  const [row] = await db
    .select()
    .from(pixCharges)
    .where(
      inTenant(pixCharges, scope, eq(pixCharges.invoiceId, invoiceId), eq(pixCharges.status, 'ATIVA'), sql`${pixCharges.expiresAt} > ${validAfter.toISOString()}::timestamptz`),
    )
    .orderBy(desc(pixCharges.id))
    .limit(1);
  return row ?? null;
}

/** The charge a PSP notification names; the txid is ours and unique across companies. */
export async function findChargeByTxid(db: DbOrTx, txid: string): Promise<PixChargeRow | null> {
  const [row] = await db.select().from(pixCharges).where(eq(pixCharges.txid, txid)).limit(1);
  return row ?? null;
}
