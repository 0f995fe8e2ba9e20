import type { Platform } from '../platform/platform.js';
import { loadMessageDetails } from '../modules/messages/messages.repo.js';
import { loadTicketDetails } from '../modules/tickets/tickets.repo.js';
import { chatKey, findRedelivered, storeBatch, type BatchItem, type BatchOutcome } from './ingest-batch.js';
import { afterCommit, automationTurn, storeSlowly, type StoredInbound } from './ingest-steps.js';
import type { InboundReactions } from './inbound-reactions.js';
import type { InboundTurn } from './inbound-turn.js';

/** The most messages one statement stores. */
const MAX_BATCH = 100;

export interface IngestResult {
  duplicate: boolean;
  ticketId: number | null;
  messageId: number | null;
  ticketCreated: boolean;
  /** Not stored: a group message while the company ignores groups (setting CheckMsgIsGroup). */
  ignored?: boolean;
}

/** What the ingest uses: the database, the realtime publisher, and the reactions to a stored message. */
export type IngestDeps = Pick<Platform, 'db' | 'database' | 'events' | 'publisher' | 'logger'> & { reactions: InboundReactions };

interface Waiting {
  item: BatchItem;
  resolve(result: IngestResult): void;
  reject(error: unknown): void;
}

const duplicate: IngestResult = { duplicate: true, ticketId: null, messageId: null, ticketCreated: false };

/**
 * Group commit for inbound messages. One batch is stored at a time and
 * whatever arrives meanwhile waits for the next, so the batch grows with the
 * load and a lone message is stored at once. (One writer was measured faster
 * than several: bigger batches cost less per message than parallel small ones.)
 * After a batch commits, its messages are published in one read per company
 * and each message's follow-up (the bot, a rating's answer) runs in its chat's
 * order; the caller's promise settles when that is done.
 *
 * A redelivery (an external id already stored) stores nothing but publishes the
 * stored message again before it is answered: the process that stored it may
 * have died between its commit and its publish, and a provider delivers until
 * it is answered, so every committed message reaches the agents' screens at
 * least once. For the same reason no message is answered before its events have
 * left the process (`publisher.delivered()`). The web applies a message it
 * already has as an update.
 */
export class IngestQueue {
  private waiting: Waiting[] = [];
  private busy = false;
  /** The realtime events of the batches go out in the order the batches were stored. */
  private published: Promise<void> = Promise.resolve();
  /** Per chat, the end of the follow-up work already queued. */
  private readonly chatTails = new Map<string, Promise<void>>();

  private readonly logger: Platform['logger'];

  constructor(private readonly services: IngestDeps) {
    this.logger = services.logger.child({ module: 'ingest' });
  }

  submit(item: BatchItem): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.busy) return;
      this.busy = true;
      // Messages that arrive in the same turn of the event loop share the first batch.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      try {
        await this.storeNext(batch);
      } catch (error) {
        // Whatever went wrong, no caller waits forever and the queue goes on (settled promises ignore this).
        for (const entry of batch) entry.reject(error);
      }
    }
    this.busy = false;
  }

  private async storeNext(batch: Waiting[]): Promise<void> {
    const { services } = this;
    const [unique, repeated] = splitRepeatedIds(batch);
    let outcomes: BatchOutcome[];
    try {
      outcomes = await storeBatch(services.database.sql, unique.map((entry) => entry.item));
    } catch (error) {
      // A batch that fails (a deadlock with another node, say) is retried one message at a time.
      this.logger.warn({ err: error, size: unique.length }, 'ingest batch failed; storing one by one');
      outcomes = unique.map(() => ({ kind: 'missed' }));
    }
    const stored: { entry: Waiting; stored: StoredInbound }[] = [];
    const redelivered: Waiting[] = [];
    for (const [index, entry] of unique.entries()) {
      let outcome: BatchOutcome | StoredInbound | 'duplicate' = outcomes[index] ?? { kind: 'missed' };
      if (outcome.kind === 'missed') {
        try {
          outcome = await storeSlowly(services, entry.item);
        } catch (error) {
          entry.reject(error);
          continue;
        }
      }
      if (outcome === 'duplicate' || outcome.kind === 'duplicate') redelivered.push(entry);
      else stored.push({ entry, stored: outcome });
    }
    if (stored.length === 0 && redelivered.length === 0) {
      for (const entry of repeated) entry.resolve(duplicate);
      return;
    }

    const published = this.published.then(() =>
      publishStored(
        services,
        this.logger,
        stored.map((s) => ({ companyId: s.entry.item.input.companyId, ticketId: s.stored.ticketId, messageId: s.stored.messageId })),
      ),
    );
    const republished = published.then(() => publishAgain(services, this.logger, redelivered.map((entry) => entry.item)));
    this.published = republished;
    // A second copy within the batch is answered with its first, which this batch publishes.
    const answered = republished.then(() => services.publisher.delivered());
    for (const entry of [...repeated, ...redelivered]) void answered.then(() => entry.resolve(duplicate));
    this.followUp(published, stored);
  }

  /**
   * Each stored message's follow-up, in its chat's order. The automation's
   * turns of chats with nothing pending are decided together, in one
   * transaction per company; a chat's later messages wait for its earlier ones.
   */
  private followUp(published: Promise<void>, stored: { entry: Waiting; stored: StoredInbound }[]): void {
    const { services } = this;
    const together = new Map<number, { key: string; turn: InboundTurn; entry: Waiting; stored: StoredInbound }[]>();
    const alone: typeof stored = [];
    const seen = new Set<string>();
    for (const s of stored) {
      const key = chatKey(s.entry.item);
      const turn = automationTurn(s.entry.item.input, s.stored);
      // Only a chat's first message here, with nothing of the chat still running, can be decided with the others.
      const first = !seen.has(key) && !this.chatTails.has(key);
      seen.add(key);
      if (turn && first) {
        const list = together.get(turn.companyId) ?? [];
        list.push({ key, turn, entry: s.entry, stored: s.stored });
        together.set(turn.companyId, list);
      } else alone.push(s);
    }
    // Answered once the follow-up's events too (the bot's answer) are out of the process.
    const settle = (entry: Waiting, outcome: StoredInbound, done: Promise<void>) =>
      done.then(() => services.publisher.delivered()).then(
        () => entry.resolve({ duplicate: false, ticketId: outcome.ticketId, messageId: outcome.messageId, ticketCreated: outcome.ticketCreated }),
        (error: unknown) => entry.reject(error),
      );
    for (const turns of together.values()) {
      const decided = published.then(() => services.reactions.decideTurns(turns.map((t) => t.turn)));
      turns.forEach(({ key, entry, stored: outcome }, index) => {
        void settle(entry, outcome, this.afterChat(key, async () => {
          const finishTurn = (await decided)[index];
          await finishTurn?.();
        }));
      });
    }
    // Registered after the shared decisions, so a chat's later messages follow its first.
    for (const { entry, stored: outcome } of alone) {
      void settle(entry, outcome, this.afterChat(chatKey(entry.item), async () => {
        await published;
        await afterCommit(services.reactions, entry.item, outcome);
      }));
    }
  }

  /** Runs `work` after the chat's earlier follow-ups, whatever became of them. */
  private afterChat(key: string, work: () => Promise<void>): Promise<void> {
    const previous = this.chatTails.get(key) ?? Promise.resolve();
    const next = previous.then(work);
    const tail = next.catch(() => undefined);
    this.chatTails.set(key, tail);
    void tail.then(() => {
      if (this.chatTails.get(key) === tail) this.chatTails.delete(key);
    });
    return next;
  }
}

/** The second message of a batch with an external id already in it is a redelivery: it stays out. */
function splitRepeatedIds(batch: Waiting[]): [Waiting[], Waiting[]] {
  const seen = new Set<string>();
  const unique: Waiting[] = [];
  const repeated: Waiting[] = [];
  for (const entry of batch) {
    const { companyId, whatsappId, externalId } = entry.item.input;
    const key = externalId ? `${companyId}:${whatsappId}:${externalId}` : null;
    if (key && seen.has(key)) repeated.push(entry);
    else {
      if (key) seen.add(key);
      unique.push(entry);
    }
  }
  return [unique, repeated];
}

interface Published {
  companyId: number;
  ticketId: number;
  messageId: number;
}

/**
 * One read of ticket and message details per company for the whole batch, then a
 * `message.created` per message, in order (`message.redelivered` for messages
 * stored before, which only the realtime publisher hears).
 */
async function publishStored(
  services: IngestDeps,
  logger: Platform['logger'],
  stored: Published[],
  event: 'message.created' | 'message.redelivered' = 'message.created',
): Promise<void> {
  const byCompany = new Map<number, Published[]>();
  for (const entry of stored) {
    const list = byCompany.get(entry.companyId) ?? [];
    list.push(entry);
    byCompany.set(entry.companyId, list);
  }
  for (const [companyId, entries] of byCompany) {
    const scope = { companyId };
    try {
      const [ticketRows, messageRows] = await Promise.all([
        loadTicketDetails(services.db, scope, [...new Set(entries.map((e) => e.ticketId))]),
        loadMessageDetails(services.db, scope, entries.map((e) => e.messageId)),
      ]);
      const ticketsById = new Map(ticketRows.map((ticket) => [ticket.id, ticket]));
      const messagesById = new Map(messageRows.map((message) => [message.id, message]));
      for (const entry of entries) {
        const ticket = ticketsById.get(entry.ticketId);
        const message = messagesById.get(entry.messageId);
        if (ticket && message) services.events.emit(event, { companyId, ticket, message });
      }
    } catch (error) {
      // The messages are stored: the agents see them on their next read.
      logger.error({ err: error, companyId }, 'inbound messages not published');
    }
  }
}

/** Publishes the stored messages of redelivered items again (see IngestQueue). */
async function publishAgain(services: IngestDeps, logger: Platform['logger'], items: BatchItem[]): Promise<void> {
  if (items.length === 0) return;
  try {
    const found = await findRedelivered(services.database.sql, items);
    await publishStored(
      services,
      logger,
      found.map((ref) => ({ companyId: ref.item.input.companyId, ticketId: ref.ticketId, messageId: ref.messageId })),
      'message.redelivered',
    );
  } catch (error) {
    logger.error({ err: error, size: items.length }, 'redelivered messages not published again');
  }
}
