import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import { channelLeases } from '../platform/db/schema.js';

/**
 * Which node runs each connection's session (ARCHITECTURE §3.9). Lease times
 * come from the database clock, so nodes with skewed clocks still agree.
 */

/** Takes the lease when it is free, expired or already ours; answers whether we hold it now. */
export async function claimLease(db: DbOrTx, lease: { whatsappId: number; companyId: number; nodeId: string; ttlMs: number }): Promise<boolean> {
  const result = (await db.execute(sql`
    insert into ${channelLeases} (whatsapp_id, company_id, node_id, lease_until, updated_at)
    values (${lease.whatsappId}, ${lease.companyId}, ${lease.nodeId}, now() + make_interval(secs => ${lease.ttlMs / 1000}), now())
    on conflict (whatsapp_id) do update
      set node_id = excluded.node_id, lease_until = excluded.lease_until, updated_at = now()
      where ${channelLeases.leaseUntil} < now() or ${channelLeases.nodeId} = excluded.node_id
    returning node_id`)) as unknown as { rows: { node_id: string }[] };
  return result.rows.length === 1;
}

/** Extends our leases; answers the ids still ours (a missing one was deleted with its connection, or taken over). */
export async function renewLeases(db: DbOrTx, nodeId: string, whatsappIds: number[], ttlMs: number): Promise<Set<number>> {
  if (whatsappIds.length === 0) return new Set();
  const rows = await db
    .update(channelLeases)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${ttlMs / 1000})`, updatedAt: sql`now()` })
    .where(and(eq(channelLeases.nodeId, nodeId), inArray(channelLeases.whatsappId, whatsappIds)))
    .returning({ whatsappId: channelLeases.whatsappId });
  return new Set(rows.map((row) => row.whatsappId));
}

export async function releaseLeases(db: DbOrTx, nodeId: string, whatsappIds: number[]): Promise<void> {
  if (whatsappIds.length === 0) return;
  await db.delete(channelLeases).where(and(eq(channelLeases.nodeId, nodeId), inArray(channelLeases.whatsappId, whatsappIds)));
}

export async function leaseHolder(db: DbOrTx, whatsappId: number): Promise<string | null> {
  const [row] = await db
    .select({ nodeId: channelLeases.nodeId })
    .from(channelLeases)
    .where(and(eq(channelLeases.whatsappId, whatsappId), sql`${channelLeases.leaseUntil} >= now()`))
    .limit(1);
  return row?.nodeId ?? null;
}

