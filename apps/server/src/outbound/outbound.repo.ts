import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import { OUTBOUND_STATES, outboundSends, type OutboundSendRow } from '../platform/db/schema.js';
import { inTenant } from '../platform/db/tenant.js';
import type { TenantScope } from '../platform/http/context.js';
import type { OutboundKind, OutboundState, QueuedSend } from './outbound-engine.js';

/*
 * The sources' side of `outbound_sends` (schedules, campaigns): queue, cancel,
 * resume, forget, progress and a source's rows. The engine's own statements (claim,
 * settle, acks, re-check) are in outbound-claims.repo.ts.
 */

export async function queueSends(tx: DbOrTx, scope: TenantScope, sends: QueuedSend[]): Promise<{ queued: number; whatsappIds: number[] }> {
  if (sends.length === 0) return { queued: 0, whatsappIds: [] };
  let queued = 0;
  // Chunks keep each statement's parameters well under PostgreSQL's limit.
  for (let start = 0; start < sends.length; start += 1000) {
    const rows = await tx
      .insert(outboundSends)
      .values(
        sends.slice(start, start + 1000).map((send) => ({
          companyId: scope.companyId,
          kind: send.kind,
          sourceId: send.sourceId,
          recipient: send.recipient,
          whatsappId: send.whatsappId,
          contactId: send.contactId ?? null,
          number: send.number.replace(/\D/g, ''),
          conversation: send.conversation ?? false,
          items: send.items,
          details: send.details ?? {},
          ...(send.notBefore ? { notBefore: send.notBefore } : {}),
        })),
      )
      .onConflictDoNothing()
      .returning({ id: outboundSends.id });
    queued += rows.length;
  }
  return { queued, whatsappIds: [...new Set(sends.map((send) => send.whatsappId))] };
}

/** Queued sends of a source become cancelled; returns how many. Claimed ones (in flight) settle as usual. */
export async function cancelSends(tx: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceId: number, reason = 'ERR_CANCELLED'): Promise<number> {
  const rows = await tx
    .update(outboundSends)
    .set({ state: 'cancelled', reason, updatedAt: new Date() })
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), eq(outboundSends.state, 'queued')),
    )
    .returning({ id: outboundSends.id });
  return rows.length;
}

/** Cancelled sends of a source are queued again (a restarted campaign); returns the connections to wake. */
export async function resumeSends(tx: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceId: number): Promise<{ queued: number; whatsappIds: number[] }> {
  const rows = await tx
    .update(outboundSends)
    .set({ state: 'queued', reason: null, notBefore: new Date(), updatedAt: new Date() })
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), eq(outboundSends.state, 'cancelled')),
    )
    .returning({ whatsappId: outboundSends.whatsappId });
  return { queued: rows.length, whatsappIds: [...new Set(rows.flatMap((row) => (row.whatsappId === null ? [] : [row.whatsappId])))] };
}

/** Sends of a source in these states are removed (never delivered: a schedule that goes back to PENDENTE). */
export async function forgetSends(tx: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceId: number, states: OutboundState[]): Promise<void> {
  await tx
    .delete(outboundSends)
    .where(inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), inArray(outboundSends.state, states)));
}

export type SendCounts = Record<OutboundState, number> & { total: number };

/** Counts per state of each source (sources without sends are absent). */
export async function sendProgress(db: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceIds: number[]): Promise<Map<number, SendCounts>> {
  const result = new Map<number, SendCounts>();
  if (sourceIds.length === 0) return result;
  const rows = await db
    .select({ sourceId: outboundSends.sourceId, state: outboundSends.state, count: sql<number>`count(*)::int` })
    .from(outboundSends)
    .where(inTenant(outboundSends, scope, eq(outboundSends.kind, kind), inArray(outboundSends.sourceId, sourceIds)))
    .groupBy(outboundSends.sourceId, outboundSends.state);
  for (const row of rows) {
    let counts = result.get(row.sourceId);
    if (!counts) {
      counts = { total: 0, ...(Object.fromEntries(OUTBOUND_STATES.map((state) => [state, 0])) as Record<OutboundState, number>) };
      result.set(row.sourceId, counts);
    }
    counts[row.state] += Number(row.count);
    counts.total += Number(row.count);
  }
  return result;
}

/** A page of a source's sends, oldest first, optionally only some states (a report's failures). */
export async function listSends(
  db: DbOrTx,
  scope: TenantScope,
  kind: OutboundKind,
  sourceId: number,
  options: { states?: OutboundState[]; limit?: number; offset?: number } = {},
): Promise<OutboundSendRow[]> {
  return db
    .select()
    .from(outboundSends)
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), options.states && options.states.length > 0 ? inArray(outboundSends.state, options.states) : undefined),
    )
    .orderBy(asc(outboundSends.id))
    .limit(Math.min(options.limit ?? 100, 1000))
    .offset(options.offset ?? 0);
}
