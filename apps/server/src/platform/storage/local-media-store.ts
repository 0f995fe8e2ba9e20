import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, opendir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertMediaKey, assertMediaPrefix, MediaStoreError, type MediaObject, type MediaStore } from './media-store.js';

const isMissing = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Media files in a folder (`DATA_DIR/media`): a key is a path under it. A file is written
 * under a temporary dot name in its folder, synced, checked (length, digest) and renamed
 * once whole; on any failure (a full disk) the temporary is removed, so a failed write
 * leaves nothing that no message references.
 */
export function createLocalMediaStore(root: string): MediaStore {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    assertMediaKey(key);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new MediaStoreError(`not a media key: ${JSON.stringify(key)}`);
    return file;
  };

  async function* walk(dir: string, keyPrefix: string, prefix: string): AsyncGenerator<MediaObject> {
    let entries;
    try {
      entries = await opendir(dir);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for await (const entry of entries) {
      // Temporaries of writes in progress, and anything else that is not a key.
      if (entry.name.startsWith('.')) continue;
      const key = `${keyPrefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) yield* walk(path.join(dir, entry.name), `${key}/`, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const info = await stat(path.join(dir, entry.name)).catch(() => null);
        if (info?.isFile()) yield { key, size: info.size };
      }
    }
  }

  return {
    kind: 'local',
    location: `folder ${base}`,
    async put(key, body, options) {
      const target = fileOf(key);
      const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(4).toString('hex')}.part`);
      try {
        await mkdir(path.dirname(target), { recursive: true });
        const handle = await open(temporary, 'wx', 0o640);
        const digest = createHash('md5');
        let length = 0;
        try {
          for await (const chunk of Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer>)) {
            length += chunk.length;
            if (length > options.size) break;
            digest.update(chunk);
            // A write may take part of a chunk (a disk filling up); the next one says why.
            for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten;
          }
          await handle.sync();
        } finally {
          await handle.close();
        }
        if (length !== options.size) throw new MediaStoreError(`${key}: ${length} bytes received, ${options.size} expected`);
        if (options.md5 && digest.digest('hex') !== options.md5.toLowerCase()) throw new MediaStoreError(`${key}: the bytes received do not match their MD5`);
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        throw error;
      }
    },
    async get(key) {
      const file = fileOf(key);
      let handle;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: info.size };
    },
    async stat(key) {
      const info = await stat(fileOf(key)).catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      return info?.isFile() ? { size: info.size } : null;
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    list(prefix) {
      assertMediaPrefix(prefix);
      return walk(base, '', prefix);
    },
    async check() {
      await mkdir(base, { recursive: true });
      await access(base, constants.W_OK);
    },
  };
}
