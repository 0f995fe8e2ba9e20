import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The stored media as plain files by key, for what handles them in bulk (backups and
 * restores, moving them to another storage) rather than one upload at a time. A key is
 * the path a row stores (`<companyId>/<YYYY-MM>/<uuid>-<name>`, media-storage.ts),
 * '/'-separated. The local folder implements it here; an object storage implements the
 * same four calls (a key is then the object's name under the bucket's prefix).
 */
export interface MediaFiles {
  /** Every complete file under `prefix` (all by default); a file still being written is not listed. */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  /** The file's bytes and their count, or null when it was removed since it was listed. */
  read(key: string): Promise<{ size: number; stream: Readable } | null>;
  /** Stores a file whole or not at all (a reader never sees part of it), replacing one of that key. */
  write(key: string, data: AsyncIterable<Uint8Array> | Readable): Promise<void>;
  /** Removes a file; a missing one is fine. */
  remove(key: string): Promise<void>;
}

/** Whether `key` is a relative '/'-separated path that stays below the root (no '..', no absolute path). */
export function isSafeMediaKey(key: string): boolean {
  if (key === '' || key.startsWith('/') || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A file being written by media-storage.ts (`.<name>.part`) or by `write` below (`.<name>.<random>.part`). */
function isTemporary(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.part');
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** The media in a folder of this machine (`DATA_DIR/media`). */
export function localMediaFiles(root: string): MediaFiles {
  const resolvedRoot = path.resolve(root);
  const fileOf = (key: string) => {
    if (!isSafeMediaKey(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
    return path.join(resolvedRoot, ...key.split('/'));
  };

  async function* walk(folder: string, prefix: string): AsyncGenerator<{ key: string; size: number }> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw error;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        yield* walk(path.join(folder, entry.name), key);
      } else if (entry.isFile() && !isTemporary(entry.name)) {
        const handle = await open(path.join(folder, entry.name)).catch(() => null);
        if (!handle) continue; // removed meanwhile
        try {
          yield { key, size: (await handle.stat()).size };
        } finally {
          await handle.close();
        }
      }
    }
  }

  return {
    async *list(prefix = '') {
      const trimmed = prefix.replace(/\/+$/, '');
      yield* walk(trimmed ? fileOf(trimmed) : resolvedRoot, trimmed);
    },
    async read(key) {
      let handle;
      try {
        handle = await open(fileOf(key), 'r');
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return null;
        throw error;
      }
      // The size of the file this handle reads, whatever happens to the name meanwhile.
      const { size } = await handle.stat();
      return { size, stream: handle.createReadStream() };
    },
    async write(key, data) {
      const target = fileOf(key);
      const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(4).toString('hex')}.part`);
      try {
        await mkdir(path.dirname(target), { recursive: true });
        const output = createWriteStream(temporary, { flags: 'wx', mode: 0o640, flush: true });
        await pipeline(data, output);
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        throw error;
      }
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
