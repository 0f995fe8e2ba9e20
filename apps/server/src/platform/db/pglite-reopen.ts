import type { PGlite } from '@electric-sql/pglite';
import { canWrite, freeSpace, isWasmAbort, ROOM_FOR_THE_DATABASE } from '../storage/disk-space.js';

/** A failed re-open is tried again at most this often (each attempt starts a WebAssembly instance)... */
const REOPEN_EVERY_MS = 2_000;
/** ...unless this much space was freed since. */
const FREED_BYTES = 1024 * 1024;

/** What a statement on a dead embedded database answers: no space (507) or the database restarting (503). */
class EmbeddedDatabaseStopped extends Error {
  readonly code: string;

  constructor(cause: unknown, noSpace: boolean) {
    super(noSpace ? 'The embedded database stopped: no space left on device' : 'The embedded database stopped; it is being opened again', { cause });
    this.name = 'EmbeddedDatabaseStopped';
    this.code = noSpace ? 'ENOSPC' : 'EMBEDDED_DATABASE_STOPPED';
  }
}

async function stopped(cause: unknown, dataDir: string): Promise<EmbeddedDatabaseStopped> {
  return new EmbeddedDatabaseStopped(cause, !(await canWrite(dataDir, ROOM_FOR_THE_DATABASE).catch(() => true)));
}

export interface ReopeningPglite {
  /** Stands for whichever instance is alive: give it to drizzle and pg-boss. */
  client: PGlite;
  close(): Promise<void>;
}

/**
 * PGlite on a folder that cannot take a write (a full disk) aborts its WebAssembly at
 * a checkpoint, and that instance answers nothing afterwards. Everything committed is
 * in the folder's WAL, so the next statement after an abort opens the folder again
 * (once space is back, that works); until then each statement fails with
 * `EmbeddedDatabaseStopped`, which the error handler answers 507 (no space) or 503.
 */
export function reopeningPglite(first: PGlite, dataDir: string, open: () => Promise<PGlite>): ReopeningPglite {
  let client: PGlite | null = first;
  let lastFailure: EmbeddedDatabaseStopped | null = null;
  let nextAttemptAt = 0;
  let freeAtFailure = 0;
  let reopening: Promise<PGlite> | null = null;
  const free = () => freeSpace(dataDir).catch(() => 0);

  const alive = async (): Promise<PGlite> => {
    if (client) return client;
    if (lastFailure && Date.now() < nextAttemptAt && (await free()) < freeAtFailure + FREED_BYTES) throw lastFailure;
    reopening ??= open()
      .then((fresh) => {
        client = fresh;
        lastFailure = null;
        return fresh;
      })
      .catch(async (error: unknown) => {
        nextAttemptAt = Date.now() + REOPEN_EVERY_MS;
        freeAtFailure = await free();
        lastFailure = isWasmAbort(error) ? await stopped(error, dataDir) : new EmbeddedDatabaseStopped(error, false);
        throw lastFailure;
      })
      .finally(() => {
        reopening = null;
      });
    return reopening;
  };

  const guarded = async <T>(work: (instance: PGlite) => Promise<T>): Promise<T> => {
    const instance = await alive();
    try {
      return await work(instance);
    } catch (error) {
      if (!isWasmAbort(error)) throw error;
      if (client === instance) client = null;
      lastFailure = await stopped(error, dataDir);
      throw lastFailure;
    }
  };

  const facade = {
    query: (...args: Parameters<PGlite['query']>) => guarded((instance) => instance.query(...args)),
    exec: (...args: Parameters<PGlite['exec']>) => guarded((instance) => instance.exec(...args)),
    transaction: (...args: Parameters<PGlite['transaction']>) => guarded((instance) => instance.transaction(...args)),
    // A reopened instance does not carry its listeners over: their callers also poll.
    listen: (...args: Parameters<PGlite['listen']>) => guarded((instance) => instance.listen(...args)),
  };

  return {
    client: facade as unknown as PGlite,
    async close() {
      // A dead instance cannot checkpoint, and neither can one whose closing checkpoint meets a full
      // disk (it aborts): what they committed is in the write-ahead log, replayed at the next open.
      try {
        if (client) await client.close();
      } catch (error) {
        if (!isWasmAbort(error)) throw error;
      }
    },
  };
}
