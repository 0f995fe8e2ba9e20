import type { AutomationDeps } from './automation-runtime.js';
import { dropTurn, loadInboundTurn, takeOverStaleTurns } from './bot-turns.repo.js';
import { runFollowUp } from './follow-up.js';
import { runInboundAutomation } from './inbound-automation.js';

export interface BotTurnRecoveryOptions {
  /** A turn still to be decided this long after it was written has no runner left (its node stopped). */
  decideAfterMs: number;
  /** A follow-up (waiting on an integration or a prompt) untouched this long has no runner left. */
  followUpAfterMs: number;
  /** Take-overs before a turn that keeps failing is given up (logged, the agents answer). */
  maxAttempts: number;
}

/** The options for a worker whose RECOVERY_AFTER_SECONDS is `seconds`. */
export function botTurnRecoveryOptions(seconds: number): BotTurnRecoveryOptions {
  return { decideAfterMs: Math.min(30, seconds) * 1000, followUpAfterMs: seconds * 1000, maxAttempts: 3 };
}

/**
 * The bot turns a stopped node left (automation/bot-turns.repo.ts): each is leased,
 * then decided or its follow-up run, exactly as the live path would have, which
 * takes the turn in the transaction that stores the answer, so a turn another
 * runner finished meanwhile is not answered twice. Oldest first, so a chat's
 * turns keep their order. Runs at start and then periodically on the worker node.
 */
export async function recoverBotTurns(services: AutomationDeps, options: BotTurnRecoveryOptions): Promise<{ decided: number; followedUp: number; givenUp: number }> {
  // Compared with the rows' times, which the database wrote: the real clock, never a test's.
  const now = Date.now();
  const stale = await takeOverStaleTurns(services.db, {
    decideBefore: new Date(now - options.decideAfterMs),
    followUpBefore: new Date(now - options.followUpAfterMs),
    limit: 200,
  });
  const result = { decided: 0, followedUp: 0, givenUp: 0 };
  for (const row of stale) {
    const scope = { companyId: row.companyId };
    const turn = row.attempts > options.maxAttempts ? null : await loadInboundTurn(services.db, scope, row.messageId, row.ticketId);
    if (!turn) {
      if (row.attempts > options.maxAttempts) {
        services.automation.logger.error({ ticketId: row.ticketId, messageId: row.messageId }, 'bot turn given up after repeated failures');
        result.givenUp += 1;
      }
      await dropTurn(services.db, scope, row.messageId);
      continue;
    }
    if (row.followUp) {
      await runFollowUp(services, scope, row.ticketId, row.followUp, turn);
      result.followedUp += 1;
    } else {
      await runInboundAutomation(services, turn);
      result.decided += 1;
    }
  }
  return result;
}
