import type { QueueOptionRow, QueueRow } from '../platform/db/schema.js';
import { automationTexts, chatbotMenuTexts, type AutomationTexts, type ChatbotMenuTexts } from './automation-texts.js';
import { connectionQueues, findOptionRow, findQueueRow, optionChildren } from './automation.repo.js';
import { storedMediaOf } from './bot-effects.js';
import type { BotTurn } from './bot-turn.js';
import type { AutomationDeps } from './automation-runtime.js';

/**
 * The chatbot of spec part 2 §2.3 (issue 6): a numbered menu of the connection's
 * queues, then the chosen queue's option tree level by level (`0` back, `#` main
 * menu) until a leaf hands the ticket over. Where the customer is lives in the
 * ticket row (queueId, queueOptionId, chatbot, amountUsedBotQueues,
 * lastBotMenuAt, bot_state), never in memory.
 */

/** Invalid answers in a row before the bot stops asking and hands over. */
const MAX_INVALID_ANSWERS = 3;

function queueMenuText(greeting: string, queues: QueueRow[], texts: ChatbotMenuTexts): string {
  const list = queues.map((queue, index) => `*${index + 1}* - ${queue.name}`).join('\n');
  return `${greeting.trim() || texts.chooseOption}\n\n${list}`;
}

function optionsText(header: string, options: QueueOptionRow[], texts: ChatbotMenuTexts): string {
  const list = options.map((option) => `*${option.option}* - ${option.title}`).join('\n');
  return `${header.trim() || texts.chooseOption}\n\n${list}\n\n${texts.backAndMainMenu}`;
}

interface EnterQueue {
  /** The customer's first message reached the queue straight (one queue): integrations and prompts answer it. */
  direct: boolean;
  /** The greeting already went out (or must not: one queue without sendGreetingMessageOneQueues). */
  greetingDone: boolean;
}

export class Chatbot {
  constructor(
    private readonly services: AutomationDeps,
    private readonly turn: BotTurn,
  ) {}

  /** The company's menu words (settings chatbotChooseOption, chatbotBack, chatbotMainMenu). */
  private get texts(): ChatbotMenuTexts {
    return chatbotMenuTexts(this.turn.at.settings);
  }

  /** The automation's own texts in the company's language. */
  private get says(): AutomationTexts {
    return automationTexts(this.turn.at.settings);
  }

  private get connection() {
    return this.turn.at.connection;
  }

  private queues(): Promise<QueueRow[]> {
    const { connection } = this;
    if (!connection || this.turn.at.connectionQueueCount === 0) return Promise.resolve([]);
    return connectionQueues(this.turn.db, this.turn.scope, connection.id);
  }

  /** A new pending ticket: without a queue, or created in its arrival queue (arrival.ts), whose bot has not started. */
  async start(): Promise<void> {
    const { turn, connection } = this;
    if (!connection) return;
    const queues = await this.queues();
    if (queues.length === 0) return;
    const [only] = queues;
    if (queues.length === 1 && only) {
      const greet = turn.at.settings.sendGreetingMessageOneQueues === 'enabled';
      const own = connection.greetingMessage.trim() !== '' || connection.greetingMediaPath !== null;
      const greeting = own ? connection.greetingMessage.trim() : only.greetingMessage.trim();
      const media = own ? await this.mediaOf(connection.greetingMediaPath, connection.greetingMediaName) : await this.mediaOf(only.mediaPath, only.mediaName);
      if (greet && (greeting || media)) turn.reply(greeting, 'bot', { media });
      await this.enterQueue(only, { direct: true, greetingDone: true });
      return;
    }
    await this.sendQueueMenu(queues, null);
  }

  /** A greeting's file (whaticket v6's greeting media of a connection or a queue), or null. */
  private async mediaOf(mediaPath: string | null, mediaName: string | null) {
    return mediaPath ? storedMediaOf(this.services, mediaPath, mediaName) : null;
  }

  /** Sends the queue menu if the connection's limits allow it, else hands over. */
  private async sendQueueMenu(queues: QueueRow[], prefix: string | null, invalidSoFar = 0): Promise<void> {
    const { turn } = this;
    const connection = this.connection;
    if (!connection) return;
    const max = connection.maxUseBotQueues;
    if (max > 0 && turn.ticket.amountUsedBotQueues >= max) {
      this.handOver(this.says.handover);
      return;
    }
    const body = queueMenuText(connection.greetingMessage, queues, this.texts);
    // The greeting's file goes with the menu when the greeting does (not after an invalid answer).
    const media = prefix ? null : await this.mediaOf(connection.greetingMediaPath, connection.greetingMediaName);
    turn.reply(prefix ? `${prefix}\n\n${body}` : body, 'bot', { media });
    turn.state.invalid = invalidSoFar;
    turn.change({
      chatbot: true,
      queueId: null,
      queueOptionId: null,
      amountUsedBotQueues: turn.ticket.amountUsedBotQueues + 1,
      lastBotMenuAt: turn.now,
    });
    turn.saveState();
  }

  /** The menu was sent less than timeUseBotQueues minutes ago. */
  private menuTooRecent(): boolean {
    const wait = this.connection?.timeUseBotQueues ?? 0;
    const last = this.turn.ticket.lastBotMenuAt;
    return wait > 0 && last !== null && this.turn.now.getTime() - last.getTime() < wait * 60_000;
  }

  /**
   * A waiting ticket without a queue whose bot had stopped: the menu is offered
   * again only once timeUseBotQueues has passed and maxUseBotQueues allows it.
   */
  async offerAgain(): Promise<void> {
    const connection = this.connection;
    if (!connection || connection.timeUseBotQueues <= 0 || this.menuTooRecent()) return;
    if (connection.maxUseBotQueues > 0 && this.turn.ticket.amountUsedBotQueues >= connection.maxUseBotQueues) return;
    const queues = await this.queues();
    if (queues.length >= 2) await this.sendQueueMenu(queues, null);
  }

  /** The customer answered while the bot is on (queue menu or option tree). */
  async answer(): Promise<void> {
    if (this.turn.ticket.queueId === null) await this.answerQueueMenu();
    else await this.answerOptions(this.turn.ticket.queueId);
  }

  private async answerQueueMenu(): Promise<void> {
    const { turn } = this;
    const queues = await this.queues();
    if (queues.length === 0) {
      this.handOver(null);
      return;
    }
    if (turn.body === '#' || turn.body === '0') {
      await this.sendQueueMenu(queues, null);
      return;
    }
    const chosen = /^\d{1,3}$/.test(turn.body) ? queues[Number(turn.body) - 1] : undefined;
    if (chosen) {
      turn.state.invalid = 0;
      await this.enterQueue(chosen, { direct: false, greetingDone: false });
      return;
    }
    if (this.invalidLimitReached()) return;
    if (this.menuTooRecent()) {
      turn.reply(this.says.invalidOption);
      turn.saveState();
      return;
    }
    await this.sendQueueMenu(queues, this.says.invalidOption, turn.state.invalid ?? 0);
  }

  /** Counts an invalid answer; at the limit the bot hands over instead of asking again. */
  private invalidLimitReached(): boolean {
    const { turn } = this;
    const count = (turn.state.invalid ?? 0) + 1;
    turn.state.invalid = count;
    if (count < MAX_INVALID_ANSWERS) return false;
    this.handOver(this.says.handover);
    return true;
  }

  /** Puts the ticket in a queue and starts what the queue does: integration, prompt, option tree, or agents. */
  async enterQueue(queue: QueueRow, how: EnterQueue): Promise<void> {
    const { turn } = this;
    turn.change({ queueId: queue.id, queueOptionId: null });
    if (turn.at.settings.scheduleType === 'queue') {
      const notice = queue.outOfHoursMessage.trim() || this.connection?.outOfHoursMessage.trim() || this.says.outOfHours;
      if (turn.closedNow(queue.schedules, notice)) {
        turn.change({ chatbot: false });
        return;
      }
    }
    const media = how.greetingDone ? null : await this.mediaOf(queue.mediaPath, queue.mediaName);
    const greet = () => {
      if (!how.greetingDone && (queue.greetingMessage.trim() || media)) turn.reply(queue.greetingMessage, 'bot', { media });
    };
    if (queue.integrationId && turn.at.company.useIntegrations) {
      turn.change({ chatbot: true, useIntegration: true, integrationId: queue.integrationId });
      turn.effects.followUp = { kind: 'integration', integrationId: queue.integrationId, start: !how.direct };
      return;
    }
    if (queue.promptId && turn.at.company.useOpenAi) {
      turn.change({ chatbot: true, promptId: queue.promptId });
      if (how.direct) turn.effects.followUp = { kind: 'prompt', promptId: queue.promptId };
      else greet();
      return;
    }
    const roots = await optionChildren(turn.db, turn.scope, queue.id, null);
    if (roots.length > 0) {
      turn.change({ chatbot: true });
      turn.state.invalid = 0;
      turn.saveState();
      turn.reply(optionsText(how.greetingDone ? '' : queue.greetingMessage, roots, this.texts), 'bot', { media });
      return;
    }
    greet();
    turn.change({ chatbot: false });
    turn.state.invalid = 0;
    turn.saveState();
  }

  private async answerOptions(queueId: number): Promise<void> {
    const { turn } = this;
    const queue = await findQueueRow(turn.db, turn.scope, queueId);
    if (!queue) {
      this.handOver(null);
      return;
    }
    const currentId = turn.ticket.queueOptionId;
    const current = currentId === null ? null : await findOptionRow(turn.db, turn.scope, currentId);
    const level = await optionChildren(turn.db, turn.scope, queueId, current?.id ?? null);
    // The tree (or the prompt that was answering) is gone: nothing left to ask.
    if (level.length === 0 && !current) {
      this.handOver(null);
      return;
    }

    if (turn.body === '#' || (turn.body === '0' && !current)) {
      await this.toMainMenu(queue);
      return;
    }
    if (turn.body === '0' && current) {
      const parent = current.parentId === null ? null : await findOptionRow(turn.db, turn.scope, current.parentId);
      const siblings = await optionChildren(turn.db, turn.scope, queueId, parent?.id ?? null);
      turn.state.invalid = 0;
      turn.change({ queueOptionId: parent?.id ?? null });
      turn.saveState();
      turn.reply(optionsText(parent ? parent.message || parent.title : queue.greetingMessage, siblings, this.texts));
      return;
    }
    const chosen = level.find((option) => option.option === turn.body.replace(/^0+(?=\d)/, ''));
    if (chosen) {
      await this.choose(chosen);
      return;
    }
    if (this.invalidLimitReached()) return;
    const header = current ? current.message || current.title : queue.greetingMessage;
    turn.reply(`${this.says.invalidOption}\n\n${optionsText(header, level, this.texts)}`);
    turn.saveState();
  }

  private async choose(option: QueueOptionRow): Promise<void> {
    const { turn } = this;
    turn.state.invalid = 0;
    const children = await optionChildren(turn.db, turn.scope, option.queueId, option.id);
    if (children.length > 0) {
      turn.change({ queueOptionId: option.id });
      turn.saveState();
      turn.reply(optionsText(option.message || option.title, children, this.texts));
      return;
    }
    // A leaf: its message and attachment, then the agents take over.
    const media = option.mediaPath ? await storedMediaOf(this.services, option.mediaPath, option.mediaName) : null;
    if (option.message.trim() || media) turn.reply(option.message, 'bot', { media });
    else turn.reply(this.says.handover);
    turn.change({ queueOptionId: option.id, chatbot: false });
    turn.saveState();
  }

  /** `#` (or `0` at the first level): the queue menu again, or this queue's first level when it is the only one. */
  private async toMainMenu(queue: QueueRow): Promise<void> {
    const { turn } = this;
    const queues = await this.queues();
    if (queues.length >= 2) {
      await this.sendQueueMenu(queues, null);
      return;
    }
    const roots = await optionChildren(turn.db, turn.scope, queue.id, null);
    turn.state.invalid = 0;
    turn.change({ queueOptionId: null });
    turn.saveState();
    turn.reply(optionsText(queue.greetingMessage, roots, this.texts));
  }

  /** The bot stops; the ticket waits for agents where it is (its queue, or none). */
  handOver(notice: string | null): void {
    const { turn } = this;
    if (notice) turn.reply(notice);
    turn.state.invalid = 0;
    turn.change({ chatbot: false });
    turn.saveState();
  }
}
