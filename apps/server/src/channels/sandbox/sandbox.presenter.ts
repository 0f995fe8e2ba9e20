import type { SandboxConversationEntry, SandboxOutboxEntry } from '@atende/shared';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import type { SandboxInboundRow, SandboxOutboxRow } from './sandbox.repo.js';

/** One message the product sent, as the simulated phone shows it (a deleted one without its text or file). */
export function presentOutboxEntry(row: SandboxOutboxRow, media: MediaStorage): SandboxOutboxEntry {
  return {
    id: row.externalId,
    body: row.deleted ? '' : row.body,
    mediaType: row.mediaType,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath && !row.deleted ? media.signedUrl(row.mediaPath) : null,
    quotedId: row.quotedExternalId,
    deleted: row.deleted,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Both sides, in order, as the customer's phone shows them. */
export function presentConversation(inbound: SandboxInboundRow[], outbound: SandboxOutboxRow[], media: MediaStorage): SandboxConversationEntry[] {
  const entries: SandboxConversationEntry[] = [
    ...inbound.map((m) => ({
      id: m.externalId ?? `msg-${m.id}`,
      fromCustomer: true,
      body: m.body,
      mediaType: m.mediaType,
      mediaName: m.mediaName,
      mediaUrl: m.mediaPath ? media.signedUrl(m.mediaPath) : null,
      quotedId: null,
      deleted: false,
      createdAt: m.createdAt.toISOString(),
    })),
    // What the product sent, as the outbox shows it (a reply with the message it quotes, as WhatsApp does).
    ...outbound.map((o) => ({ ...presentOutboxEntry(o, media), fromCustomer: false })),
  ];
  // Stable on equal timestamps: the customer's message came first.
  return entries.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || Number(b.fromCustomer) - Number(a.fromCustomer));
}
