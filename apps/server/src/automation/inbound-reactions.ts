import type { AutomationDeps } from './automation-runtime.js';
import type { InboundReactions } from '../inbound/inbound-reactions.js';
import { answerRejectedCall, decideInboundAutomation, runInboundAutomation } from './inbound-automation.js';
import { answerRatingReply } from './rating.js';

/** The automation's answers to stored customer messages, as the ingest asks for them (inbound/inbound-reactions.ts). */
export function createInboundReactions(services: AutomationDeps): InboundReactions {
  return {
    decideTurns: (turns) => decideInboundAutomation(services, turns),
    runTurn: (turn) => runInboundAutomation(services, turn),
    answerRating: (scope, ticketId, decision) => answerRatingReply(services, scope, ticketId, decision),
    answerRejectedCall: (companyId, ticketId) => answerRejectedCall(services, companyId, ticketId),
  };
}
