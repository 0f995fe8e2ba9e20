import type { PresentedHelp } from '@atende/shared';
import type { HelpRow } from '../../platform/db/schema.js';

export function presentHelp(row: HelpRow): PresentedHelp {
  return {
    id: row.id,
    title: row.title,
    video: row.video,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
