import { asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { preparedOnce, type DbOrTx } from '../../platform/db/client.js';
import { channelLeases, queues, whatsappQueues, whatsapps, type WhatsappRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant, inTenantPrepared } from '../../platform/db/tenant.js';
import { providerKindOf, type ProviderKind } from './channel-provider.js';

export interface ConnectionQueue {
  id: number;
  name: string;
  color: string;
}

/** A connection with the queues its bot menu offers. */
export interface ConnectionDetail extends WhatsappRow {
  queues: ConnectionQueue[];
}

export async function listConnections(db: DbOrTx, scope: TenantScope): Promise<WhatsappRow[]> {
  return db.select().from(whatsapps).where(inTenant(whatsapps, scope)).orderBy(asc(whatsapps.name), asc(whatsapps.id));
}

// Read by every send and every sandbox message.
const connectionStatement = preparedOnce((db) =>
  db
    .select()
    .from(whatsapps)
    .where(inTenantPrepared(whatsapps, eq(whatsapps.id, sql.placeholder('id'))))
    .prepare('connection'),
);

export async function findConnection(db: DbOrTx, scope: TenantScope, id: number): Promise<WhatsappRow | null> {
  const [row] = await connectionStatement(db).execute({ companyId: scope.companyId, id });
  return row ?? null;
}

export async function countConnections(db: DbOrTx, scope: TenantScope): Promise<number> {
  const [row] = await db.select({ value: count() }).from(whatsapps).where(inTenant(whatsapps, scope));
  return row?.value ?? 0;
}

/** The connection a new ticket falls back to: the default one, else the oldest; null when the company has none. */
export async function findPreferredConnectionId(db: DbOrTx, scope: TenantScope): Promise<number | null> {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(inTenant(whatsapps, scope))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  return row?.id ?? null;
}

/** The oldest other connection, which becomes the default when the default one is deleted. */
export async function findSuccessor(db: DbOrTx, scope: TenantScope, excludedId: number): Promise<WhatsappRow | null> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, scope, ne(whatsapps.id, excludedId)))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  return row ?? null;
}

export async function clearDefault(db: DbOrTx, scope: TenantScope, exceptId?: number): Promise<number[]> {
  const rows = await db
    .update(whatsapps)
    .set({ isDefault: false, updatedAt: sql`now()` })
    .where(
      inTenant(whatsapps, scope, eq(whatsapps.isDefault, true), exceptId === undefined ? undefined : ne(whatsapps.id, exceptId)),
    )
    .returning({ id: whatsapps.id });
  return rows.map((row) => row.id);
}

export async function queuesOf(db: DbOrTx, scope: TenantScope, whatsappIds: number[]): Promise<Map<number, ConnectionQueue[]>> {
  const result = new Map<number, ConnectionQueue[]>();
  if (whatsappIds.length === 0) return result;
  const rows = await db
    .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(inTenant(whatsappQueues, scope, inArray(whatsappQueues.whatsappId, whatsappIds)))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name));
  for (const row of rows) {
    const list = result.get(row.whatsappId) ?? [];
    list.push({ id: row.id, name: row.name, color: row.color });
    result.set(row.whatsappId, list);
  }
  return result;
}

export async function withQueues(db: DbOrTx, scope: TenantScope, rows: WhatsappRow[]): Promise<ConnectionDetail[]> {
  const byConnection = await queuesOf(
    db,
    scope,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, queues: byConnection.get(row.id) ?? [] }));
}

export async function findConnectionDetail(db: DbOrTx, scope: TenantScope, id: number): Promise<ConnectionDetail | null> {
  const row = await findConnection(db, scope, id);
  if (!row) return null;
  const [detail] = await withQueues(db, scope, [row]);
  return detail ?? null;
}

export async function replaceConnectionQueues(db: DbOrTx, scope: TenantScope, whatsappId: number, queueIds: number[] | undefined): Promise<void> {
  if (queueIds === undefined) return;
  await db.delete(whatsappQueues).where(inTenant(whatsappQueues, scope, eq(whatsappQueues.whatsappId, whatsappId)));
  const unique = [...new Set(queueIds)];
  if (unique.length > 0) {
    await db.insert(whatsappQueues).values(unique.map((queueId) => ({ companyId: scope.companyId, whatsappId, queueId })));
  }
}

/** Whether the company has any connection yet (its first one becomes the default). */
export async function hasConnection(db: DbOrTx, scope: TenantScope): Promise<boolean> {
  const [first] = await db.select({ id: whatsapps.id }).from(whatsapps).where(inTenant(whatsapps, scope)).limit(1);
  return first !== undefined;
}

export type ConnectionValues = Omit<typeof whatsapps.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

export async function insertConnection(db: DbOrTx, scope: TenantScope, values: ConnectionValues): Promise<number | null> {
  const [row] = await db
    .insert(whatsapps)
    .values({ ...values, companyId: scope.companyId })
    .returning({ id: whatsapps.id });
  return row?.id ?? null;
}

export async function updateConnectionRow(db: DbOrTx, scope: TenantScope, id: number, values: Partial<ConnectionValues>): Promise<void> {
  await db
    .update(whatsapps)
    .set({ ...values, updatedAt: new Date() })
    .where(inTenant(whatsapps, scope, eq(whatsapps.id, id)));
}

export async function deleteConnectionRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(whatsapps).where(inTenant(whatsapps, scope, eq(whatsapps.id, id)));
}

/** The session's columns a running session or an admin's action writes. */
export type SessionColumns = Partial<Pick<WhatsappRow, 'status' | 'qrcode' | 'retries' | 'number' | 'problem'>>;

/**
 * Writes a connection's session columns; answers the updated row, or null when the
 * conditions refused the write: `leaseNodeId`, only while that node holds the
 * connection's lease; `keepDisconnected`, never over a DISCONNECTED status.
 */
export async function updateSessionColumns(
  db: DbOrTx,
  scope: TenantScope,
  whatsappId: number,
  columns: SessionColumns,
  conditions: { leaseNodeId?: string | null; keepDisconnected?: boolean },
): Promise<WhatsappRow | null> {
  const [row] = await sessionColumnsUpdate(db, scope, whatsappId, columns, conditions);
  return row ?? null;
}

/** The statement of `updateSessionColumns`, `UPDATE ... RETURNING` the row (also run with its webhook event, connection-state.ts). */
export function sessionColumnsUpdate(
  db: DbOrTx,
  scope: TenantScope,
  whatsappId: number,
  columns: SessionColumns,
  conditions: { leaseNodeId?: string | null; keepDisconnected?: boolean },
) {
  return db
    .update(whatsapps)
    .set({ ...columns, updatedAt: sql`now()` })
    .where(
      inTenant(
        whatsapps,
        scope,
        eq(whatsapps.id, whatsappId),
        conditions.leaseNodeId
          ? sql`exists (select 1 from ${channelLeases} where ${channelLeases.whatsappId} = ${whatsappId} and ${channelLeases.nodeId} = ${conditions.leaseNodeId})`
          : undefined,
        conditions.keepDisconnected ? ne(whatsapps.status, 'DISCONNECTED') : undefined,
      ),
    )
    .returning();
}

/**
 * Every company's connections counted by provider (Baileys' stored names `beta` and
 * `baileys` as one) and status: the platform's view for the metrics, no tenant's data.
 */
export async function countConnectionsByState(db: DbOrTx): Promise<{ provider: ProviderKind; status: string; count: number }[]> {
  const rows = await db
    .select({ provider: whatsapps.provider, status: whatsapps.status, count: count() })
    .from(whatsapps)
    .groupBy(whatsapps.provider, whatsapps.status);
  const counts = new Map<string, { provider: ProviderKind; status: string; count: number }>();
  for (const row of rows) {
    const provider = providerKindOf(row.provider);
    const key = `${provider} ${row.status}`;
    const entry = counts.get(key) ?? { provider, status: row.status, count: 0 };
    entry.count += row.count;
    counts.set(key, entry);
  }
  return [...counts.values()];
}
