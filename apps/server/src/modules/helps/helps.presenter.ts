import type { HelpRow } from '../../platform/db/schema.js';

export function presentHelp(row: HelpRow) {
  return {
    id: row.id,
    title: row.title,
    video: row.video,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
