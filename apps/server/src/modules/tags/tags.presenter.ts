import type { PresentedTag, PresentedTagSummary } from '@atende/shared';
import type { TagRow } from '../../platform/db/schema.js';

export interface TagDetail extends TagRow {
  ticketsCount: number;
}

/** The tags page's shape (part 2 §3: id, name, color, kanban, userId, ticketsCount). */
export function presentTag(tag: TagDetail): PresentedTag {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    kanban: tag.kanban,
    userId: tag.userId,
    ticketsCount: tag.ticketsCount,
    createdAt: tag.createdAt.toISOString(),
    updatedAt: tag.updatedAt.toISOString(),
  };
}

/** Pickers and the ticket's tag bar (`GET /tags/list`). */
export function presentTagSummary(tag: Pick<TagRow, 'id' | 'name' | 'color' | 'kanban'>): PresentedTagSummary {
  return { id: tag.id, name: tag.name, color: tag.color, kanban: tag.kanban };
}
