import type { TenantScope } from '../platform/http/context.js';
import type { InboundTurn } from './inbound-turn.js';
import type { RatingDecision } from './rating-reply.js';

/**
 * What follows a stored customer message: the automation's answers. Declared by the
 * pipeline, implemented by automation/ (automation/inbound-reactions.ts) and handed to
 * the ingest by the composition root, so inbound/ never imports the areas that react
 * to it. Each runs after the message's transaction committed, in its chat's order.
 */
export interface InboundReactions {
  /**
   * The turns of several new conversations of one company, decided together (one
   * transaction holding their tickets); per turn, the work left once that committed.
   */
  decideTurns(turns: InboundTurn[]): Promise<(() => Promise<void>)[]>;
  /** One message's turn (the bot, an integration, business hours). */
  runTurn(turn: InboundTurn): Promise<void>;
  /** Thanks for a rating, or its one re-prompt. */
  answerRating(scope: TenantScope, ticketId: number, decision: RatingDecision): Promise<void>;
  /** The notice a refused call gets. */
  answerRejectedCall(companyId: number, ticketId: number): Promise<void>;
}

/** A channel's report about a message we sent, as the outbound engine (schedules, campaigns) hears it. */
export interface OutboundReports {
  /** Delivered (2) or read (3): the send it belongs to, if any, is settled as delivered. */
  applyAck(ref: { companyId: number; whatsappId: number; externalId: string }, ack: number): Promise<void>;
  /** The channel refused it after accepting it: the send it belongs to, if any, failed with `reason`. */
  applyFailure(ref: { companyId: number; whatsappId: number; externalId: string }, reason: string): Promise<void>;
  /**
   * The channel says it took a message of ours it names by our send key (`ob-<send>-<item>`): the
   * outbound send it belongs to, interrupted before it stored the channel's id, is settled by it.
   * Answers whether such a send exists on the connection.
   */
  confirmByKey(ref: { companyId: number; whatsappId: number; externalId: string }, key: string): Promise<boolean>;
}
