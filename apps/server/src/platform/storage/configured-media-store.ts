import path from 'node:path';
import type { Config } from '../config.js';
import { createLocalMediaStore } from './local-media-store.js';
import { MediaStoreError, MediaStoreUnavailableError, type MediaStore } from './media-store.js';
import { createS3MediaStore, type S3Settings } from './s3-media-store.js';

type MediaConfig = Pick<
  Config,
  'DATA_DIR' | 'MEDIA_STORAGE' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'
>;

/** The folder media are kept in with MEDIA_STORAGE=local. */
export function localMediaFolder(config: Pick<Config, 'DATA_DIR'>): string {
  return path.join(config.DATA_DIR, 'media');
}

/** The S3_* settings, or the names of those missing (the move to S3 needs them whatever MEDIA_STORAGE says). */
export function s3SettingsOf(config: MediaConfig): S3Settings | { missing: string[] } {
  const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => !config[name]);
  if (missing.length > 0) return { missing };
  return {
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}

/** The store MEDIA_STORAGE names: what the server, the move to S3 and backups read and write media through. */
export function createConfiguredMediaStore(config: MediaConfig): MediaStore {
  switch (config.MEDIA_STORAGE) {
    case 'local':
      return createLocalMediaStore(localMediaFolder(config));
    case 's3': {
      const settings = s3SettingsOf(config);
      // loadConfig refuses MEDIA_STORAGE=s3 without them; a hand-made config may not have been through it.
      if ('missing' in settings) throw new MediaStoreError(`${settings.missing.join(', ')} required when MEDIA_STORAGE=s3`);
      return createS3MediaStore(settings);
    }
    default: {
      const unknown: never = config.MEDIA_STORAGE;
      throw new Error(`unknown MEDIA_STORAGE ${String(unknown)}`);
    }
  }
}

/** Start-up refused: the media store answered that it cannot be used as configured. */
export class MediaStoreStartError extends Error {
  constructor(store: MediaStore, cause: unknown) {
    super(`Atende cannot start: the media storage (${store.location}) cannot be used: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MediaStoreStartError';
  }
}

/**
 * Checked at start-up: a bucket that does not exist or refuses the credentials stops the
 * start with a sentence (nothing would work); one that does not answer now is a warning
 * (files answer 503 until it does, as while the database is down).
 */
export async function checkMediaStoreAtStart(store: MediaStore): Promise<{ warning: string | null }> {
  try {
    await store.check();
    return { warning: null };
  } catch (error) {
    if (error instanceof MediaStoreUnavailableError) return { warning: `media storage unreachable now: ${error.message}` };
    throw new MediaStoreStartError(store, error);
  }
}
