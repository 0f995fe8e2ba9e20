import { eq } from 'drizzle-orm';
import type { AutomationDeps } from './automation-runtime.js';
import { prompts, queueIntegrations, type PromptRow, type QueueIntegrationRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { loadAutomationTicket, type AutomationTicket } from './automation.repo.js';
import { automationTexts } from './automation-texts.js';
import { applyTicketChange, deliverEffects, stageReplies, type FollowUp, type TicketChange } from './bot-effects.js';
import { claimFollowUp, dropTurn } from './bot-turns.repo.js';
import { handoverChange } from './handover.js';
import { dialogflowTurn } from './integrations/dialogflow.js';
import { PeerError } from './integrations/peer-http.js';
import { typebotTurn } from './integrations/typebot.js';
import { scheduleWebhookRetry, webhookTurn } from './integrations/webhook.js';

import { promptTurn } from './openai/prompt-turn.js';
import type { PeerOutcome, PeerTurn } from './peer-turn.js';
import { inTenant } from '../platform/db/tenant.js';
import { type InboundTurn } from '../inbound/inbound-turn.js';
import { readBotState } from '../modules/tickets/bot-state.js';

async function findIntegration(services: AutomationDeps, scope: TenantScope, id: number): Promise<QueueIntegrationRow | null> {
  const [row] = await services.db
    .select()
    .from(queueIntegrations)
    .where(inTenant(queueIntegrations, scope, eq(queueIntegrations.id, id)))
    .limit(1);
  return row ?? null;
}

async function findPrompt(services: AutomationDeps, scope: TenantScope, id: number): Promise<PromptRow | null> {
  const [row] = await services.db
    .select()
    .from(prompts)
    .where(inTenant(prompts, scope, eq(prompts.id, id)))
    .limit(1);
  return row ?? null;
}

function integrationTurn(turn: PeerTurn, integration: QueueIntegrationRow): Promise<PeerOutcome> {
  switch (integration.type) {
    case 'typebot':
      return typebotTurn(turn, integration);
    case 'dialogflow':
      return dialogflowTurn(turn, integration);
    case 'n8n':
    case 'webhook':
      return webhookTurn(turn, integration);
    default: {
      const unknown: never = integration.type;
      throw new Error(`unknown integration type ${String(unknown)}`);
    }
  }
}

/**
 * Runs the network part of a bot turn (integration or prompt) outside any
 * transaction, then applies its outcome. Every failure (timeout, error status,
 * bad answer) still answers the customer and hands the ticket to the agents.
 */
export async function runFollowUp(services: AutomationDeps, scope: TenantScope, ticketId: number, followUp: FollowUp, message: InboundTurn): Promise<void> {
  const runtime = services.automation;
  const at = await loadAutomationTicket(services.db, scope, ticketId);
  if (!at || at.ticket.status !== 'pending') {
    await dropTurn(services.db, scope, message.messageId);
    return;
  }
  const turn: PeerTurn = { services, runtime, scope, at, message, start: followUp.kind === 'integration' && followUp.start };
  let outcome: PeerOutcome;
  if (followUp.kind === 'integration') {
    const integration = await findIntegration(services, scope, followUp.integrationId);
    if (!integration) {
      outcome = { replies: [], handover: {} };
    } else {
      try {
        outcome = await integrationTurn(turn, integration);
      } catch (error) {
        const refused = error instanceof PeerError && error.refused;
        if (refused) {
          runtime.logger.warn(
            { companyId: scope.companyId, ticketId, integrationId: integration.id, reason: error.message },
            'outgoing call refused (internal address; see OUTBOUND_ALLOW_PRIVATE): ticket handed to the agents',
          );
        } else {
          runtime.logger.warn({ err: error, ticketId, integrationId: integration.id }, 'integration failed: ticket handed to the agents');
        }
        outcome = { replies: [{ body: automationTexts(at.settings).botUnavailable, source: 'bot' }], handover: {} };
        // A refused address stays refused: retrying the delivery would only repeat the refusal.
        if (!refused && (integration.type === 'n8n' || integration.type === 'webhook')) await scheduleWebhookRetry(services, integration, message, 1);
      }
    }
  } else {
    const prompt = await findPrompt(services, scope, followUp.promptId);
    if (!prompt) {
      outcome = { replies: [], handover: {} };
    } else {
      try {
        outcome = await promptTurn(turn, prompt);
      } catch (error) {
        runtime.logger.warn({ err: error, ticketId, promptId: prompt.id }, 'prompt failed: ticket handed to the agents');
        outcome = { replies: [{ body: automationTexts(at.settings).botUnavailable, source: 'bot' }], handover: { queueId: prompt.queueId } };
      }
    }
  }
  await applyOutcome(services, scope, message.messageId, ticketId, followUp, outcome);
}

/** The ticket is still with the bot that answered (an agent may have taken it meanwhile). */
function stillWithBot(at: AutomationTicket, followUp: FollowUp): boolean {
  if (at.ticket.status !== 'pending') return false;
  if (followUp.kind === 'integration') return at.ticket.useIntegration && at.ticket.integrationId === followUp.integrationId;
  return at.ticket.promptId === followUp.promptId;
}

/**
 * Stores the outcome with the turn's end: the replies as pending sends and the
 * ticket's change, in the transaction that takes the turn's follow-up, so it is
 * applied once even when a sweep ran the follow-up again after a crash.
 */
async function applyOutcome(
  services: AutomationDeps,
  scope: TenantScope,
  messageId: number,
  ticketId: number,
  followUp: FollowUp,
  outcome: PeerOutcome,
): Promise<void> {
  const runtime = services.automation;
  const applied = await services.db.transaction(async (tx) => {
    const at = await loadAutomationTicket(tx, scope, ticketId, true);
    if (!(await claimFollowUp(tx, scope, messageId))) return 'taken' as const;
    if (!at || !stillWithBot(at, followUp)) return null;
    let change: TicketChange = {};
    if (outcome.state) change.botState = { ...readBotState(at.ticket.botState), ...outcome.state } as Record<string, unknown>;
    if (outcome.handover) {
      const ticket = change.botState ? { ...at.ticket, botState: change.botState } : at.ticket;
      change = { ...change, ...(await handoverChange(tx, scope, ticket, outcome.handover)) };
    }
    await applyTicketChange(tx, scope, ticketId, change);
    const staged = await stageReplies(tx, scope, at, outcome.replies);
    return { before: at.ticket, change, staged };
  });
  if (applied === 'taken') {
    runtime.logger.info({ ticketId }, 'bot answer dropped: another runner answered this message');
    return;
  }
  if (!applied) {
    runtime.logger.info({ ticketId }, 'bot answer dropped: the ticket left the bot meanwhile');
    return;
  }
  await deliverEffects(services, scope, applied.before, applied);
}
