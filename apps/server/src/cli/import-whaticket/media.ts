import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { sanitizeFileName } from '../../platform/storage/media-storage.js';

interface CopiedMedia {
  /** Its key in Atende's media storage, under the company's own prefix. */
  path: string;
  name: string;
  size: number;
  mimeType: string;
}

export type MediaOutcome = { ok: true; media: CopiedMedia } | { ok: false; reason: string; name: string };

const MIME_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.3gp': 'video/3gpp',
  '.mov': 'video/quicktime',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.zip': 'application/zip',
};

function mimeTypeOf(name: string): string {
  return MIME_BY_EXTENSION[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Copies the files whaticket keeps in its backend's `public/company<id>/` folder into
 * Atende's media storage (`<company>/whaticket/<hash>-<name>`, a key that depends only
 * on the source file, so a second run finds the copy made by the first). A file that is
 * missing, outside the company's folder or unreadable is reported, never fatal.
 */
export class MediaCopier {
  constructor(
    private readonly from: string | undefined,
    private readonly store: MediaStore,
    private readonly dryRun: boolean,
  ) {}

  get enabled(): boolean {
    return this.from !== undefined;
  }

  /** A file of a whaticket company's folder (`public/company<id>/<stored>`). */
  copy(sourceCompanyId: number, stored: string, targetCompanyId: number): Promise<MediaOutcome> {
    return this.copyFrom(`company${sourceCompanyId}`, stored, targetCompanyId);
  }

  /** A file of whaticket's public folder outside the company folders (announcement images). */
  copyPublic(stored: string, targetCompanyId: number): Promise<MediaOutcome> {
    return this.copyFrom('', stored, targetCompanyId);
  }

  private async copyFrom(folder: string, stored: string, targetCompanyId: number): Promise<MediaOutcome> {
    const name = sanitizeFileName(path.posix.basename(stored.replace(/\\/g, '/')));
    if (!this.from) return { ok: false, reason: 'media file not copied (run without --media)', name };
    const base = path.resolve(this.from, folder);
    const file = path.resolve(base, stored.replace(/^\/+/, ''));
    if (!file.startsWith(base + path.sep)) return { ok: false, reason: 'media path outside its folder', name };
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) return { ok: false, reason: 'media file missing on disk', name };
      size = info.size;
    } catch {
      return { ok: false, reason: 'media file missing on disk', name };
    }
    // Shaped like the uuid prefix of uploaded files, which the file server leaves out of the download's name.
    const hex = createHash('sha1').update(`${folder}/${stored}`).digest('hex');
    const hash = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    const relative = path.posix.join(String(targetCompanyId), 'whaticket', `${hash}-${name}`);
    const media = { path: relative, name, size, mimeType: mimeTypeOf(name) };
    if (this.dryRun || targetCompanyId <= 0) return { ok: true, media };
    const existing = await this.store.stat(relative);
    if (existing?.size !== size) await this.store.put(relative, createReadStream(file), { size, contentType: media.mimeType });
    return { ok: true, media };
  }
}
