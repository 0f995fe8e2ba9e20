/** What the automation keeps per ticket in `tickets.bot_state` (the rest has columns of its own). */
export interface BotState {
  /** The bot already ran for this ticket (it starts once per ticket). */
  started?: boolean;
  /**
   * Created in its connection's only queue (arrival.ts) and the bot's first turn has not run yet
   * (out of business hours, or the ticket was opened by our side): it runs as for a ticket without a queue.
   */
  startDue?: boolean;
  /** Consecutive invalid answers at the current menu. */
  invalid?: number;
  /** The closed period already told about (business-hours.ts closedPeriodKey). */
  outOfHours?: string;
  typebot?: { sessionId: string; lastAt: string; choices?: string[] };
}

export function readBotState(raw: unknown): BotState {
  return raw && typeof raw === 'object' ? (raw as BotState) : {};
}
