import { APP_VERSION, type HealthAnswer } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform.js';
import type { StorageMonitor, StorageStatus } from '../storage/disk-space.js';
import type { MediaStorage } from '../storage/media-storage.js';

/** What `/health` reads: the database's answer, DATA_DIR's free space and the media storage's last answer. */
export type HealthDeps = Pick<Platform, 'database'> & { storage: Pick<StorageMonitor, 'status'>; media: Pick<MediaStorage, 'status'> };

/**
 * `GET /health`: 200 `{status: 'ok', database, storage}` when the database answers and
 * DATA_DIR has room; otherwise 503 with `status` `storage_full` (`storage.reason` says
 * why: DATA_DIR under DATA_DIR_MIN_FREE_MB, a write there refused for lack of space, or
 * the PostgreSQL server refusing writes for lack of space) or `unavailable` (the
 * database does not answer). `media` says whether the media storage (a bucket) answered
 * its last call; one that does not is no reason to take the node out (texts and tickets
 * work), so it does not change the status code. docs/operations.md.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/health', async (_request, reply) => {
    const [databaseAnswers, storage] = await Promise.all([
      deps.database.ping().then(
        () => true,
        () => false,
      ),
      deps.storage.status().catch((error: unknown): StorageStatus | { status: 'unknown'; reason: string } => ({
        status: 'unknown',
        reason: error instanceof Error ? error.message : String(error),
      })),
    ]);
    const body = { database: deps.database.kind, storage, media: deps.media.status() };
    // A full disk first: it is also why an embedded database stops answering.
    if (storage.status === 'full' || storage.status === 'database_full') return reply.status(503).send({ status: 'storage_full', ...body } satisfies HealthAnswer);
    if (!databaseAnswers) return reply.status(503).send({ status: 'unavailable', ...body } satisfies HealthAnswer);
    return { status: 'ok', ...body } satisfies HealthAnswer;
  });
  app.get('/version', async () => ({ version: APP_VERSION }));
}
