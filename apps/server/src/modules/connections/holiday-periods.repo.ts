import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { holidayPeriods, type HolidayPeriodRow } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';
import type { TenantScope } from '../../platform/http/context.js';

export type HolidayPeriodValues = Pick<HolidayPeriodRow, 'startDate' | 'endDate' | 'message' | 'active' | 'repeatIntervalHours'>;

export async function listHolidayPeriods(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<HolidayPeriodRow[]> {
  return db
    .select()
    .from(holidayPeriods)
    .where(inTenant(holidayPeriods, scope, eq(holidayPeriods.whatsappId, whatsappId)))
    .orderBy(asc(holidayPeriods.startDate), asc(holidayPeriods.id));
}

export async function findHolidayPeriod(db: DbOrTx, scope: TenantScope, whatsappId: number, id: number): Promise<HolidayPeriodRow | null> {
  const [row] = await db
    .select()
    .from(holidayPeriods)
    .where(inTenant(holidayPeriods, scope, eq(holidayPeriods.whatsappId, whatsappId), eq(holidayPeriods.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertHolidayPeriod(db: DbOrTx, scope: TenantScope, whatsappId: number, values: HolidayPeriodValues): Promise<HolidayPeriodRow> {
  const [row] = await db
    .insert(holidayPeriods)
    .values({ ...values, whatsappId, companyId: scope.companyId })
    .returning();
  return row!;
}

export async function updateHolidayPeriodRow(db: DbOrTx, scope: TenantScope, id: number, values: Partial<HolidayPeriodValues>): Promise<HolidayPeriodRow | null> {
  const [row] = await db
    .update(holidayPeriods)
    .set({ ...values, updatedAt: new Date() })
    .where(inTenant(holidayPeriods, scope, eq(holidayPeriods.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteHolidayPeriodRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(holidayPeriods).where(inTenant(holidayPeriods, scope, eq(holidayPeriods.id, id)));
}

/** The connection's active period covering `day` (the company's calendar day), the earliest-starting one when several do. */
export async function findActiveHolidayPeriod(db: DbOrTx, scope: TenantScope, whatsappId: number, day: string): Promise<HolidayPeriodRow | null> {
  const [row] = await db
    .select()
    .from(holidayPeriods)
    .where(inTenant(holidayPeriods, scope, and(eq(holidayPeriods.whatsappId, whatsappId), eq(holidayPeriods.active, true), lte(holidayPeriods.startDate, day), gte(holidayPeriods.endDate, day))))
    .orderBy(asc(holidayPeriods.startDate), asc(holidayPeriods.id))
    .limit(1);
  return row ?? null;
}
