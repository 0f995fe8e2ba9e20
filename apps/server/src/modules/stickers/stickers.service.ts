import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import type { StickerRow } from '../../platform/db/schema.js';
import type { UploadedFile } from '../../platform/storage/media-storage.js';
import { deleteStickerRow, findVisibleSticker, insertSticker, listStickerRows } from './stickers.repo.js';

/** The database and the company's media storage. */
export type StickersDeps = Pick<Platform, 'db' | 'media'>;

/** The image types WhatsApp shows as stickers (WebP) and those the picker also keeps (PNG, JPEG, GIF). */
const STICKER_TYPES = new Set(['image/webp', 'image/png', 'image/jpeg', 'image/gif']);
/** WhatsApp's animated stickers go up to 500 kB; a saved image beyond 1 MB is not a sticker. */
const MAX_STICKER_BYTES = 1024 * 1024;

/** `GET /stickers`: the company's shared stickers and the caller's own, newest first. */
export async function listStickers(deps: StickersDeps, ctx: RequestContext): Promise<StickerRow[]> {
  return listStickerRows(deps.db, ctx, ctx.user.id);
}

/** A sticker the caller sees (the company's shared ones, their own); anything else is 404. */
export async function showSticker(deps: StickersDeps, ctx: RequestContext, id: number): Promise<StickerRow> {
  const sticker = await findVisibleSticker(deps.db, ctx, ctx.user.id, id);
  if (!sticker) throw new AppError('ERR_NO_STICKER_FOUND');
  return sticker;
}

/** `POST /stickers`: an image saved to the company's media folder; the caller's own unless `shared`. */
export async function createSticker(deps: StickersDeps, ctx: RequestContext, file: UploadedFile, shared: boolean): Promise<StickerRow> {
  if (!STICKER_TYPES.has(file.mimeType)) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { sticker: ['Send a WebP, PNG, JPEG or GIF image'] } });
  if (file.data.length > MAX_STICKER_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
  const stored = await deps.media.save(ctx, file);
  return insertSticker(deps.db, ctx, { userId: shared ? null : ctx.user.id, name: stored.name, path: stored.path, mimetype: file.mimeType });
}

/** `DELETE /stickers/:stickerId`: a shared sticker by anyone of the company (as in v6), one's own by its owner; its file goes too. */
export async function deleteSticker(deps: StickersDeps, ctx: RequestContext, id: number): Promise<void> {
  const sticker = await showSticker(deps, ctx, id);
  const deleted = await deleteStickerRow(deps.db, ctx, sticker.id);
  if (deleted) await deps.media.remove(ctx, deleted.path).catch(() => undefined);
}
