import type { AppServices } from '../app.js';
import { sendAutomaticMessage } from '../modules/messages/messages.service.js';
import { findQueueRow, loadAutomationTicket, loadSetting } from './automation.repo.js';
import { automationRuntime } from './automation-runtime.js';
import { AUTOMATION_TEXTS } from './automation-texts.js';
import { applyTicketChange, deliverEffects, type BotEffects } from './bot-effects.js';
import { BotTurn } from './bot-turn.js';
import { Chatbot } from './chatbot.js';
import { runFollowUp } from './follow-up.js';
import { handoverChange } from './handover.js';
import type { TicketRow } from '../platform/db/schema.js';

/** The customer's stored message, as the automation needs it. */
export interface InboundTurn {
  companyId: number;
  ticketId: number;
  messageId: number;
  ticketCreated: boolean;
  body: string;
  mediaType: string | null;
  mediaPath: string | null;
  mediaName: string | null;
}

/** What the ingest's row already tells about the ticket, so a ticket with an agent costs nothing. */
export interface TicketHints {
  status: string;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  queueId: number | null;
  scheduleType: string | null;
  /** The bot already ran for this ticket (bot_state.started). */
  botStarted: boolean;
  /** The connection's timeUseBotQueues: with 0 a stopped menu is never offered again. */
  menuWait: number;
}

/**
 * Whether a customer's message may need the automation at all. Tickets with an
 * agent (open) never do; nor does a pending ticket whose bot is done (in a queue,
 * or stopped with no menu to offer again) when business hours are not used.
 */
export function needsAutomation(hints: TicketHints): boolean {
  if (hints.status !== 'pending' || hints.isGroup) return false;
  if (hints.chatbot || hints.useIntegration || hints.promptId !== null) return true;
  // Without a queue the bot may still start, or offer its menu again after the wait.
  if (hints.queueId === null && (!hints.botStarted || hints.menuWait > 0)) return true;
  return hints.scheduleType !== null && hints.scheduleType !== 'disabled';
}

/**
 * Runs the automation for a customer's message already stored in a pending
 * ticket: integrations and prompts, business hours, the chatbot. The decision is
 * taken in one transaction holding the ticket row, so messages of one chat are
 * handled one after the other on the state the previous one left; what needs
 * the network runs after it commits. Failures are logged: the message is stored
 * and the agents see it whatever happens here.
 */
export async function runInboundAutomation(services: AppServices, inbound: InboundTurn): Promise<void> {
  const runtime = automationRuntime(services);
  const scope = { companyId: inbound.companyId };
  try {
    const decided = await services.db.transaction(async (tx) => {
      const at = await loadAutomationTicket(tx, scope, inbound.ticketId, true);
      if (!at || at.ticket.status !== 'pending' || at.ticket.isGroup || at.contact.isGroup) return null;
      const turn = new BotTurn(tx, scope, at, runtime.now(), inbound.body.trim());
      await decide(services, turn);
      await applyTicketChange(tx, scope, at.ticket.id, turn.finalChange());
      return { before: at.ticket, effects: turn.effects };
    });
    if (!decided) return;
    await finish(services, decided.before, decided.effects, inbound);
  } catch (error) {
    runtime.logger.error({ err: error, ticketId: inbound.ticketId }, 'automation failed for an inbound message');
  }
}

async function finish(services: AppServices, before: TicketRow, effects: BotEffects, inbound: InboundTurn): Promise<void> {
  const scope = { companyId: inbound.companyId };
  await deliverEffects(services, scope, before, effects);
  if (effects.followUp) await runFollowUp(services, scope, before.id, effects.followUp, inbound);
}

async function decide(services: AppServices, turn: BotTurn): Promise<void> {
  const { ticket, company, settings, connection } = turn.at;
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
  if (settings.scheduleType === 'company') {
    const notice = connection?.outOfHoursMessage.trim() || AUTOMATION_TEXTS.outOfHours;
    if (turn.closedNow(company.schedules, notice)) return;
  } else if (settings.scheduleType === 'queue' && ticket.queueId !== null) {
    const queue = await findQueueRow(turn.db, turn.scope, ticket.queueId);
    const notice = queue?.outOfHoursMessage.trim() || connection?.outOfHoursMessage.trim() || AUTOMATION_TEXTS.outOfHours;
    if (queue && turn.closedNow(queue.schedules, notice)) return;
  }
  const chatbot = new Chatbot(services, turn);
  if (ticket.chatbot) {
    await chatbot.answer();
    return;
  }
  if (ticket.queueId !== null) return;
  if (turn.state.started || ticket.amountUsedBotQueues > 0) {
    await chatbot.offerAgain();
    return;
  }
  // First contact (or the first message inside business hours): the bot starts once per ticket.
  turn.state.started = true;
  turn.saveState();
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
export async function answerRejectedCall(services: AppServices, companyId: number, ticketId: number): Promise<void> {
  const runtime = automationRuntime(services);
  try {
    if ((await loadSetting(services.db, { companyId }, 'call')) !== 'disabled') return;
    await sendAutomaticMessage(services, { companyId }, ticketId, { body: AUTOMATION_TEXTS.callRejected, source: 'system' });
  } catch (error) {
    runtime.logger.error({ err: error, ticketId }, 'call rejection message not sent');
  }
}
