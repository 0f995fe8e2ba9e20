import { createHash } from 'node:crypto';
import type { MediaObject, MediaStore } from '../../platform/storage/media-store.js';

export interface MoveOptions {
  from: MediaStore;
  to: MediaStore;
  /** Files copied at once (default 4). */
  concurrency?: number;
  /** Remove each file from `from` once the copy in `to` is verified. */
  removeSource?: boolean;
  /** Read and compare only; copy and remove nothing. */
  dryRun?: boolean;
  /** Stops taking new files (SIGINT); those under way finish. */
  signal?: AbortSignal;
  /** Told after each file. */
  onProgress?: (report: MoveReport) => void;
}

export interface MoveReport {
  found: number;
  bytes: number;
  copied: number;
  /** Already in the bucket with the same size and content (an earlier run). */
  alreadyThere: number;
  /** Would be copied (dry run). */
  toCopy: number;
  removed: number;
  failed: { key: string; reason: string }[];
  /** Stopped before every file was looked at (the signal). */
  interrupted: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
};

/** The MD5 of a stored file, read through; null when it is gone. */
async function digestOf(store: MediaStore, key: string): Promise<string | null> {
  const file = await store.get(key);
  if (!file) return null;
  const hash = createHash('md5');
  for await (const chunk of file.stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether `to` holds this exact file: its size, and its digest (the store's, or read through when it gives none). */
async function holds(to: MediaStore, key: string, size: number, md5: string): Promise<boolean> {
  const there = await to.stat(key);
  if (!there || there.size !== size) return false;
  return (there.md5 ?? (await digestOf(to, key))) === md5;
}

/**
 * Copies every file of one media store into another (the folder into the bucket: `npm run
 * media:to-s3`), by key. Idempotent and so resumable: a file the target already holds with
 * the same size and MD5 is left as it is; another is copied with its MD5 (the store refuses
 * bytes that do not match it), then checked again in the target. A file is removed from
 * the source only once that check passed.
 */
export async function moveMedia(options: MoveOptions): Promise<MoveReport> {
  const { from, to } = options;
  const report: MoveReport = { found: 0, bytes: 0, copied: 0, alreadyThere: 0, toCopy: 0, removed: 0, failed: [], interrupted: false };

  async function moveOne(object: MediaObject): Promise<void> {
    const md5 = await digestOf(from, object.key);
    // Removed since it was listed (an attachment replaced meanwhile): nothing to move.
    if (md5 === null) return;
    report.found += 1;
    report.bytes += object.size;
    if (await holds(to, object.key, object.size, md5)) {
      report.alreadyThere += 1;
    } else if (options.dryRun) {
      report.toCopy += 1;
      return;
    } else {
      const file = await from.get(object.key);
      if (!file) return;
      const extension = object.key.slice(object.key.lastIndexOf('.') + 1).toLowerCase();
      await to.put(object.key, file.stream, { size: file.size, md5, contentType: CONTENT_TYPES[extension] });
      if (!(await holds(to, object.key, file.size, md5))) throw new Error('the copy in the target does not match the file');
      report.copied += 1;
    }
    if (options.removeSource && !options.dryRun) {
      await from.remove(object.key);
      report.removed += 1;
    }
  }

  const listing = from.list('')[Symbol.asyncIterator]();
  const worker = async () => {
    for (;;) {
      if (options.signal?.aborted) {
        report.interrupted = true;
        return;
      }
      const next = await listing.next();
      if (next.done) return;
      try {
        await moveOne(next.value);
      } catch (error) {
        report.failed.push({ key: next.value.key, reason: error instanceof Error ? error.message : String(error) });
      }
      options.onProgress?.(report);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return report;
}

export function formatMoveReport(report: MoveReport, from: MediaStore, to: MediaStore, options: { dryRun?: boolean; removeSource?: boolean }): string {
  const mb = (report.bytes / (1024 * 1024)).toFixed(1);
  const lines = [
    `Media ${options.dryRun ? 'to move (dry run)' : 'moved'}: ${from.location} -> ${to.location}`,
    `  files found:       ${report.found} (${mb} MB)`,
    options.dryRun ? `  to copy:           ${report.toCopy}` : `  copied:            ${report.copied}`,
    `  already there:     ${report.alreadyThere}`,
    ...(options.removeSource && !options.dryRun ? [`  removed from the source: ${report.removed}`] : []),
    `  failed:            ${report.failed.length}`,
    ...report.failed.slice(0, 50).map((failure) => `    ${failure.key}: ${failure.reason}`),
    ...(report.failed.length > 50 ? [`    ... and ${report.failed.length - 50} more`] : []),
  ];
  if (report.interrupted) lines.push('Interrupted: run the same command again to go on where it stopped.');
  else if (report.failed.length > 0) lines.push('Some files failed: run the same command again to retry them (what is already there is skipped).');
  else if (!options.dryRun) lines.push('Every file is in the target, checked by size and MD5.');
  return `${lines.join('\n')}\n`;
}
