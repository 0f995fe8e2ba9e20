import { ANNOUNCEMENT_IMAGE_EXTENSIONS, type AnnouncementBody, type AnnouncementUpdateBody } from '@atende/shared';
import path from 'node:path';
import type { AppServices } from '../../app.js';
import type { AnnouncementRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { MediaFile } from '../quick-messages/quick-messages.service.js';
import { deleteAnnouncementRow, findAnnouncement, insertAnnouncement, updateAnnouncementRow } from './announcements.repo.js';

/** Users other than super users see only the active ones; an inactive one is "not found" for them. */
export async function showAnnouncement(services: AppServices, ctx: RequestContext, id: number): Promise<AnnouncementRow> {
  const announcement = await findAnnouncement(services.db, id);
  if (!announcement || (!announcement.status && !ctx.user.super)) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return announcement;
}

function saved(services: AppServices, action: 'create' | 'update', announcement: AnnouncementRow | null): AnnouncementRow {
  // Deleted between the check and the write.
  if (!announcement) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  services.events.emit('announcement.saved', { action, announcement });
  return announcement;
}

/**
 * The image lies in the media folder of the company whose super user uploaded it; the
 * path starts with that company's id, which is the scope storage removes it in.
 */
async function removeMedia(services: AppServices, mediaPath: string | null): Promise<void> {
  if (!mediaPath) return;
  const companyId = Number(mediaPath.split('/')[0]);
  if (Number.isInteger(companyId) && companyId > 0) await services.media.remove({ companyId }, mediaPath).catch(() => undefined);
}

export async function createAnnouncement(services: AppServices, body: AnnouncementBody): Promise<AnnouncementRow> {
  return saved(services, 'create', await insertAnnouncement(services.db, { title: body.title, text: body.text, priority: body.priority, status: body.status }));
}

export async function updateAnnouncement(services: AppServices, ctx: RequestContext, id: number, body: AnnouncementUpdateBody): Promise<AnnouncementRow> {
  await showAnnouncement(services, ctx, id);
  return saved(services, 'update', await updateAnnouncementRow(services.db, id, { title: body.title, text: body.text, priority: body.priority, status: body.status }));
}

export async function deleteAnnouncement(services: AppServices, id: number): Promise<void> {
  const deleted = await deleteAnnouncementRow(services.db, id);
  if (!deleted) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  await removeMedia(services, deleted.mediaPath);
  services.events.emit('announcement.deleted', { announcementId: id });
}

/** An optional image: png, jpg or jpeg (spec part 2 §2.9, §5), stored like other media and served by signed URL. */
export async function attachAnnouncementMedia(services: AppServices, ctx: RequestContext, id: number, readFile: () => Promise<MediaFile>): Promise<AnnouncementRow> {
  const previous = await showAnnouncement(services, ctx, id);
  const file = await readFile();
  const extension = path.extname(file.fileName).toLowerCase();
  if (!(ANNOUNCEMENT_IMAGE_EXTENSIONS as readonly string[]).includes(extension) || !file.mimeType.startsWith('image/')) {
    throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { message: 'Send a png, jpg or jpeg image' });
  }
  const stored = await services.media.save(ctx, file);
  const updated = await updateAnnouncementRow(services.db, id, { mediaPath: stored.path, mediaName: stored.name });
  if (!updated) await removeMedia(services, stored.path);
  await removeMedia(services, previous.mediaPath);
  return saved(services, 'update', updated);
}

export async function removeAnnouncementMedia(services: AppServices, ctx: RequestContext, id: number): Promise<AnnouncementRow> {
  const previous = await showAnnouncement(services, ctx, id);
  const updated = await updateAnnouncementRow(services.db, id, { mediaPath: null, mediaName: null });
  await removeMedia(services, previous.mediaPath);
  return saved(services, 'update', updated);
}
