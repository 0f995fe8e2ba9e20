import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorCode } from '@atende/shared';
import { AppError } from '../http/app-error.js';
import type { TenantScope } from '../http/context.js';
import type { DbOrTx } from './client.js';

type TenantTable = PgTable & { id: PgColumn; companyId: PgColumn };

/**
 * The condition every query of a tenant table starts from: the scope's company, and the
 * query's own conditions. It is the one place a company filter is written (eslint's
 * `no-restricted-syntax` refuses a hand-written `eq(x.companyId, ...)` anywhere else),
 * so a repository reads `where(inTenant(tickets, scope, eq(tickets.id, id)))`.
 */
export function inTenant(table: { companyId: PgColumn }, scope: TenantScope, ...conditions: (SQL | undefined)[]): SQL {
  const company = eq(table.companyId, scope.companyId);
  return conditions.some((condition) => condition !== undefined) ? (and(company, ...conditions) as SQL) : company;
}

/** `inTenant` of a prepared statement: the company is its `companyId` placeholder. */
export function inTenantPrepared(table: { companyId: PgColumn }, ...conditions: (SQL | undefined)[]): SQL {
  return and(eq(table.companyId, sql.placeholder('companyId')), ...conditions) as SQL;
}

/** A join between two tenant tables stays inside one company. */
export function sameTenant(a: { companyId: PgColumn }, b: { companyId: PgColumn }): SQL {
  return eq(a.companyId, b.companyId);
}

/**
 * Ids sent by a client are only trusted after being found inside the caller's
 * company; one foreign id makes the whole request fail as "not found".
 */
export async function assertIdsInTenant(
  db: DbOrTx,
  scope: TenantScope,
  table: TenantTable,
  ids: readonly number[],
  notFound: ErrorCode,
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const [row] = await db
    .select({ value: count() })
    .from(table)
    .where(inTenant(table, scope, inArray(table.id, unique)));
  if ((row?.value ?? 0) !== unique.length) throw new AppError(notFound);
}
