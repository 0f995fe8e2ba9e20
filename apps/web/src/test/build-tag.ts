import type { PresentedTag } from '@atende/shared';

/** A tag as the tags page gets it, for web tests: "Tag {id}", red, not a kanban lane, on no ticket. Overrides replace whole fields. */
export function buildTag(id: number, overrides: Partial<PresentedTag> = {}): PresentedTag {
  return {
    id,
    name: `Tag ${id}`,
    color: '#cc3333',
    kanban: 0,
    userId: 1,
    ticketsCount: 0,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
