import type { HelpBody, HelpUpdateBody } from '@atende/shared';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { helps, type HelpRow } from '../../platform/db/schema.js';

/** Help videos are platform data (not tenant data): every user reads them, only super users change them. */
export async function listHelps(db: DbOrTx): Promise<HelpRow[]> {
  return db.select().from(helps).orderBy(asc(helps.title), asc(helps.id));
}

/** The help's own columns, picked one by one: nothing else of a body reaches the row. */
function toColumns(body: HelpUpdateBody): Partial<typeof helps.$inferInsert> {
  return { title: body.title, video: body.video, description: body.description };
}

export async function insertHelp(db: DbOrTx, body: HelpBody): Promise<HelpRow> {
  const [row] = await db.insert(helps).values(toColumns(body) as typeof helps.$inferInsert).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function updateHelp(db: DbOrTx, id: number, body: HelpUpdateBody): Promise<HelpRow | null> {
  const [row] = await db
    .update(helps)
    .set({ ...toColumns(body), updatedAt: new Date() })
    .where(eq(helps.id, id))
    .returning();
  return row ?? null;
}

export async function deleteHelp(db: DbOrTx, id: number): Promise<boolean> {
  return (await db.delete(helps).where(eq(helps.id, id)).returning({ id: helps.id })).length === 1;
}
