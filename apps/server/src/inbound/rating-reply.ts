import { desc, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import { tickets, userRatings } from '../platform/db/schema.js';
import { inTenant } from '../platform/db/tenant.js';
import type { TenantScope } from '../platform/http/context.js';

/**
 * A customer's reply to a closed ticket waiting for its rating (decision 6) is stored in
 * that ticket, in the ingest's transaction: these decide and record it. The answer the
 * customer then gets is the automation's (automation/rating.ts `answerRatingReply`).
 */

export type RatingDecision = { kind: 'rated'; rate: 1 | 2 | 3 } | { kind: 'reprompt' } | { kind: 'release' };

export function decideRating(body: string, state: string | null): RatingDecision {
  const answer = body.trim();
  if (answer === '1' || answer === '2' || answer === '3') return { kind: 'rated', rate: Number(answer) as 1 | 2 | 3 };
  return state === 'reprompted' ? { kind: 'release' } : { kind: 'reprompt' };
}

export interface AwaitingRating {
  id: number;
  ratingState: string;
  userId: number | null;
}

/** The contact's closed ticket on this connection still waiting for its rating (a partial index serves it). */
export async function findAwaitingRating(db: DbOrTx, scope: TenantScope, contactId: number, whatsappId: number): Promise<AwaitingRating | null> {
  const [row] = await db
    .select({ id: tickets.id, ratingState: tickets.ratingState, userId: tickets.userId })
    .from(tickets)
    .where(
      inTenant(tickets, scope, eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsappId), isNotNull(tickets.ratingState), eq(tickets.status, 'closed')),
    )
    .orderBy(desc(tickets.id))
    .limit(1);
  return row && row.ratingState ? { id: row.id, ratingState: row.ratingState, userId: row.userId } : null;
}

/** Inside the ingest's transaction: records the answer and moves the wait on. */
export async function recordRatingReply(db: DbOrTx, scope: TenantScope, awaiting: AwaitingRating, decision: RatingDecision): Promise<void> {
  if (decision.kind === 'rated') {
    await db
      .insert(userRatings)
      .values({ companyId: scope.companyId, ticketId: awaiting.id, userId: awaiting.userId, rate: decision.rate })
      .onConflictDoNothing();
  }
  const ratingState = decision.kind === 'reprompt' ? 'reprompted' : null;
  await db
    .update(tickets)
    .set({ ratingState })
    .where(inTenant(tickets, scope, eq(tickets.id, awaiting.id)));
}
