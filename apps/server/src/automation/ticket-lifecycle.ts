import type { AutomationDeps } from './automation-runtime.js';
import type { TicketDetail } from '../modules/tickets/tickets.presenter.js';
import type { RequestContext } from '../platform/http/context.js';
import { loadAutomationTicket } from './automation.repo.js';
import { automaticText, automationTexts } from './automation-texts.js';
import { applyTicketChange } from './bot-effects.js';
import { afterTicketClosed } from './rating.js';
import { sendAutomaticMessage } from '../modules/messages/messages.service.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import { readBotState } from '../modules/tickets/bot-state.js';

/**
 * What an agent's change to a ticket sets off (spec part 1 §4): the greeting
 * when a pending ticket is accepted (sendGreetingAccepted, not for groups), the
 * notice of a transfer (sendMsgTransfTicket), the rating or the completion
 * message on close. An agent taking the ticket also switches its bots off.
 * Never throws: the agent's change is already saved.
 */
export async function afterAgentChange(services: AutomationDeps, ctx: RequestContext, previous: TicketDetail, ticket: TicketDetail): Promise<void> {
  const runtime = services.automation;
  try {
    if (previous.status !== 'closed' && ticket.status === 'closed') {
      await afterTicketClosed(services, ctx, ticket.id);
      return;
    }
    if (ticket.status === 'closed') return;
    const accepted = previous.status === 'pending' && ticket.status === 'open' && ticket.userId === ctx.user.id;
    const queueChanged = previous.queueId !== ticket.queueId;
    const userChanged = ticket.userId !== null && ticket.userId !== previous.userId && ticket.userId !== ctx.user.id;
    const transferred = previous.status !== 'closed' && (queueChanged || userChanged);
    if (!accepted && !transferred) return;
    await stopBots(services, ctx, ticket);
    if (ticket.isGroup || ticket.contact.isGroup) return;
    const at = await loadAutomationTicket(services.db, ctx, ticket.id);
    if (!at) return;
    const text = (body: string, own: Record<string, string>) => automaticText(body, at, services.clock.now(), own);
    const says = automationTexts(at.settings);
    if (transferred && at.settings.sendMsgTransfTicket === 'enabled') {
      const body = userChanged && ticket.user
        ? text(says.transferToUser, { user: ticket.user.name, agent: ticket.user.name, queue: ticket.queue?.name ?? '' })
        : ticket.queue
          ? text(says.transferToQueue, { queue: ticket.queue.name, agent: ticket.user?.name ?? '' })
          : null;
      if (body) await sendAutomaticMessage(services, ctx, ticket.id, { body, source: 'system' });
      return;
    }
    if (accepted && at.settings.sendGreetingAccepted === 'enabled') {
      const body = text(says.acceptGreeting, { agent: ctx.user.name, queue: ticket.queue?.name ?? '' });
      await sendAutomaticMessage(services, ctx, ticket.id, { body, source: 'system', userId: ctx.user.id });
    }
  } catch (error) {
    runtime.logger.error({ err: error, ticketId: ticket.id }, 'automatic message after an agent change not sent');
  }
}

/** An agent has the ticket: the chatbot, integration and prompt stop answering it. */
async function stopBots(services: AutomationDeps, ctx: RequestContext, ticket: TicketDetail): Promise<void> {
  const state = readBotState(ticket.botState);
  if (!ticket.chatbot && !ticket.useIntegration && ticket.promptId === null && !state.typebot && !state.startDue) return;
  // A first turn still due (arrival.ts) is dropped too: a ticket an agent has had is never greeted by the bot as new.
  const { typebot: _typebot, invalid: _invalid, startDue: _startDue, ...rest } = state;
  await applyTicketChange(services.db, ctx, ticket.id, {
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    botState: rest as Record<string, unknown>,
  });
  const updated = await findTicketDetail(services.db, ctx, ticket.id);
  if (updated) services.events.emit('ticket.updated', { companyId: ctx.companyId, ticket: updated });
}
