import { receivedPhoneNumber } from '@atende/shared';
import { lastMessagePreview } from '../modules/messages/message-preview.js';
import { loadSetting } from '../modules/settings/settings.repo.js';
import type { Platform } from '../platform/platform.js';
import { storableInbound, type InboundMessage } from './inbound-message.js';
import type { IngestQueue, IngestResult } from './ingest-queue.js';

/** What a provider needs to hand the pipeline a message: the database, the app's ingest queue, the metrics. */
export type InboundDeps = Pick<Platform, 'db' | 'metrics'> & { ingest: IngestQueue };

/**
 * The ingest pipeline (ARCHITECTURE §3.5): contact found or created, the
 * contact's open or pending ticket found or a pending one created (decision 2:
 * a closed ticket is never reopened by the customer), the message stored and the
 * ticket's last message and unread count updated, atomically. Realtime events
 * go out after commit.
 *
 * Messages are stored in batches (group commit, `ingest-queue.ts`): whatever
 * arrives while a batch is being written goes into the next one, so a busy
 * connection costs one statement per batch rather than several per message.
 * Messages of one chat keep their order: they are stored by one lane, one batch
 * after the other, and their automation runs one after the other.
 *
 * The automation hooks in at three points, none on the common path of a ticket
 * open with an agent: group messages are dropped first when the company ignores
 * groups; a contact without an active ticket whose closed ticket waits for its
 * rating answers that rating (decision 6); and a stored customer message of a
 * pending ticket goes to the bot (chatbot, integrations, business hours).
 */
export async function ingestMessage(services: InboundDeps, message: InboundMessage): Promise<IngestResult> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const result = await ingest(services, message);
    services.metrics.inboundMessage(message.channel, result.ignored ? 'ignored' : result.duplicate ? 'duplicate' : 'stored', seconds());
    return result;
  } catch (error) {
    services.metrics.inboundMessage(message.channel, 'failed', seconds());
    throw error;
  }
}

async function ingest(services: InboundDeps, message: InboundMessage): Promise<IngestResult> {
  const input = storableInbound(message);
  // Setting CheckMsgIsGroup (spec part 2 §5): `enabled` means the company ignores group chats.
  if (input.isGroup && (await loadSetting(services.db, { companyId: input.companyId }, 'CheckMsgIsGroup')) === 'enabled') {
    return { duplicate: false, ticketId: null, messageId: null, ticketCreated: false, ignored: true };
  }
  // A received number is only canonicalised (phone-number.ts): never given a default country, never refused.
  const number = receivedPhoneNumber(input.from, input.isGroup);
  return services.ingest.submit({ input, number, preview: lastMessagePreview(input) });
}
