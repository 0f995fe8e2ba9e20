import type { PresentedAnnouncement } from '@atende/shared';
import type { AnnouncementRow } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';

/** `mediaPath` is the image's file name (never where it lies); `mediaUrl` a signed, expiring link to it. */
export function presentAnnouncement(row: AnnouncementRow, media: Pick<MediaStorage, 'signedUrl'>): PresentedAnnouncement {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: row.priority === 1 || row.priority === 2 ? row.priority : 3,
    status: row.status,
    mediaPath: row.mediaPath !== null ? row.mediaName : null,
    mediaName: row.mediaPath !== null ? row.mediaName : null,
    mediaUrl: row.mediaPath !== null ? media.signedUrl(row.mediaPath) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
