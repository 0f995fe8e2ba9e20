import { and, count, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorCode } from '@atende/shared';
import { AppError } from '../http/app-error.js';
import type { TenantScope } from '../http/context.js';
import type { DbOrTx } from './client.js';

type TenantTable = PgTable & { id: PgColumn; companyId: PgColumn };

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
    .where(and(eq(table.companyId, scope.companyId), inArray(table.id, unique)));
  if ((row?.value ?? 0) !== unique.length) throw new AppError(notFound);
}
