import { MAX_UPLOAD_BYTES } from '@atende/shared';
import { createHash, createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import path from 'node:path';
import { AppError } from '../http/app-error.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/error-handler.js';
import type { TenantScope } from '../http/context.js';
import type { Logger } from '../logger.js';
import { isNoSpaceError, type StorageMonitor } from './disk-space.js';
import { isMediaKey, MediaStoreUnavailableError, type MediaStore } from './media-store.js';

/** 16 MiB: WhatsApp's own limit for most media types. */
export const MAX_MEDIA_BYTES = MAX_UPLOAD_BYTES;
const URL_TTL_SECONDS = 24 * 3600;
/**
 * A signed link's expiry is rounded up to the next whole hour, so a file keeps one link for an
 * hour: the browser's cache (the media route allows an hour) serves it again when a list is
 * fetched anew, and two answers made a moment apart are the same bytes.
 */
const URL_EXPIRY_STEP_SECONDS = 3600;

/** At least URL_TTL_SECONDS from `nowMs`, on a whole step. */
export function signedUrlExpiry(nowMs: number): number {
  const earliest = Math.floor(nowMs / 1000) + URL_TTL_SECONDS;
  return Math.ceil(earliest / URL_EXPIRY_STEP_SECONDS) * URL_EXPIRY_STEP_SECONDS;
}

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
  /** Where the files are kept, for an operator: `folder /data/media`, `bucket media at https://...`. */
  readonly location: string;
  save(scope: TenantScope, file: UploadedFile): Promise<StoredMedia>;
  /** A URL that works for a day: handed only to users allowed to see the message. */
  signedUrl(relativePath: string): string;
  /** Resolves a signed request to a file, or throws 404. */
  open(relativePath: string, expires: string, signature: string): Promise<{ stream: NodeJS.ReadableStream; size: number; name: string }>;
  /** A stored file's bytes (at most MAX_MEDIA_BYTES: what a channel sends); `ERR_MEDIA_MISSING` when it is gone. */
  read(relativePath: string): Promise<Buffer>;
  /** A stored file's size, or null when it is gone. */
  size(relativePath: string): Promise<number | null>;
  /** Deletes a file of this company (a replaced or removed attachment); a missing file is fine. */
  remove(scope: TenantScope, relativePath: string): Promise<void>;
  /** For /health: whether the store answered its last call (no request of its own). */
  status(): MediaStorageStatus;
}

interface MediaStorageStatus {
  kind: MediaStore['kind'];
  status: 'ok' | 'unavailable';
  /** Why not, in a sentence. */
  reason?: string;
}

/**
 * The key of media URL signatures, derived from the server's JWT secret with HKDF
 * under its own label: a URL signature never uses (nor reveals anything usable
 * about) the key that signs access tokens.
 */
export function mediaSigningKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'atende', 'media-url-signatures', 32));
}

export interface MediaStorageOptions {
  /** Where the bytes go (configured-media-store.ts): DATA_DIR/media or a bucket. */
  store: MediaStore;
  /** The JWT secret, from which the URL signing key is derived. */
  secret: string;
  /**
   * The server's disk monitor, for a store in DATA_DIR only: it refuses a file that would
   * leave DATA_DIR under its minimum free space, which keeps room for the database, and
   * learns of writes that failed for lack of space; both answer 507 `ERR_STORAGE_FULL`.
   * A bucket's space is not DATA_DIR's: its files are never refused for it.
   */
  disk?: Pick<StorageMonitor, 'hasRoomFor' | 'noteNoSpace'>;
  /** Told when the store does not answer (requests answer 503 meanwhile). */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * The media of the request code: names made safe, files under the company's own prefix,
 * never a path from the request, served by signed expiring URLs (media.routes.ts) whatever
 * the store, so the access rules are the same for a folder and a bucket.
 */
export function createMediaStorage(options: MediaStorageOptions): MediaStorage {
  const { store, disk, logger } = options;
  const key = mediaSigningKey(options.secret);
  const sign = (relativePath: string, expires: number) =>
    createHmac('sha256', key).update(`${relativePath}\n${expires}`).digest('base64url');

  /** The last call that found the store not answering, until one succeeds. */
  let unavailable: { at: number; message: string } | null = null;

  /** A store that does not answer is a 503 with Retry-After, as a database that does not: nothing was stored. */
  const answering = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      unavailable = null;
      return result;
    } catch (error) {
      if (!(error instanceof MediaStoreUnavailableError)) throw error;
      unavailable = { at: Date.now(), message: error.message };
      logger?.warn({ err: error, store: store.location }, 'media storage unavailable');
      throw new AppError('ERR_SERVICE_UNAVAILABLE', undefined, {}, { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
    }
  };
  const checkedKey = (relativePath: string) => {
    if (!isMediaKey(relativePath)) throw new AppError('ERR_NOT_FOUND');
    return relativePath;
  };

  return {
    location: store.location,
    async save(scope, file) {
      if (file.data.length > MAX_MEDIA_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
      const name = sanitizeFileName(file.fileName);
      if (BLOCKED_EXTENSIONS.has(path.extname(name).toLowerCase())) {
        throw new AppError('ERR_VALIDATION', undefined, { message: `File type not allowed: ${path.extname(name)}` });
      }
      const month = new Date().toISOString().slice(0, 7);
      // The path comes from the tenant and a random id, never from the request.
      const relativePath = path.posix.join(String(scope.companyId), month, `${randomUUID()}-${name}`);
      if (disk && !(await disk.hasRoomFor(file.data.length))) throw new AppError('ERR_STORAGE_FULL');
      try {
        const md5 = createHash('md5').update(file.data).digest('hex');
        await answering(() => store.put(relativePath, file.data, { size: file.data.length, md5, contentType: file.mimeType }));
      } catch (error) {
        if (!isNoSpaceError(error)) throw error;
        disk?.noteNoSpace(error);
        throw new AppError('ERR_STORAGE_FULL');
      }
      return { path: relativePath, name, mimeType: file.mimeType, mediaType: mediaTypeOf(file.mimeType), size: file.data.length };
    },
    signedUrl(relativePath) {
      const expires = signedUrlExpiry(Date.now());
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
      const file = await answering(() => store.get(checkedKey(relativePath)));
      if (!file) throw new AppError('ERR_NOT_FOUND');
      return { stream: file.stream, size: file.size, name: path.posix.basename(relativePath).replace(/^[0-9a-f-]{36}-/, '') };
    },
    async read(relativePath) {
      const file = await answering(() => store.get(checkedKey(relativePath)));
      if (!file) throw new AppError('ERR_MEDIA_MISSING');
      return buffer(file.stream);
    },
    async size(relativePath) {
      if (!isMediaKey(relativePath)) return null;
      return (await answering(() => store.stat(relativePath)))?.size ?? null;
    },
    async remove(scope, relativePath) {
      // Only the company's own prefix: a stored path of another tenant is never touched.
      if (!relativePath.startsWith(`${scope.companyId}/`) || !isMediaKey(relativePath)) return;
      await answering(() => store.remove(relativePath));
    },
    status() {
      if (!unavailable) return { kind: store.kind, status: 'ok' };
      const seconds = Math.round((Date.now() - unavailable.at) / 1000);
      return { kind: store.kind, status: 'unavailable', reason: `${store.location} did not answer ${seconds} s ago: ${unavailable.message}` };
    },
  };
}
