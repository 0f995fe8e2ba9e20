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
  /** The ticket was created in its arrival queue and the bot's first turn has not run yet (bot_state.startDue, arrival.ts). */
  startDue: boolean;
  /** The connection's timeUseBotQueues: with 0 a stopped menu is never offered again. */
  menuWait: number;
  /** The connection offers no bot at all: no queues, no integration, no prompt. */
  connectionIdle: boolean;
}

/**
 * Whether a customer's message may need the automation at all. Tickets with an
 * agent (open) never do; nor does a pending ticket whose bot is done (in a queue,
 * or stopped with no menu to offer again) or that has no bot to meet (its
 * connection offers none) when business hours are not used.
 */
export function needsAutomation(hints: TicketHints): boolean {
  if (hints.status !== 'pending' || hints.isGroup) return false;
  if (hints.startDue) return true;
  if (hints.chatbot || hints.useIntegration || hints.promptId !== null) return true;
  // Without a queue the bot may still start, or offer its menu again after the wait.
  if (hints.queueId === null && !hints.connectionIdle && (!hints.botStarted || hints.menuWait > 0)) return true;
  return hints.scheduleType !== null && hints.scheduleType !== 'disabled';
}
