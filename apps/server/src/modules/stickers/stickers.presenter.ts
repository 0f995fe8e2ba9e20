import type { PresentedSticker } from '@atende/shared';
import type { StickerRow } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';

/** The folder v6's picker puts in front of a sticker's file name. */
const V6_STICKER_FOLDER = 'stickers/salvos/';

/**
 * A saved sticker as v6 reads it (`id`, `name`, `path`, `mimetype`, `userId`: null when shared),
 * with `url`, the signed link to its image (files are never in a public folder here).
 * v6's picker shows `{backend}/public/company{id}/{path}` in an <img>, which sends no token, so
 * `path` is `stickers/salvos/` and the signed link itself, base64url-encoded, as the file name:
 * `GET /public/company{id}/stickers/salvos/:file` sends the image if that link's signature and
 * expiry hold, as the media route does.
 */
export function presentSticker(sticker: StickerRow, media: MediaStorage): PresentedSticker {
  const url = media.signedUrl(sticker.path);
  return {
    id: sticker.id,
    companyId: sticker.companyId,
    userId: sticker.userId,
    name: sticker.name,
    path: `${V6_STICKER_FOLDER}${Buffer.from(url).toString('base64url')}`,
    mimetype: sticker.mimetype,
    url,
    createdAt: sticker.createdAt.toISOString(),
    updatedAt: sticker.updatedAt.toISOString(),
  };
}

/** The signed link a v6 sticker file name carries (path, expiry, signature), if it is one of this company's; else null. */
export function signedLinkOfV6Sticker(companyId: number, file: string): { relativePath: string; expires: string; signature: string } | null {
  const link = Buffer.from(file, 'base64url').toString('utf8');
  const match = /^\/media\/([^?]+)\?expires=(\d{1,12})&signature=([\w-]{1,100})$/.exec(link);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const relativePath = safeDecode(match[1]);
  return relativePath?.startsWith(`${companyId}/`) ? { relativePath, expires: match[2], signature: match[3] } : null;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
