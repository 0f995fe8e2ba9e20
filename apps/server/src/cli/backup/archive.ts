import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isDeepStrictEqual } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { z } from 'zod';
import { MigrationLevel } from '../../platform/db/migrations.js';
import { isMediaKey } from '../../platform/storage/media-store.js';

/**
 * The backup archive: a gzip-compressed tar whose first entry (`atende-backup.json`) says
 * what it holds and whose last (`manifest.json`) repeats that and lists every entry with
 * its size and SHA-256, so that a restore can refuse an archive before touching anything
 * (another format, a newer schema, the other database mode) and can tell a damaged one.
 *
 *   atende-backup.json         the header (BackupHeader)
 *   database/postgres.sql      PostgreSQL: pg_dump's plain SQL, one consistent snapshot
 *   database/pglite/...        embedded: the database folder, copied consistently
 *   secrets.json               DATA_DIR/secrets.json, when the install keeps its secrets there
 *   media/<key>                every media file (MediaStore keys)
 *   manifest.json              the header again, the counts, every entry's size and SHA-256
 */

const HEAD_NAME = 'atende-backup.json';
const MANIFEST_NAME = 'manifest.json';
const ARCHIVE_VERSION = 1;
/** The header and the manifest are read into memory: bounded. */
const MAX_HEAD_BYTES = 1024 * 1024;
const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

export const BackupHeader = z.object({
  format: z.literal('atende-backup'),
  version: z.number().int().min(1),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    /** PostgreSQL's version (the server's, or the one inside PGlite). */
    serverVersion: z.string(),
    /** When the database's snapshot was taken (the media were copied after it). */
    snapshotAt: z.string(),
    migrations: MigrationLevel,
  }),
});
export type BackupHeader = z.infer<typeof BackupHeader>;

const ManifestEntry = z.object({
  path: z.string(),
  type: z.enum(['file', 'directory']),
  size: z.number().int().min(0),
  /** Files only. */
  sha256: z.string().optional(),
});
type ManifestEntry = z.infer<typeof ManifestEntry>;

export const Manifest = BackupHeader.extend({
  files: z.object({ database: z.number().int(), media: z.number().int(), other: z.number().int() }),
  /** Bytes of all files, uncompressed. */
  bytes: z.number().int(),
  /** Every entry but the manifest, in archive order. */
  entries: z.array(ManifestEntry),
});
export type Manifest = z.infer<typeof Manifest>;

export function newHeader(database: BackupHeader['database'], createdAt = new Date()): BackupHeader {
  return { format: 'atende-backup', version: ARCHIVE_VERSION, createdAt: createdAt.toISOString(), database };
}

export class DamagedArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedArchiveError';
  }
}

/** Whether an entry name is one an archive may hold: a fixed name, or a safe relative path under database/ or media/. */
function isAllowedName(name: string, type: 'file' | 'directory'): boolean {
  if (type === 'file' && [HEAD_NAME, MANIFEST_NAME, 'secrets.json', 'database/postgres.sql'].includes(name)) return true;
  if (name === 'database' || name === 'media' || name === 'database/pglite') return type === 'directory';
  const [top, second, ...rest] = name.split('/');
  if (top === 'media') return isMediaKey(name.slice('media/'.length));
  return top === 'database' && second === 'pglite' && rest.length > 0 && isMediaKey(rest.join('/'));
}

function sectionOf(name: string): keyof Manifest['files'] {
  if (name.startsWith('database/')) return 'database';
  if (name.startsWith('media/')) return 'media';
  return 'other';
}

/** Writes an archive, entry by entry, to `file` (created or replaced). */
export class ArchiveWriter {
  private readonly entries: ManifestEntry[] = [];
  private readonly failure: Promise<never>;

  private constructor(
    private readonly file: string,
    private readonly pack: tar.Pack,
    private readonly written: Promise<void>,
    private readonly header: BackupHeader,
  ) {
    this.failure = written.then(
      () => new Promise<never>(() => undefined),
      (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
    );
    this.failure.catch(() => undefined);
  }

  static async create(file: string, header: BackupHeader): Promise<ArchiveWriter> {
    const pack = tar.pack();
    // Level 6 (zlib's default) compresses the SQL dump about 5:1; media are mostly compressed already.
    const written = pipeline(pack, createGzip(), createWriteStream(file, { mode: 0o600 }));
    written.catch(() => undefined);
    const writer = new ArchiveWriter(file, pack, written, header);
    await writer.addFile(HEAD_NAME, Readable.from([Buffer.from(JSON.stringify(header, null, 2))]));
    return writer;
  }

  async addDirectory(name: string): Promise<void> {
    await this.entry({ name, type: 'directory', mode: 0o700, size: 0 }, null);
    this.entries.push({ path: name, type: 'directory', size: 0 });
  }

  /** Adds a file of `size` bytes (all of `data`, whose length must be `size` when given). */
  async addFile(name: string, data: AsyncIterable<Uint8Array>, size?: number): Promise<void> {
    let bytes: Buffer[] | undefined;
    let length = size;
    if (length === undefined) {
      // Small files only (the header, secrets.json): read whole to learn their size.
      bytes = [];
      for await (const chunk of data) bytes.push(Buffer.from(chunk));
      length = bytes.reduce((sum, chunk) => sum + chunk.length, 0);
    }
    const sha256 = await this.entry({ name, type: 'file', mode: 0o600, size: length }, bytes ?? data);
    this.entries.push({ path: name, type: 'file', size: length, sha256 });
  }

  /** Writes the manifest, closes the archive and syncs it to disk. */
  async finish(): Promise<Manifest> {
    const files = { database: 0, media: 0, other: 1 };
    for (const entry of this.entries) if (entry.type === 'file' && entry.path !== HEAD_NAME) files[sectionOf(entry.path)] += 1;
    const manifest: Manifest = {
      ...this.header,
      files,
      bytes: this.entries.reduce((sum, entry) => sum + entry.size, 0),
      entries: this.entries,
    };
    const content = Buffer.from(JSON.stringify(manifest));
    await this.entry({ name: MANIFEST_NAME, type: 'file', mode: 0o600, size: content.length }, [content]);
    this.pack.finalize();
    await this.written;
    const handle = await open(this.file, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    return manifest;
  }

  /** Stops writing after a failure (the caller removes the file). */
  async abort(): Promise<void> {
    this.pack.destroy(new Error('backup aborted'));
    await this.written.catch(() => undefined);
  }

  private entry(header: Omit<tar.Header, 'mtime' | 'linkname' | 'uid' | 'gid' | 'uname' | 'gname' | 'devmajor' | 'devminor'>, data: AsyncIterable<Uint8Array> | Iterable<Uint8Array> | null): Promise<string> {
    const hash = createHash('sha256');
    const done = new Promise<string>((resolve, reject) => {
      const sink = this.pack.entry({ ...header, mtime: new Date() }, (error) => (error ? reject(error) : resolve(hash.digest('hex'))));
      if (!data) return;
      const pump = async () => {
        for await (const chunk of data) {
          hash.update(chunk);
          if (!sink.write(chunk)) await Promise.race([once(sink, 'drain'), this.failure]);
        }
        sink.end(undefined);
      };
      pump().catch((error: unknown) => {
        sink.destroy(error instanceof Error ? error : new Error(String(error)));
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
    return Promise.race([done, this.failure]);
  }
}

export interface ArchiveEntry {
  path: string;
  type: 'file' | 'directory';
  size: number;
  /**
   * The file's bytes, to read once (or not at all: the reader then skips them). When the
   * entry's SHA-256 is known (the manifest, on a second reading), the last read throws
   * DamagedArchiveError instead of ending if the bytes differ.
   */
  data(): AsyncIterable<Buffer>;
}

async function readWhole(data: AsyncIterable<Buffer>, limit: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of data) {
    total += chunk.length;
    if (total > limit) throw new DamagedArchiveError(`${name} is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseJson<T>(schema: z.ZodType<T>, bytes: Buffer, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new DamagedArchiveError(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new DamagedArchiveError(`${what} is not what an Atende backup holds (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** What zlib and tar-stream say about bytes that are not a whole archive, as DamagedArchiveError; anything else as it is. */
function describeStreamError(error: unknown): Error {
  if (error instanceof DamagedArchiveError) return error;
  const code = error && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (code.startsWith('Z_')) return new DamagedArchiveError(`it is damaged or not a gzip file (${message})`);
  if (!code && /^(Invalid tar header|Unexpected end of data|Invalid|Unknown)/.test(message)) return new DamagedArchiveError(`its tar structure is damaged (${message})`);
  return error instanceof Error ? error : new Error(message);
}

const sameEntry = (a: ManifestEntry | undefined, b: ManifestEntry) =>
  a !== undefined && a.path === b.path && a.type === b.type && a.size === b.size && (a.sha256 ?? null) === (b.sha256 ?? null);

/**
 * Reads an archive from start to end, handing each entry but the header and the manifest
 * to `visit`, and checks it whole: the header first, the manifest last, every entry named
 * as the format allows and listed in the manifest with its size and SHA-256. Given the
 * manifest of an earlier reading (`expected`), an entry is checked as it is read, so a
 * visitor that applies it learns of damage before it commits anything.
 */
export async function readArchive(file: string, visit: (entry: ArchiveEntry, head: BackupHeader) => Promise<void>, expected?: Manifest): Promise<Manifest> {
  const extract = tar.extract();
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on('error', (error) => extract.destroy(error));
  gunzip.on('error', (error) => extract.destroy(error));
  input.pipe(gunzip).pipe(extract);

  let head: BackupHeader | undefined;
  let manifest: Manifest | undefined;
  const actual: ManifestEntry[] = [];
  try {
    for await (const raw of extract) {
      const type = raw.header.type === 'directory' ? 'directory' : raw.header.type === 'file' ? 'file' : null;
      const name = raw.header.name.replace(/\/+$/, '');
      const size = raw.header.size ?? 0;
      if (!type) throw new DamagedArchiveError(`it holds an entry of type ${raw.header.type} (${name}); a backup holds files and folders only`);
      if (manifest) throw new DamagedArchiveError(`it goes on after its manifest (${name})`);
      if (!head) {
        if (name !== HEAD_NAME || type !== 'file') throw new DamagedArchiveError(`it does not start with ${HEAD_NAME}: not an Atende backup`);
        const bytes = await readWhole(raw as AsyncIterable<Buffer>, MAX_HEAD_BYTES, HEAD_NAME);
        head = parseJson(BackupHeader, bytes, HEAD_NAME);
        if (head.version > ARCHIVE_VERSION) {
          throw new DamagedArchiveError(`its format is version ${head.version}; this Atende reads version ${ARCHIVE_VERSION} and before: restore it with a newer Atende`);
        }
        actual.push({ path: name, type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
        continue;
      }
      if (name === MANIFEST_NAME && type === 'file') {
        manifest = parseJson(Manifest, await readWhole(raw as AsyncIterable<Buffer>, MAX_MANIFEST_BYTES, MANIFEST_NAME), MANIFEST_NAME);
        continue;
      }
      if (!isAllowedName(name, type)) throw new DamagedArchiveError(`it holds an entry a backup never holds: ${JSON.stringify(name)}`);

      const hash = createHash('sha256');
      const want = expected?.entries[actual.length];
      if (expected && (!want || want.path !== name || want.type !== type || want.size !== size)) {
        throw new DamagedArchiveError(`${name} is not the entry its manifest lists at that place`);
      }
      let read = false;
      let finished = false;
      async function* data(): AsyncGenerator<Buffer> {
        if (read) throw new Error(`${name} was already read`);
        read = true;
        for await (const chunk of raw as AsyncIterable<Buffer>) {
          hash.update(chunk);
          yield chunk;
        }
        finished = true;
        if (want?.sha256 && hash.copy().digest('hex') !== want.sha256) throw new DamagedArchiveError(`${name} differs from its checksum`);
      }
      const entry: ArchiveEntry = { path: name, type, size, data };
      await visit(entry, head);
      if (!read) for await (const chunk of data()) void chunk;
      else if (!finished) throw new Error(`${name} was not read to its end`);
      actual.push({ path: name, type, size, ...(type === 'file' ? { sha256: hash.digest('hex') } : {}) });
    }
  } catch (error) {
    input.destroy();
    throw describeStreamError(error);
  }

  if (!head) throw new DamagedArchiveError('it is empty');
  if (!manifest) throw new DamagedArchiveError(`it ends before its ${MANIFEST_NAME} (cut short?)`);
  const { entries } = manifest;
  const manifestHead = { format: manifest.format, version: manifest.version, createdAt: manifest.createdAt, database: manifest.database };
  if (!isDeepStrictEqual(manifestHead, head)) throw new DamagedArchiveError(`its ${MANIFEST_NAME} and ${HEAD_NAME} disagree`);
  if (entries.length !== actual.length) throw new DamagedArchiveError(`its manifest lists ${entries.length} entries, it holds ${actual.length}`);
  const differing = actual.find((entry, index) => !sameEntry(entries[index], entry));
  if (differing) throw new DamagedArchiveError(`${differing.path} differs from its checksum or size in the manifest`);
  return manifest;
}
