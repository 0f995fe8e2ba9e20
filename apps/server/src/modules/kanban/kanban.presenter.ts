/**
 * `GET /ticket/kanban` as JSON text: the cards come presented from the database (as the
 * ticket lists do), so the page is written around them instead of parsed and serialized again.
 */
export function presentKanbanPage(page: { ticketsJson: string; count: number; hasMore: boolean }): string {
  return `{"tickets":${page.ticketsJson},"count":${page.count},"hasMore":${page.hasMore}}`;
}
