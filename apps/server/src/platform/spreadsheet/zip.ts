import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import { SheetLimitError } from './sheet-table.js';

/**
 * The entries of a zip archive held in memory (an `.xlsx` upload), read from its
 * central directory, and their text inflated as a stream that a shared budget of
 * inflated bytes stops: what an entry declares about its size is not believed.
 */

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/** How many more inflated bytes the reading of one archive may produce. */
export interface InflateBudget {
  left: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Compressed input handed to zlib at a time: one piece inflates to at most ~1,000 times its size. */
const INPUT_PIECE = 16 * 1024;

export class InvalidArchiveError extends Error {}

/** Entries by lower-cased name (producers differ in the case of `xl/sharedStrings.xml`). */
export function readZipDirectory(data: Buffer): Map<string, ZipEntry> {
  const end = findEndOfDirectory(data);
  const count = data.readUInt16LE(end + 10);
  const size = data.readUInt32LE(end + 12);
  const start = data.readUInt32LE(end + 16);
  if (start + size > end) throw new InvalidArchiveError('Zip directory out of bounds');
  const entries = new Map<string, ZipEntry>();
  let offset = start;
  for (let i = 0; i < count; i += 1) {
    if (offset + 46 > end || data.readUInt32LE(offset) !== DIRECTORY_ENTRY) throw new InvalidArchiveError('Broken zip directory');
    const flags = data.readUInt16LE(offset + 8);
    const method = data.readUInt16LE(offset + 10);
    const compressedSize = data.readUInt32LE(offset + 20);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    const localHeaderOffset = data.readUInt32LE(offset + 42);
    const name = data.toString('utf8', offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (flags & 0x01) throw new InvalidArchiveError('Encrypted zip entry');
    entries.set(name.toLowerCase(), { name, method, compressedSize, localHeaderOffset });
  }
  return entries;
}

function findEndOfDirectory(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let offset = data.length - 22; offset >= lowest; offset -= 1) {
    if (data.readUInt32LE(offset) === END_OF_DIRECTORY) return offset;
  }
  throw new InvalidArchiveError('Not a zip archive');
}

function compressedData(data: Buffer, entry: ZipEntry): Buffer {
  const header = entry.localHeaderOffset;
  if (header + 30 > data.length || data.readUInt32LE(header) !== LOCAL_HEADER) throw new InvalidArchiveError(`Broken zip entry ${entry.name}`);
  const start = header + 30 + data.readUInt16LE(header + 26) + data.readUInt16LE(header + 28);
  if (start + entry.compressedSize > data.length) throw new InvalidArchiveError(`Truncated zip entry ${entry.name}`);
  return data.subarray(start, start + entry.compressedSize);
}

function* pieces(data: Buffer): Generator<Buffer> {
  for (let offset = 0; offset < data.length; offset += INPUT_PIECE) yield data.subarray(offset, offset + INPUT_PIECE);
}

/**
 * An entry's content as UTF-8 text, chunk by chunk. Stops (SheetLimitError
 * `tooLarge`) once the budget is spent; the caller may stop reading at any
 * chunk, and nothing more is inflated.
 */
export async function* entryText(data: Buffer, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<string> {
  const compressed = compressedData(data, entry);
  if (entry.method !== STORED && entry.method !== DEFLATED) throw new InvalidArchiveError(`Unsupported zip method ${entry.method}`);
  const source = Readable.from(pieces(compressed), { objectMode: false });
  const stream = entry.method === STORED ? source : source.pipe(createInflateRaw({ chunkSize: 64 * 1024 }));
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      budget.left -= chunk.length;
      if (budget.left < 0) throw new SheetLimitError('tooLarge', 'The workbook inflates past the reading budget');
      yield decoder.write(chunk);
    }
  } catch (error) {
    if (error instanceof SheetLimitError) throw error;
    if ((error as { code?: string }).code?.startsWith('Z_')) throw new InvalidArchiveError(`Corrupt zip entry ${entry.name}`);
    throw error;
  } finally {
    source.destroy();
    stream.destroy();
  }
  const rest = decoder.end();
  if (rest) yield rest;
}
