import type { QueueOptionBody, QueueOptionUpdateBody } from '@atende/shared';
import type { AppServices } from '../../app.js';
import type { QueueOptionRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import { findQueue } from '../queues/queues.repo.js';
import {
  deleteQueueOptionRow,
  findQueueOption,
  insertQueueOption,
  siblingPositions,
  updateQueueOptionRow,
} from './queue-options.repo.js';

export interface UploadedFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

export async function showQueueOption(services: AppServices, ctx: RequestContext, id: number): Promise<QueueOptionRow> {
  const option = await findQueueOption(services.db, ctx, id);
  if (!option) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  return option;
}

export async function assertQueue(services: AppServices, ctx: RequestContext, queueId: number): Promise<void> {
  if (!(await findQueue(services.db, ctx, queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/** The next free position at a level: one more than the highest number used. */
function nextPosition(taken: string[]): string {
  const highest = taken.reduce((max, option) => Math.max(max, Number(option) || 0), 0);
  return String(highest + 1);
}

/**
 * An option of a queue's chatbot tree (spec part 2 §2.3): under the queue's
 * roots or under another option of the same queue. Its position is what the
 * customer types, so it is unique among its siblings.
 */
export async function createQueueOption(services: AppServices, ctx: RequestContext, body: QueueOptionBody): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  await assertQueue(services, ctx, body.queueId);
  const parentId = body.parentId ?? null;
  if (parentId !== null) {
    const parent = await findQueueOption(services.db, ctx, parentId);
    if (!parent || parent.queueId !== body.queueId) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  }
  const taken = await siblingPositions(services.db, ctx, body.queueId, parentId);
  const option = body.option ?? nextPosition(taken);
  if (taken.includes(option)) throw new AppError('ERR_QUEUE_OPTION_ALREADY_EXISTS');
  const row = await insertQueueOption(services.db, ctx, { queueId: body.queueId, parentId, title: body.title, message: body.message, option });
  if (!row) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  return row;
}

export async function updateQueueOption(services: AppServices, ctx: RequestContext, id: number, body: QueueOptionUpdateBody): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  const current = await showQueueOption(services, ctx, id);
  if (body.option !== undefined && body.option !== current.option) {
    const taken = await siblingPositions(services.db, ctx, current.queueId, current.parentId, id);
    if (taken.includes(body.option)) throw new AppError('ERR_QUEUE_OPTION_ALREADY_EXISTS');
  }
  await updateQueueOptionRow(services.db, ctx, id, { title: body.title, message: body.message, option: body.option });
  return showQueueOption(services, ctx, id);
}

/** Deletes the option and everything under it; tickets standing on it go on from their queue. */
export async function deleteQueueOption(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const option = await showQueueOption(services, ctx, id);
  await deleteQueueOptionRow(services.db, ctx, id);
  if (option.mediaPath) await services.media.remove(ctx, option.mediaPath);
}

/** The attachment a leaf sends with its message. */
export async function attachQueueOptionMedia(services: AppServices, ctx: RequestContext, id: number, read: () => Promise<UploadedFile>): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  const previous = await showQueueOption(services, ctx, id);
  const stored = await services.media.save(ctx, await read());
  await updateQueueOptionRow(services.db, ctx, id, { mediaPath: stored.path, mediaName: stored.name });
  if (previous.mediaPath) await services.media.remove(ctx, previous.mediaPath);
  return showQueueOption(services, ctx, id);
}

export async function removeQueueOptionMedia(services: AppServices, ctx: RequestContext, id: number): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  const previous = await showQueueOption(services, ctx, id);
  await updateQueueOptionRow(services.db, ctx, id, { mediaPath: null, mediaName: null });
  if (previous.mediaPath) await services.media.remove(ctx, previous.mediaPath);
  return showQueueOption(services, ctx, id);
}
