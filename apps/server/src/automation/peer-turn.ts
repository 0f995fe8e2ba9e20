import type { InboundTurn } from '../inbound/inbound-turn.js';
import type { BotState } from '../modules/tickets/bot-state.js';
import type { TenantScope } from '../platform/http/context.js';
import type { AutomationDeps, AutomationRuntime } from './automation-runtime.js';
import type { AutomationTicket } from './automation.repo.js';
import type { BotReply } from './bot-effects.js';
import type { HandoverTarget } from './handover.js';

/**
 * What a bot peer (Typebot, a webhook, Dialogflow, an OpenAI prompt) is given and
 * answers for one customer message; follow-up.ts runs it and applies the outcome.
 */

/** What a bot peer answered for one customer message. */
export interface PeerOutcome {
  replies: BotReply[];
  /** Merged into the ticket's bot state (e.g. the Typebot session). */
  state?: Partial<BotState>;
  /** The bot stops: the ticket goes to the agents (a queue, a user, or where it is). */
  handover?: HandoverTarget;
}

/** Everything an integration or prompt needs for one turn. */
export interface PeerTurn {
  services: AutomationDeps;
  runtime: AutomationRuntime;
  scope: TenantScope;
  at: AutomationTicket;
  message: InboundTurn;
  /** The ticket just reached this bot (a menu choice): start the conversation rather than answer. */
  start: boolean;
}
