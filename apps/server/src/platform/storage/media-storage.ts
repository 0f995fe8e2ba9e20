import { MAX_UPLOAD_BYTES } from '@atende/shared';
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../http/app-error.js';
import type { TenantScope } from '../http/context.js';
import { isNoSpaceError, type StorageMonitor } from './disk-space.js';

/** 16 MiB: WhatsApp's own limit for most media types. */
export const MAX_MEDIA_BYTES = MAX_UPLOAD_BYTES;
const URL_TTL_SECONDS = 24 * 3600;

export type MediaType = 'image' | 'audio' | 'video' | 'application';

export function mediaTypeOf(mimeType: string): MediaType {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  return 'application';
}

const BLOCKED_EXTENSIONS = new Set(['.exe', '.bat', '.cmd', '.com', '.msi', '.scr', '.js', '.mjs', '.html', '.htm', '.svg', '.php', '.sh']);

/**
 * Keeps a file name readable but harmless: no directories, no control
 * characters, spaces as underscores (spec part 2 §5), bounded length.
 */
export function sanitizeFileName(original: string): string {
  const base = path.basename(original.replace(/\\/g, '/'));
  const printable = [...base.normalize('NFKC')].filter((ch) => ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) !== 127).join('');
  const cleaned = printable
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}._-]/gu, '')
    .replace(/^\.+/, '');
  const ext = path.extname(cleaned).slice(0, 10);
  const stem = cleaned.slice(0, cleaned.length - path.extname(cleaned).length).slice(0, 80);
  return `${stem || 'file'}${ext}`;
}

export interface StoredMedia {
  /** Relative to the media root, always under the company's folder. */
  path: string;
  name: string;
  mimeType: string;
  mediaType: MediaType;
  size: number;
}

/** A file received in a request, before it is stored. */
export interface UploadedFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

export interface MediaStorage {
  save(scope: TenantScope, file: UploadedFile): Promise<StoredMedia>;
  /** A URL that works for a day: handed only to users allowed to see the message. */
  signedUrl(relativePath: string): string;
  /** Resolves a signed request to a file, or throws 404. */
  open(relativePath: string, expires: string, signature: string): Promise<{ stream: NodeJS.ReadableStream; size: number; name: string }>;
  absolutePath(relativePath: string): string;
  /** Deletes a file of this company (a replaced or removed attachment); a missing file is fine. */
  remove(scope: TenantScope, relativePath: string): Promise<void>;
}

/**
 * The key of media URL signatures, derived from the server's JWT secret with HKDF
 * under its own label: a URL signature never uses (nor reveals anything usable
 * about) the key that signs access tokens.
 */
export function mediaSigningKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'atende', 'media-url-signatures', 32));
}

/**
 * Writes a file whole or not at all: under a temporary name in the same folder, synced,
 * then renamed; on any failure (a full disk) the temporary is removed, so a failed
 * write leaves nothing that no message references.
 */
async function writeWhole(target: string, data: Buffer): Promise<void> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.part`);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    const handle = await open(temporary, 'wx', 0o640);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * `storage` (the server's disk monitor) refuses a file that would leave DATA_DIR under
 * its minimum free space, which keeps room for the database, and learns of writes that
 * failed for lack of space; both answer 507 `ERR_STORAGE_FULL`.
 */
export function createMediaStorage(root: string, secret: string, storage?: Pick<StorageMonitor, 'hasRoomFor' | 'noteNoSpace'>): MediaStorage {
  const key = mediaSigningKey(secret);
  const sign = (relativePath: string, expires: number) =>
    createHmac('sha256', key).update(`${relativePath}\n${expires}`).digest('base64url');

  const absolutePath = (relativePath: string) => {
    const resolved = path.resolve(root, relativePath);
    if (!resolved.startsWith(path.resolve(root) + path.sep)) throw new AppError('ERR_NOT_FOUND');
    return resolved;
  };

  return {
    async save(scope, file) {
      if (file.data.length > MAX_MEDIA_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
      const name = sanitizeFileName(file.fileName);
      if (BLOCKED_EXTENSIONS.has(path.extname(name).toLowerCase())) {
        throw new AppError('ERR_VALIDATION', undefined, { message: `File type not allowed: ${path.extname(name)}` });
      }
      const month = new Date().toISOString().slice(0, 7);
      // The path comes from the tenant and a random id, never from the request.
      const relativePath = path.posix.join(String(scope.companyId), month, `${randomUUID()}-${name}`);
      const target = absolutePath(relativePath);
      if (storage && !(await storage.hasRoomFor(file.data.length))) throw new AppError('ERR_STORAGE_FULL');
      try {
        await writeWhole(target, file.data);
      } catch (error) {
        if (!isNoSpaceError(error)) throw error;
        storage?.noteNoSpace(error);
        throw new AppError('ERR_STORAGE_FULL');
      }
      return { path: relativePath, name, mimeType: file.mimeType, mediaType: mediaTypeOf(file.mimeType), size: file.data.length };
    },
    signedUrl(relativePath) {
      const expires = Math.floor(Date.now() / 1000) + URL_TTL_SECONDS;
      return `/media/${relativePath.split('/').map(encodeURIComponent).join('/')}?expires=${expires}&signature=${sign(relativePath, expires)}`;
    },
    async open(relativePath, expires, signature) {
      const expiresAt = Number(expires);
      const expected = Buffer.from(sign(relativePath, expiresAt));
      const given = Buffer.from(signature);
      const valid =
        Number.isInteger(expiresAt) &&
        expiresAt > Date.now() / 1000 &&
        expected.length === given.length &&
        timingSafeEqual(expected, given);
      if (!valid) throw new AppError('ERR_NOT_FOUND');
      const file = absolutePath(relativePath);
      if (!existsSync(file)) throw new AppError('ERR_NOT_FOUND');
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size, name: path.basename(file).replace(/^[0-9a-f-]{36}-/, '') };
    },
    absolutePath,
    async remove(scope, relativePath) {
      // Only the company's own folder: a stored path of another tenant is never touched.
      if (!relativePath.startsWith(`${scope.companyId}/`)) return;
      await rm(absolutePath(relativePath), { force: true });
    },
  };
}
