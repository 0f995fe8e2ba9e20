import type { PresentedQuickMessage } from '@atende/shared';
import type { quickMessages } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';

export type QuickMessageRow = typeof quickMessages.$inferSelect;

/**
 * `mediaPath` is the attachment's stored file name (spec part 2 §3), never
 * where it lies on disk; `mediaUrl` is a signed, expiring link to it.
 */
export function presentQuickMessage(quickMessage: QuickMessageRow, media: Pick<MediaStorage, 'signedUrl'>): PresentedQuickMessage {
  const hasMedia = quickMessage.mediaPath !== null;
  return {
    id: quickMessage.id,
    shortcode: quickMessage.shortcode,
    message: quickMessage.message,
    geral: quickMessage.geral,
    editBeforeSend: quickMessage.editBeforeSend,
    status: quickMessage.status,
    userId: quickMessage.userId,
    isMedia: hasMedia,
    mediaPath: hasMedia ? quickMessage.mediaName : null,
    mediaName: hasMedia ? quickMessage.mediaName : null,
    mediaUrl: quickMessage.mediaPath !== null ? media.signedUrl(quickMessage.mediaPath) : null,
  };
}
