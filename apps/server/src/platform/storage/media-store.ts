import type { Readable } from 'node:stream';

/**
 * Where media files live: a folder (`local-media-store.ts`) or an S3-compatible bucket
 * (`s3-media-store.ts`), chosen by MEDIA_STORAGE. A file is named by its key, a relative
 * path whose first segment is its company's id (`7/2026-05/<uuid>-nota.pdf`), so a
 * company's files are the keys under `<companyId>/`.
 *
 * This is the port for code that moves files as files (the server's media storage, the
 * move to S3, a backup): no signing, no tenant check, no name rules. Request code goes
 * through `MediaStorage` (media-storage.ts), which builds on it.
 */
export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** For an operator's message: `folder /data/media` or `bucket media at http://...`. */
  readonly location: string;
  /**
   * Stores `body` under `key`, replacing a file of that key. Whole or not at all: a reader
   * never sees part of it, and a failed put leaves the key as it was (or absent). `size`
   * is the exact length of `body` (a stream of another length is refused); with `md5`
   * (hex), bytes of another digest are refused. Streams are not buffered whole.
   */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /** The file as a stream, or null when there is none. */
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Its size, and its MD5 (hex) when the store knows it without reading the file; null when there is none. */
  stat(key: string): Promise<{ size: number; md5?: string } | null>;
  /** A missing file is fine. */
  remove(key: string): Promise<void>;
  /**
   * Every file whose key starts with `prefix` (`7/` for company 7's; '' for all), in no
   * particular order, read page by page (never the whole listing in memory).
   */
  list(prefix: string): AsyncIterable<MediaObject>;
  /**
   * Resolves when the store can be used now. Throws MediaStoreError with what an operator
   * must fix (no such bucket, refused credentials), MediaStoreUnavailableError when it does not answer.
   */
  check(): Promise<void>;
}

interface PutOptions {
  size: number;
  md5?: string;
  /** Kept with the object in a bucket; a folder ignores it. */
  contentType?: string;
}

export interface MediaObject {
  key: string;
  size: number;
}

/**
 * The store cannot be reached, or answered that it cannot serve now (a 5xx, a timeout):
 * nothing was stored; the same call may work later. Requests answer 503.
 */
export class MediaStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaStoreUnavailableError';
  }
}

/** The store refused the call for good (bad credentials, no such bucket, a size or digest that did not match). */
export class MediaStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaStoreError';
  }
}

/**
 * A key both stores take: relative, `/` between non-empty segments, none starting with a
 * dot (a folder store keeps its temporaries as dot files), no backslash or control character.
 */
export function isMediaKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key.split('/').every((segment) => segment.length > 0 && !segment.startsWith('.'));
}

export function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new MediaStoreError(`not a media key: ${JSON.stringify(key)}`);
}

/** Whether `prefix` may start keys ('' or a key's beginning): a prefix never climbs out of the store. */
export function assertMediaPrefix(prefix: string): void {
  if (prefix === '') return;
  const probe = prefix.endsWith('/') ? `${prefix}x` : prefix;
  if (!isMediaKey(probe)) throw new MediaStoreError(`not a media key prefix: ${JSON.stringify(prefix)}`);
}
