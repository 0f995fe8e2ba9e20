import type { PresentedQueueOption } from '@atende/shared';
import type { QueueOptionRow } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';


/** Options of one level with their whole subtree under `children`, each level in the customer's order. */
export function presentOptionTree(all: QueueOptionRow[], parentId: number | null, media: MediaStorage): PresentedQueueOption[] {
  const byParent = new Map<number | null, QueueOptionRow[]>();
  for (const row of all) {
    const list = byParent.get(row.parentId) ?? [];
    list.push(row);
    byParent.set(row.parentId, list);
  }
  const build = (parent: number | null, depth: number): PresentedQueueOption[] =>
    // Depth guard: a tree is never this deep, a corrupted cycle must not hang the request.
    depth > 50 ? [] : (byParent.get(parent) ?? []).map((row) => presentQueueOption(row, media, build(row.id, depth + 1)));
  return build(parentId, 0);
}

export function presentQueueOption(row: QueueOptionRow, media: MediaStorage, children: PresentedQueueOption[] = []): PresentedQueueOption {
  return {
    id: row.id,
    queueId: row.queueId,
    parentId: row.parentId,
    title: row.title,
    message: row.message,
    option: row.option,
    mediaName: row.mediaName,
    mediaUrl: row.mediaPath ? media.signedUrl(row.mediaPath) : null,
    children,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
