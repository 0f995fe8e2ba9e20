import { eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import { botTurns, messages } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { inTenant } from '../platform/db/tenant.js';
import type { InboundTurn } from '../inbound/inbound-turn.js';
import type { FollowUp } from './bot-effects.js';

/**
 * The turns among `messageIds` whose decision is still due, taken by the caller's
 * transaction (their rows are deleted with the decision): a turn is decided once,
 * whoever runs it (the live path, or the sweep after a crash).
 */
export async function claimDueTurns(tx: DbOrTx, scope: TenantScope, messageIds: number[]): Promise<Set<number>> {
  if (messageIds.length === 0) return new Set();
  const rows = await tx
    .delete(botTurns)
    .where(inTenant(botTurns, scope, inArray(botTurns.messageId, messageIds), isNull(botTurns.followUp)))
    .returning({ messageId: botTurns.messageId });
  return new Set(rows.map((row) => row.messageId));
}

/** Decided turns whose network part (an integration, a prompt) is still to run, kept until its outcome is stored. */
export async function keepFollowUps(tx: DbOrTx, scope: TenantScope, rows: { messageId: number; ticketId: number; followUp: FollowUp }[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(botTurns).values(
    rows.map((row) => ({ messageId: row.messageId, companyId: scope.companyId, ticketId: row.ticketId, followUp: { ...row.followUp } })),
  );
}

/** Takes a turn's follow-up for the transaction storing its outcome; false when another runner stored it already. */
export async function claimFollowUp(tx: DbOrTx, scope: TenantScope, messageId: number): Promise<boolean> {
  const rows = await tx
    .delete(botTurns)
    .where(inTenant(botTurns, scope, eq(botTurns.messageId, messageId), isNotNull(botTurns.followUp)))
    .returning({ messageId: botTurns.messageId });
  return rows.length > 0;
}

export async function dropTurn(db: DbOrTx, scope: TenantScope, messageId: number): Promise<void> {
  await db.delete(botTurns).where(inTenant(botTurns, scope, eq(botTurns.messageId, messageId)));
}

export interface StaleTurn {
  messageId: number;
  companyId: number;
  ticketId: number;
  followUp: FollowUp | null;
  attempts: number;
}

/**
 * Turns of every company that nobody finished (their node stopped): decisions
 * untouched since `decideBefore`, follow-ups since `followUpBefore` (they wait on a
 * peer that may take its time). Each is leased to the caller (its time moves to now
 * and its attempts go up), so two sweeping nodes never take the same one; oldest first.
 */
export async function takeOverStaleTurns(db: DbOrTx, options: { decideBefore: Date; followUpBefore: Date; limit: number }): Promise<StaleTurn[]> {
  const result = (await db.execute(sql`
    update ${botTurns} set updated_at = now(), attempts = attempts + 1
    where message_id in (
      select message_id from ${botTurns}
      where (follow_up is null and updated_at <= ${options.decideBefore.toISOString()}::timestamptz)
        or (follow_up is not null and updated_at <= ${options.followUpBefore.toISOString()}::timestamptz)
      order by message_id limit ${options.limit} for update skip locked)
    returning message_id, company_id, ticket_id, follow_up, attempts`)) as unknown as {
    rows: { message_id: number | string; company_id: number; ticket_id: number; follow_up: FollowUp | null; attempts: number }[];
  };
  return result.rows
    .map((row) => ({
      messageId: Number(row.message_id),
      companyId: Number(row.company_id),
      ticketId: Number(row.ticket_id),
      followUp: row.follow_up,
      attempts: Number(row.attempts),
    }))
    .sort((a, b) => a.messageId - b.messageId);
}

/** A stored customer message as the automation's turn (a sweep, a webhook's retry). */
export async function loadInboundTurn(db: DbOrTx, scope: TenantScope, messageId: number, ticketId: number): Promise<InboundTurn | null> {
  const [stored] = await db
    .select({ body: messages.body, mediaType: messages.mediaType, mediaPath: messages.mediaPath, mediaName: messages.mediaName })
    .from(messages)
    .where(inTenant(messages, scope, eq(messages.id, messageId), eq(messages.ticketId, ticketId)))
    .limit(1);
  if (!stored) return null;
  return { companyId: scope.companyId, ticketId, messageId, ...stored };
}
