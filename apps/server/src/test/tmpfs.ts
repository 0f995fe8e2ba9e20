import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real small file system for the full-disk tests: a tmpfs mounted on a fresh
 * folder (needs root). Where mounting is not permitted the tests are skipped with a
 * message saying so, except under CI (CI=true), where that is a failure.
 */
export interface SmallDisk {
  dir: string;
  /** Writes a file until the disk refuses (ENOSPC): afterwards only `leaveBytes` (about) fit. */
  fill(leaveBytes?: number): void;
  /** Removes that file. */
  free(): void;
  unmount(): void;
}

export type MountResult = { disk: SmallDisk; skipped?: undefined } | { disk?: undefined; skipped: string };

export function mountSmallDisk(sizeMb: number): MountResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0 || mounted.error) {
    rmSync(dir, { recursive: true, force: true });
    const why = `cannot mount a tmpfs (${(mounted.error?.message ?? mounted.stderr).trim() || `exit ${mounted.status}`}); run as root to test a full disk`;
    if (process.env.CI === 'true') throw new Error(`CI must run the full-disk tests: ${why}`);
    console.warn(`full-disk tests skipped: ${why}`);
    return { skipped: why };
  }
  const filler = path.join(dir, 'filler');
  return {
    disk: {
      dir,
      fill(leaveBytes = 0) {
        const reserve = path.join(dir, 'reserve');
        if (leaveBytes > 0) writeFileSync(reserve, Buffer.alloc(leaveBytes, 1));
        const fd = openSync(filler, 'a');
        try {
          // Big writes first, then page-sized ones for what is left.
          for (const size of [1024 * 1024, 4096, 512]) {
            const chunk = Buffer.alloc(size, 1);
            for (;;) {
              try {
                writeSync(fd, chunk);
              } catch (error) {
                if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
                throw error;
              }
            }
          }
        } finally {
          closeSync(fd);
          rmSync(reserve, { force: true });
        }
      },
      free() {
        rmSync(filler, { force: true });
      },
      unmount() {
        spawnSync('umount', ['-l', dir]);
        rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}
