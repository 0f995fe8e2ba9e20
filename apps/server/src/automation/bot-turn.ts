import type { DbOrTx } from '../platform/db/client.js';
import type { TenantScope } from '../platform/http/context.js';
import type { AutomationTicket } from './automation.repo.js';
import { automaticText } from './automation-texts.js';
import { type BotEffects, type BotReply } from './bot-effects.js';
import { closedPeriodKey, hoursConfigured, isOpenAt } from './business-hours.js';
import type { ScheduleRow } from '../platform/db/schema.js';
import { readBotState, type BotState } from '../modules/tickets/bot-state.js';

/**
 * One decision of the automation about one ticket, inside the transaction that
 * holds the ticket's row: what it reads (the ticket and its settings, the
 * customer's text, the clock) and what it collects (replies, column changes, a
 * follow-up that needs the network).
 */
export class BotTurn {
  readonly state: BotState;
  readonly effects: BotEffects = { replies: [], change: {} };

  constructor(
    readonly db: DbOrTx,
    readonly scope: TenantScope,
    readonly at: AutomationTicket,
    readonly now: Date,
    /** The customer's text, trimmed. */
    readonly body: string,
  ) {
    this.state = { ...readBotState(at.ticket.botState) };
  }

  get ticket() {
    return this.at.ticket;
  }

  /** Fills the message variables of a company text. */
  text(template: string): string {
    return automaticText(template, this.at, this.now);
  }

  reply(body: string, source: BotReply['source'] = 'bot', extra: Partial<BotReply> = {}): void {
    this.effects.replies.push({ body: this.text(body), source, ...extra });
  }

  change(change: BotEffects['change']): void {
    Object.assign(this.effects.change, change);
  }

  /** Writes the bot state back with the other changes. */
  saveState(): void {
    this.effects.change.botState = { ...this.state } as Record<string, unknown>;
  }

  /** The changes to persist: the bot state goes along whenever it differs from what was read. */
  finalChange(): BotEffects['change'] {
    if (JSON.stringify(this.state) !== JSON.stringify(readBotState(this.at.ticket.botState))) this.saveState();
    return this.effects.change;
  }

  /**
   * Out of hours: the notice goes out once per closed period (not on every
   * message). Answers whether the hours are closed now.
   */
  /**
   * A holiday period of the connection (whaticket v6): closed; its message (else `fallback`)
   * goes out once, then again only after the period's `repeatIntervalHours`.
   */
  closedForHoliday(period: { id: number; message: string; repeatIntervalHours: number }, fallback: string): void {
    const told = /^holiday:(\d+)@(\d+)$/.exec(this.state.outOfHours ?? '');
    const toldAt = told && Number(told[1]) === period.id ? Number(told[2]) : null;
    if (toldAt === null || this.now.getTime() - toldAt >= period.repeatIntervalHours * 3_600_000) {
      this.state.outOfHours = `holiday:${period.id}@${this.now.getTime()}`;
      this.reply(period.message.trim() || fallback, 'system');
    }
    this.saveState();
  }

  closedNow(schedules: ScheduleRow[] | null | undefined, notice: string): boolean {
    if (!hoursConfigured(schedules) || isOpenAt(schedules, this.at.company.timezone, this.now)) return false;
    const period = closedPeriodKey(schedules, this.at.company.timezone, this.now);
    if (this.state.outOfHours !== period) {
      this.state.outOfHours = period;
      this.reply(notice, 'system');
    }
    this.saveState();
    return true;
  }
}
