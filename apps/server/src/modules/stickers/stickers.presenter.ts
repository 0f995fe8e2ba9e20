import type { PresentedSticker } from '@atende/shared';
import type { StickerRow } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';

/**
 * A saved sticker as v6 reads it (`id`, `name`, `path`, `mimetype`, `userId`: null when shared),
 * with `url`, the signed link to its image (files are never in a public folder here).
 */
export function presentSticker(sticker: StickerRow, media: MediaStorage): PresentedSticker {
  return {
    id: sticker.id,
    companyId: sticker.companyId,
    userId: sticker.userId,
    name: sticker.name,
    path: sticker.path,
    mimetype: sticker.mimetype,
    url: media.signedUrl(sticker.path),
    createdAt: sticker.createdAt.toISOString(),
    updatedAt: sticker.updatedAt.toISOString(),
  };
}
