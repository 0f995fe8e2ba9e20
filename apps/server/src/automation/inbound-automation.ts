import { dayIn } from '@atende/shared';
import type { AutomationDeps } from './automation-runtime.js';
import { findActiveHolidayPeriod } from '../modules/connections/holiday-periods.repo.js';
import { sendAutomaticMessage } from '../modules/messages/messages.service.js';
import { findQueueRow, loadAutomationTickets } from './automation.repo.js';
import { loadSetting } from '../modules/settings/settings.repo.js';
import { automationTexts } from './automation-texts.js';
import { applyTicketChange, deliverEffects, stageReplies, type FollowUp, type StagedReply, type TicketChange } from './bot-effects.js';
import { claimDueTurns, keepFollowUps } from './bot-turns.repo.js';
import { BotTurn } from './bot-turn.js';
import { Chatbot } from './chatbot.js';
import { runFollowUp } from './follow-up.js';
import { handoverChange } from './handover.js';
import type { TicketRow } from '../platform/db/schema.js';
import type { InboundTurn } from '../inbound/inbound-turn.js';

/**
 * Runs the automation for a customer's message already stored in a pending
 * ticket: integrations and prompts, business hours, the chatbot. The decision is
 * taken in one transaction holding the ticket row, so messages of one chat are
 * handled one after the other on the state the previous one left; what needs
 * the network runs after it commits. Failures are logged: the message is stored
 * and the agents see it whatever happens here.
 */
export async function runInboundAutomation(services: AutomationDeps, inbound: InboundTurn): Promise<void> {
  const [finishTurn] = await decideInboundAutomation(services, [inbound]);
  await finishTurn?.();
}

interface Decision {
  before: TicketRow;
  change: TicketChange;
  staged: StagedReply[];
  followUp?: FollowUp;
}

/**
 * The decisions for messages of distinct tickets of one company, taken in one
 * transaction that holds all their rows: a burst of new conversations costs one
 * transaction, not one each. Durable (issue 29): each message's turn was written
 * with it (`bot_turns`), and the transaction that takes the turn stores the bot's
 * replies as pending sends and keeps what needs the network as the turn's
 * follow-up, so a crash at any point neither loses nor repeats an answer (the
 * sweep in bot-turn-recovery.ts finishes what a stopped node left). Answers, per
 * message, the work left once it has committed (sends, follow-ups), to be run in
 * each chat's order. When the shared transaction fails, each message is decided
 * on its own instead.
 */
export async function decideInboundAutomation(services: AutomationDeps, inbounds: InboundTurn[]): Promise<(() => Promise<void>)[]> {
  const runtime = services.automation;
  const [first] = inbounds;
  if (!first) return [];
  const scope = { companyId: first.companyId };
  try {
    const decided = await services.db.transaction(async (tx) => {
      const loaded = await loadAutomationTickets(
        tx,
        scope,
        inbounds.map((inbound) => inbound.ticketId),
        true,
      );
      // Taken under the tickets' locks: a turn another runner decided already is left alone.
      const due = await claimDueTurns(
        tx,
        scope,
        inbounds.map((inbound) => inbound.messageId),
      );
      const byId = new Map(loaded.map((at) => [at.ticket.id, at]));
      // Tickets given the same change (a bot starting on many new conversations) are written together.
      const changes = new Map<string, { change: TicketChange; ticketIds: number[] }>();
      const decisions: (Decision | null)[] = [];
      for (const inbound of inbounds) {
        const at = byId.get(inbound.ticketId);
        if (!due.has(inbound.messageId) || !at || at.ticket.status !== 'pending' || at.ticket.isGroup || at.contact.isGroup || at.contact.disableBot) {
          decisions.push(null);
          continue;
        }
        const turn = new BotTurn(tx, scope, at, services.clock.now(), inbound.body.trim());
        await decide(services, turn);
        const change = turn.finalChange();
        const key = JSON.stringify(change);
        const same = changes.get(key) ?? { change, ticketIds: [] };
        same.ticketIds.push(at.ticket.id);
        changes.set(key, same);
        const staged = await stageReplies(tx, scope, at, turn.effects.replies);
        decisions.push({ before: at.ticket, change, staged, ...(turn.effects.followUp ? { followUp: turn.effects.followUp } : {}) });
      }
      for (const { change, ticketIds } of changes.values()) await applyTicketChange(tx, scope, ticketIds, change);
      await keepFollowUps(
        tx,
        scope,
        inbounds.flatMap((inbound, index) => {
          const followUp = decisions[index]?.followUp;
          return followUp ? [{ messageId: inbound.messageId, ticketId: inbound.ticketId, followUp }] : [];
        }),
      );
      return decisions;
    });
    return decided.map((decision, index) => async () => {
      const inbound = inbounds[index];
      if (!decision || !inbound) return;
      try {
        await finish(services, decision, inbound);
      } catch (error) {
        runtime.logger.error({ err: error, ticketId: inbound.ticketId }, 'automation failed for an inbound message');
      }
    });
  } catch (error) {
    if (inbounds.length > 1) return inbounds.map((inbound) => () => runInboundAutomation(services, inbound));
    runtime.logger.error({ err: error, ticketId: first.ticketId }, 'automation failed for an inbound message');
    return [async () => undefined];
  }
}

async function finish(services: AutomationDeps, decision: Decision, inbound: InboundTurn): Promise<void> {
  const scope = { companyId: inbound.companyId };
  await deliverEffects(services, scope, decision.before, decision);
  if (decision.followUp) await runFollowUp(services, scope, decision.before.id, decision.followUp, inbound);
}

async function decide(services: AutomationDeps, turn: BotTurn): Promise<void> {
  const { ticket, company, settings, connection } = turn.at;
  // Created in its arrival queue (arrival.ts): the first turn runs as for a new ticket without a queue.
  const startDue = turn.state.startDue === true;
  if (ticket.useIntegration && ticket.integrationId && company.useIntegrations) {
    turn.effects.followUp = { kind: 'integration', integrationId: ticket.integrationId, start: false };
    return;
  }
  if (ticket.promptId && company.useOpenAi) {
    turn.effects.followUp = { kind: 'prompt', promptId: ticket.promptId };
    return;
  }
  if (ticket.useIntegration || (ticket.chatbot && (ticket.integrationId || ticket.promptId))) {
    // Its integration or prompt was deleted, or the plan lost the feature: the agents take over.
    turn.change(await handoverChange(turn.db, turn.scope, ticket));
    return;
  }
  // A holiday period of the connection closes it, whatever the business hours say.
  if (connection && settings.holidayPeriodEnabled !== 'disabled') {
    const period = await findActiveHolidayPeriod(turn.db, turn.scope, connection.id, dayIn(turn.now, company.timezone));
    if (period) {
      turn.closedForHoliday(period, connection.outOfHoursMessage.trim() || automationTexts(settings).outOfHours);
      return;
    }
  }
  if (settings.scheduleType === 'company') {
    const notice = connection?.outOfHoursMessage.trim() || automationTexts(settings).outOfHours;
    if (turn.closedNow(company.schedules, notice)) return;
  } else if (settings.scheduleType === 'queue' && ticket.queueId !== null && !startDue) {
    const queue = await findQueueRow(turn.db, turn.scope, ticket.queueId);
    const notice = queue?.outOfHoursMessage.trim() || connection?.outOfHoursMessage.trim() || automationTexts(settings).outOfHours;
    if (queue && turn.closedNow(queue.schedules, notice)) return;
  }
  const chatbot = new Chatbot(services, turn);
  if (!startDue) {
    if (ticket.chatbot) {
      await chatbot.answer();
      return;
    }
    if (ticket.queueId !== null) return;
    if (turn.state.started || ticket.amountUsedBotQueues > 0) {
      await chatbot.offerAgain();
      return;
    }
  }
  // First contact (or the first message inside business hours): the bot starts once per ticket.
  turn.state.started = true;
  delete turn.state.startDue;
  turn.saveState();
  // The arrival queue is where the start below puts the ticket, unless the connection changed since (another queue, an integration).
  if (startDue) turn.change({ queueId: null });
  // The connection itself may hand every new conversation to an integration or a prompt.
  if (connection?.integrationId && company.useIntegrations) {
    turn.change({ chatbot: true, useIntegration: true, integrationId: connection.integrationId });
    turn.effects.followUp = { kind: 'integration', integrationId: connection.integrationId, start: false };
    return;
  }
  if (connection?.promptId && company.useOpenAi) {
    turn.change({ chatbot: true, promptId: connection.promptId });
    turn.effects.followUp = { kind: 'prompt', promptId: connection.promptId };
    return;
  }
  await chatbot.start();
}

/**
 * The `call` setting (spec part 2 §5): when calls are disabled, a customer who
 * calls is told to write instead. The call itself is refused by the channel.
 */
export async function answerRejectedCall(services: AutomationDeps, companyId: number, ticketId: number): Promise<void> {
  const runtime = services.automation;
  try {
    if ((await loadSetting(services.db, { companyId }, 'call')) !== 'disabled') return;
    const language = await loadSetting(services.db, { companyId }, 'language');
    await sendAutomaticMessage(services, { companyId }, ticketId, { body: automationTexts({ language }).callRejected, source: 'system' });
  } catch (error) {
    runtime.logger.error({ err: error, ticketId }, 'call rejection message not sent');
  }
}
