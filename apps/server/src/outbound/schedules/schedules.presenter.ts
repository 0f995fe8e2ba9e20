import type { PresentedSchedule } from '@atende/shared';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import type { ScheduleDetail } from './schedules.repo.js';

export function presentSchedule(row: ScheduleDetail, media: Pick<MediaStorage, 'signedUrl'>): PresentedSchedule {
  return {
    id: row.id,
    body: row.body,
    contactId: row.contactId,
    contact: row.contact,
    sendAt: row.sendAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    status: row.status,
    reason: row.reason,
    whatsappId: row.whatsappId,
    ticketId: row.ticketId,
    userId: row.userId,
    // The spec's mediaPath is the file's name, never where it lies on disk.
    mediaPath: row.mediaPath ? row.mediaName : null,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaUrl: row.mediaPath ? media.signedUrl(row.mediaPath) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `GET /schedules`: a page of schedules, whether more follow, and how many this page has. */
export function presentSchedulePage(page: { rows: ScheduleDetail[]; hasMore: boolean }, media: Pick<MediaStorage, 'signedUrl'>) {
  return { schedules: page.rows.map((row) => presentSchedule(row, media)), hasMore: page.hasMore, count: page.rows.length };
}
