import type { AutomationDeps } from './automation-runtime.js';
import type { TenantScope } from '../platform/http/context.js';
import { findQueueRow, loadAutomationTicket, type AutomationTicket } from './automation.repo.js';
import { automaticText, automationTexts } from './automation-texts.js';
import { applyTicketChange, deliverEffects, stageReplies, type BotReply } from './bot-effects.js';
import type { RatingDecision } from '../inbound/rating-reply.js';

/**
 * The rating of a closed ticket (setting userRating, spec part 1 §9, decision 6):
 * on close the customer gets the rating message with options 1 to 3 and the
 * ticket waits, closed, with `rating_state` 'awaiting'. The next reply 1, 2 or 3
 * is recorded and answered with the completion message; anything else gets one
 * re-prompt ('reprompted'), and a second one ends the wait and starts a new
 * conversation. The reply is stored in the closed ticket and never reopens it.
 */

/** The rating question: the queue's, else the connection's, else ours in the company's language. */
async function ratingRequest(services: AutomationDeps, scope: TenantScope, at: AutomationTicket): Promise<string> {
  const queue = at.ticket.queueId ? await findQueueRow(services.db, scope, at.ticket.queueId) : null;
  return queue?.ratingMessage.trim() || at.connection?.ratingMessage.trim() || automationTexts(at.settings).ratingRequest;
}

async function send(services: AutomationDeps, scope: TenantScope, at: AutomationTicket, bodies: string[]): Promise<void> {
  const now = services.clock.now();
  const replies: BotReply[] = bodies.map((body) => ({
    body: automaticText(body, at, now),
    source: 'system',
  }));
  const staged = await services.db.transaction((tx) => stageReplies(tx, scope, at, replies));
  await deliverEffects(services, scope, at.ticket, { staged, change: {} });
}

/** After the reply's transaction committed: thanks (completion message) or the one re-prompt. */
export async function answerRatingReply(services: AutomationDeps, scope: TenantScope, ticketId: number, decision: RatingDecision): Promise<void> {
  try {
    const at = await loadAutomationTicket(services.db, scope, ticketId);
    if (!at) return;
    const says = automationTexts(at.settings);
    if (decision.kind === 'rated') {
      await send(services, scope, at, [at.connection?.complationMessage.trim() || says.ratingThanks]);
    } else if (decision.kind === 'reprompt') {
      const request = await ratingRequest(services, scope, at);
      await send(services, scope, at, [`${says.ratingInvalid}\n\n${request}\n\n${says.ratingOptions}`]);
    }
  } catch (error) {
    services.automation.logger.error({ err: error, ticketId }, 'rating answer not sent');
  }
}

/**
 * A ticket was just closed. With userRating enabled the customer is asked for a
 * rating and the ticket waits for it; otherwise the completion message (if the
 * connection has one) says goodbye. Groups are never asked.
 */
export async function afterTicketClosed(services: AutomationDeps, scope: TenantScope, ticketId: number): Promise<void> {
  try {
    const at = await loadAutomationTicket(services.db, scope, ticketId);
    if (!at || at.ticket.status !== 'closed' || at.ticket.isGroup || at.contact.isGroup || !at.connection) return;
    if (at.settings.userRating === 'enabled') {
      await applyTicketChange(services.db, scope, ticketId, { ratingState: 'awaiting' });
      const request = await ratingRequest(services, scope, at);
      await send(services, scope, at, [`${request}\n\n${automationTexts(at.settings).ratingOptions}`]);
      return;
    }
    const goodbye = at.connection.complationMessage.trim();
    if (goodbye) await send(services, scope, at, [goodbye]);
  } catch (error) {
    services.automation.logger.error({ err: error, ticketId }, 'closing message not sent');
  }
}
