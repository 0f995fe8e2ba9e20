import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { AutomationDeps } from './automation-runtime.js';
import { announcePendingMessages, deliverPendingMessage, insertPendingBatch } from '../modules/messages/outgoing-messages.js';
import { stripUnsafeText } from '../platform/text/unsafe-text.js';
import type { AutomationTicket } from './automation.repo.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import { recordTicketsUpdated, ticketChangeIsHeard } from '../modules/tickets/ticket-webhooks.js';
import type { DbOrTx } from '../platform/db/client.js';
import { tickets, type TicketRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import { mediaTypeOf, type StoredMedia } from '../platform/storage/media-storage.js';
import { inTenant } from '../platform/db/tenant.js';

export interface BotReply {
  body: string;
  media?: StoredMedia | null;
  source: 'bot' | 'system';
  /** Pause before this message (Typebot's delay between messages), in ms. */
  delayMs?: number;
}

export type TicketChange = Partial<typeof tickets.$inferInsert>;

/** Work that needs the network: it runs after the transaction that decided it. */
export type FollowUp =
  | { kind: 'integration'; integrationId: number; start: boolean }
  | { kind: 'prompt'; promptId: number };

export interface BotEffects {
  replies: BotReply[];
  change: TicketChange;
  followUp?: FollowUp;
}

/**
 * Writes one change to one ticket, or the same change to several. A change of status,
 * agent or queue is a `ticket.updated` webhook event, written with it: `db` is then the
 * caller's transaction.
 */
export async function applyTicketChange(db: DbOrTx, scope: TenantScope, ticketId: number | number[], change: TicketChange): Promise<void> {
  if (Object.keys(change).length === 0) return;
  await db
    .update(tickets)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(tickets, scope, Array.isArray(ticketId) ? inArray(tickets.id, ticketId) : eq(tickets.id, ticketId)));
  if (ticketChangeIsHeard(change)) await recordTicketsUpdated(db, scope, Array.isArray(ticketId) ? ticketId : [ticketId]);
}

/** A reply stored as a pending send, with its pause before going out. */
export interface StagedReply {
  messageId: number;
  delayMs: number;
}

/**
 * Stores the replies as pending sends in the transaction that decided them: once it
 * commits they are the customer's answer whatever happens to this process (the
 * pending recovery sends what a stopped node left, outgoing-messages.ts). Nothing is
 * stored for a ticket whose connection is gone.
 */
export async function stageReplies(
  tx: DbOrTx,
  scope: TenantScope,
  at: Pick<AutomationTicket, 'ticket' | 'contact' | 'connection'>,
  replies: BotReply[],
): Promise<StagedReply[]> {
  const sendable = replies.filter((reply) => reply.body.trim() || reply.media);
  const [first] = sendable;
  if (!first || !at.connection) return [];
  const ids = await insertPendingBatch(tx, scope, {
    ticketId: at.ticket.id,
    contactId: at.ticket.contactId,
    whatsappId: at.connection.id,
    userId: null,
    source: first.source,
    // A bot's or an integration's answer is a peer's text: what PostgreSQL cannot store is removed, never the message.
    items: sendable.map((reply) => {
      const media = reply.media ?? undefined;
      return { message: { to: at.contact.number, body: stripUnsafeText(reply.body), media }, media, source: reply.source };
    }),
  });
  return ids.map((messageId, index) => ({ messageId, delayMs: sendable[index]?.delayMs ?? 0 }));
}

/** Columns whose change moves the ticket between agents' lists (tickets.events ticketRooms). */
const LIST_FIELDS = ['queueId', 'userId', 'status', 'chatbot'] as const;

/**
 * After the deciding transaction committed: tells the lists when the ticket
 * moved, shows the staged replies, then sends them in order. A failed send is
 * logged, never thrown: the customer's message is already stored and the agents
 * see it (a refused reply stays failed for an agent's retry).
 */
export async function deliverEffects(
  services: AutomationDeps,
  scope: TenantScope,
  before: Pick<TicketRow, 'id' | 'userId' | 'queueId' | 'status'>,
  effects: { staged: StagedReply[]; change: TicketChange },
): Promise<void> {
  const runtime = services.automation;
  if (LIST_FIELDS.some((field) => field in effects.change)) {
    const ticket = await findTicketDetail(services.db, scope, before.id);
    if (ticket) {
      const previous = { ...ticket, userId: before.userId, queueId: before.queueId, status: before.status };
      services.events.emit('ticket.updated', { companyId: scope.companyId, ticket, previous });
    }
  }
  await announcePendingMessages(
    services,
    scope,
    before.id,
    effects.staged.map((reply) => reply.messageId),
  );
  for (const reply of effects.staged) {
    if (reply.delayMs) await runtime.sleep(reply.delayMs * runtime.delayScale);
    try {
      const delivery = await deliverPendingMessage(services, scope, reply.messageId);
      if (delivery.error) runtime.logger.error({ err: delivery.error, ticketId: before.id }, 'automatic message not sent');
    } catch (error) {
      runtime.logger.error({ err: error, ticketId: before.id }, 'automatic message not sent');
    }
  }
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.pdf': 'application/pdf',
};

export function mimeTypeOfName(name: string): string {
  return MIME_BY_EXTENSION[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** A file kept by the media storage (an option's attachment) as a message can carry it. */
export async function storedMediaOf(services: AutomationDeps, mediaPath: string, mediaName: string | null): Promise<StoredMedia> {
  const name = mediaName ?? path.basename(mediaPath);
  const mimeType = mimeTypeOfName(name);
  const size = (await services.media.size(mediaPath).catch(() => null)) ?? 0;
  return { path: mediaPath, name, mimeType, mediaType: mediaTypeOf(mimeType), size };
}
