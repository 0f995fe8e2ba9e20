import type { QueueOptionBody, QueueOptionUpdateBody } from '@atende/shared';
import type { QueueOptionRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { assertKnownVariables } from '../messages/message-variables.js';
import { findQueue } from '../queues/queues.repo.js';
import {
  deleteQueueOptionRow,
  findQueueOption,
  insertQueueOption,
  listQueueOptions,
  siblingPositions,
  updateQueueOptionRow,
} from './queue-options.repo.js';

/** The queue options module's ports: the database and the attachments' storage. */
export type QueueOptionsDeps = Pick<Platform, 'db' | 'media'>;

export interface UploadedFile {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

async function showQueueOption(deps: QueueOptionsDeps, ctx: RequestContext, id: number): Promise<QueueOptionRow> {
  const option = await findQueueOption(deps.db, ctx, id);
  if (!option) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  return option;
}

async function assertQueue(deps: QueueOptionsDeps, ctx: RequestContext, queueId: number): Promise<void> {
  if (!(await findQueue(deps.db, ctx, queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/** Every option of a queue of the company, in the customer's order (the presenter nests them). */
export async function listOptionsOfQueue(deps: QueueOptionsDeps, ctx: RequestContext, queueId: number): Promise<QueueOptionRow[]> {
  await assertQueue(deps, ctx, queueId);
  return listQueueOptions(deps.db, ctx, queueId);
}

/** An option and every option of its queue, from which its subtree is presented. */
export async function showQueueOptionTree(deps: QueueOptionsDeps, ctx: RequestContext, id: number): Promise<{ option: QueueOptionRow; all: QueueOptionRow[] }> {
  const option = await showQueueOption(deps, ctx, id);
  return { option, all: await listQueueOptions(deps.db, ctx, option.queueId) };
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
export async function createQueueOption(deps: QueueOptionsDeps, ctx: RequestContext, body: QueueOptionBody): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  await assertQueue(deps, ctx, body.queueId);
  assertKnownVariables({ message: body.message });
  const parentId = body.parentId ?? null;
  if (parentId !== null) {
    const parent = await findQueueOption(deps.db, ctx, parentId);
    if (!parent || parent.queueId !== body.queueId) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  }
  const taken = await siblingPositions(deps.db, ctx, body.queueId, parentId);
  const option = body.option ?? nextPosition(taken);
  if (taken.includes(option)) throw new AppError('ERR_QUEUE_OPTION_ALREADY_EXISTS');
  const row = await insertQueueOption(deps.db, ctx, { queueId: body.queueId, parentId, title: body.title, message: body.message, option });
  if (!row) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  return row;
}

export async function updateQueueOption(deps: QueueOptionsDeps, ctx: RequestContext, id: number, body: QueueOptionUpdateBody): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  const current = await showQueueOption(deps, ctx, id);
  assertKnownVariables({ message: body.message }, {}, { message: current.message });
  if (body.option !== undefined && body.option !== current.option) {
    const taken = await siblingPositions(deps.db, ctx, current.queueId, current.parentId, id);
    if (taken.includes(body.option)) throw new AppError('ERR_QUEUE_OPTION_ALREADY_EXISTS');
  }
  await updateQueueOptionRow(deps.db, ctx, id, { title: body.title, message: body.message, option: body.option });
  return showQueueOption(deps, ctx, id);
}

/** Deletes the option and everything under it; tickets standing on it go on from their queue. */
export async function deleteQueueOption(deps: QueueOptionsDeps, ctx: RequestContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const option = await showQueueOption(deps, ctx, id);
  await deleteQueueOptionRow(deps.db, ctx, id);
  if (option.mediaPath) await deps.media.remove(ctx, option.mediaPath);
}

/** The attachment a leaf sends with its message. */
export async function attachQueueOptionMedia(deps: QueueOptionsDeps, ctx: RequestContext, id: number, read: () => Promise<UploadedFile>): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  const previous = await showQueueOption(deps, ctx, id);
  const stored = await deps.media.save(ctx, await read());
  await updateQueueOptionRow(deps.db, ctx, id, { mediaPath: stored.path, mediaName: stored.name });
  if (previous.mediaPath) await deps.media.remove(ctx, previous.mediaPath);
  return showQueueOption(deps, ctx, id);
}

export async function removeQueueOptionMedia(deps: QueueOptionsDeps, ctx: RequestContext, id: number): Promise<QueueOptionRow> {
  requireAdmin(ctx);
  const previous = await showQueueOption(deps, ctx, id);
  await updateQueueOptionRow(deps.db, ctx, id, { mediaPath: null, mediaName: null });
  if (previous.mediaPath) await deps.media.remove(ctx, previous.mediaPath);
  return showQueueOption(deps, ctx, id);
}
