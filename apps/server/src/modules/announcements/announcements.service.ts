import { ANNOUNCEMENT_IMAGE_EXTENSIONS, type AnnouncementBody, type AnnouncementListQuery, type AnnouncementUpdateBody } from '@atende/shared';
import path from 'node:path';
import type { AnnouncementRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import type { MediaFile } from '../quick-messages/quick-messages.service.js';
import {
  countUnreadAnnouncements,
  deleteAnnouncementRow,
  findAnnouncement,
  insertAnnouncement,
  listAnnouncementPage,
  markAnnouncementsSeen,
  updateAnnouncementRow,
} from './announcements.repo.js';

export type AnnouncementsDeps = Pick<Platform, 'db' | 'events' | 'media'>;

/** Super users page through every announcement (or the active ones when they ask); everyone else the active ones only. */
export function announcementPage(deps: Pick<Platform, 'db'>, ctx: RequestContext, query: AnnouncementListQuery) {
  return listAnnouncementPage(deps.db, { searchParam: query.searchParam, pageNumber: query.pageNumber, activeOnly: query.active || !ctx.user.super });
}

/** The top bar's unread count for the caller. */
export function unreadAnnouncements(deps: Pick<Platform, 'db'>, ctx: RequestContext): Promise<number> {
  return countUnreadAnnouncements(deps.db, ctx, ctx.user.id);
}

/** The caller opened the popover: everything published so far is seen. */
export function markAnnouncementsRead(deps: Pick<Platform, 'db'>, ctx: RequestContext): Promise<void> {
  return markAnnouncementsSeen(deps.db, ctx, ctx.user.id);
}

/** Users other than super users see only the active ones; an inactive one is "not found" for them. */
export async function showAnnouncement(deps: Pick<Platform, 'db'>, ctx: RequestContext, id: number): Promise<AnnouncementRow> {
  const announcement = await findAnnouncement(deps.db, id);
  if (!announcement || (!announcement.status && !ctx.user.super)) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return announcement;
}

function saved(deps: Pick<Platform, 'events'>, action: 'create' | 'update', announcement: AnnouncementRow | null): AnnouncementRow {
  // Deleted between the check and the write.
  if (!announcement) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  deps.events.emit('announcement.saved', { action, announcement });
  return announcement;
}

/**
 * The image lies in the media folder of the company whose super user uploaded it; the
 * path starts with that company's id, which is the scope storage removes it in.
 */
async function removeMedia(deps: Pick<Platform, 'media'>, mediaPath: string | null): Promise<void> {
  if (!mediaPath) return;
  const companyId = Number(mediaPath.split('/')[0]);
  if (Number.isInteger(companyId) && companyId > 0) await deps.media.remove({ companyId }, mediaPath).catch(() => undefined);
}

export async function createAnnouncement(deps: AnnouncementsDeps, body: AnnouncementBody): Promise<AnnouncementRow> {
  return saved(deps, 'create', await insertAnnouncement(deps.db, { title: body.title, text: body.text, priority: body.priority, status: body.status }));
}

export async function updateAnnouncement(deps: AnnouncementsDeps, ctx: RequestContext, id: number, body: AnnouncementUpdateBody): Promise<AnnouncementRow> {
  await showAnnouncement(deps, ctx, id);
  return saved(deps, 'update', await updateAnnouncementRow(deps.db, id, { title: body.title, text: body.text, priority: body.priority, status: body.status }));
}

export async function deleteAnnouncement(deps: AnnouncementsDeps, id: number): Promise<void> {
  const deleted = await deleteAnnouncementRow(deps.db, id);
  if (!deleted) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  await removeMedia(deps, deleted.mediaPath);
  deps.events.emit('announcement.deleted', { announcementId: id });
}

/** An optional image: png, jpg or jpeg (spec part 2 §2.9, §5), stored like other media and served by signed URL. */
export async function attachAnnouncementMedia(deps: AnnouncementsDeps, ctx: RequestContext, id: number, readFile: () => Promise<MediaFile>): Promise<AnnouncementRow> {
  const previous = await showAnnouncement(deps, ctx, id);
  const file = await readFile();
  const extension = path.extname(file.fileName).toLowerCase();
  if (!(ANNOUNCEMENT_IMAGE_EXTENSIONS as readonly string[]).includes(extension) || !file.mimeType.startsWith('image/')) {
    throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { message: 'Send a png, jpg or jpeg image' });
  }
  const stored = await deps.media.save(ctx, file);
  const updated = await updateAnnouncementRow(deps.db, id, { mediaPath: stored.path, mediaName: stored.name });
  if (!updated) await removeMedia(deps, stored.path);
  await removeMedia(deps, previous.mediaPath);
  return saved(deps, 'update', updated);
}

export async function removeAnnouncementMedia(deps: AnnouncementsDeps, ctx: RequestContext, id: number): Promise<AnnouncementRow> {
  const previous = await showAnnouncement(deps, ctx, id);
  const updated = await updateAnnouncementRow(deps.db, id, { mediaPath: null, mediaName: null });
  await removeMedia(deps, previous.mediaPath);
  return saved(deps, 'update', updated);
}
