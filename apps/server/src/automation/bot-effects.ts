import { stat } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { AutomationDeps } from './automation-runtime.js';
import { sendAutomaticMessage } from '../modules/messages/messages.service.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
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

/** Writes one change to one ticket, or the same change to several. */
export async function applyTicketChange(db: DbOrTx, scope: TenantScope, ticketId: number | number[], change: TicketChange): Promise<void> {
  if (Object.keys(change).length === 0) return;
  await db
    .update(tickets)
    .set({ ...change, updatedAt: new Date() })
    .where(inTenant(tickets, scope, Array.isArray(ticketId) ? inArray(tickets.id, ticketId) : eq(tickets.id, ticketId)));
}

/** Columns whose change moves the ticket between agents' lists (tickets.events ticketRooms). */
const LIST_FIELDS = ['queueId', 'userId', 'status', 'chatbot'] as const;

/**
 * After the deciding transaction committed: tells the lists when the ticket
 * moved, then sends the replies in order. A failed send is logged, never
 * thrown: the customer's message is already stored and the agents see it.
 */
export async function deliverEffects(
  services: AutomationDeps,
  scope: TenantScope,
  before: Pick<TicketRow, 'id' | 'userId' | 'queueId' | 'status'>,
  effects: Pick<BotEffects, 'replies' | 'change'>,
): Promise<void> {
  const runtime = services.automation;
  if (LIST_FIELDS.some((field) => field in effects.change)) {
    const ticket = await findTicketDetail(services.db, scope, before.id);
    if (ticket) {
      const previous = { ...ticket, userId: before.userId, queueId: before.queueId, status: before.status };
      services.events.emit('ticket.updated', { companyId: scope.companyId, ticket, previous });
    }
  }
  for (const reply of effects.replies) {
    if (!reply.body.trim() && !reply.media) continue;
    if (reply.delayMs) await runtime.sleep(reply.delayMs * runtime.delayScale);
    try {
      await sendAutomaticMessage(services, scope, before.id, { body: reply.body, media: reply.media, source: reply.source });
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
  const size = await stat(services.media.absolutePath(mediaPath))
    .then((s) => s.size)
    .catch(() => 0);
  return { path: mediaPath, name, mimeType, mediaType: mediaTypeOf(mimeType), size };
}
