import { PAGE_SIZE } from '@atende/shared';
import { and, count, desc, eq, gt, notExists, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { likeContains } from '../../platform/db/search.js';
import { announcementReads, announcements, type AnnouncementRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/** Announcements are platform data (like help videos): no tenant in these queries but the reader's own "seen" mark. */
export async function listAnnouncementPage(db: DbOrTx, query: { searchParam: string; pageNumber: number; activeOnly: boolean }) {
  const term = query.searchParam.trim().toLowerCase();
  const like = likeContains(term);
  const where = and(
    query.activeOnly ? eq(announcements.status, true) : undefined,
    term ? or(sql`lower(${announcements.title}) like ${like}`, sql`lower(${announcements.text}) like ${like}`) : undefined,
  );
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    db.select().from(announcements).where(where).orderBy(desc(announcements.createdAt), desc(announcements.id)).limit(PAGE_SIZE).offset(offset),
    db.select({ value: count() }).from(announcements).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return { records: rows, count: totalCount, hasMore: offset + rows.length < totalCount };
}

export async function findAnnouncement(db: DbOrTx, id: number): Promise<AnnouncementRow | null> {
  const [row] = await db.select().from(announcements).where(eq(announcements.id, id)).limit(1);
  return row ?? null;
}

export async function insertAnnouncement(db: DbOrTx, values: Pick<AnnouncementRow, 'title' | 'text' | 'priority' | 'status'>): Promise<AnnouncementRow> {
  const [row] = await db.insert(announcements).values(values).returning();
  if (!row) throw new Error('announcement not inserted');
  return row;
}

export async function updateAnnouncementRow(
  db: DbOrTx,
  id: number,
  change: Partial<Pick<AnnouncementRow, 'title' | 'text' | 'priority' | 'status' | 'mediaPath' | 'mediaName'>>,
): Promise<AnnouncementRow | null> {
  const [row] = await db
    .update(announcements)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(announcements.id, id))
    .returning();
  return row ?? null;
}

export async function deleteAnnouncementRow(db: DbOrTx, id: number): Promise<AnnouncementRow | null> {
  const [row] = await db.delete(announcements).where(eq(announcements.id, id)).returning();
  return row ?? null;
}

/** Active announcements published after the user last opened the popover (all of them when it never did). */
export async function countUnreadAnnouncements(db: DbOrTx, scope: TenantScope, userId: number): Promise<number> {
  const seen = db
    .select({ seenAt: announcementReads.seenAt })
    .from(announcementReads)
    .where(inTenant(announcementReads, scope, eq(announcementReads.userId, userId)));
  const [row] = await db
    .select({ value: count() })
    .from(announcements)
    .where(and(eq(announcements.status, true), or(notExists(seen), gt(announcements.createdAt, sql`(${seen})`))));
  return row?.value ?? 0;
}

export async function markAnnouncementsSeen(db: DbOrTx, scope: TenantScope, userId: number): Promise<void> {
  await db
    .insert(announcementReads)
    .values({ userId, companyId: scope.companyId, seenAt: new Date() })
    .onConflictDoUpdate({ target: announcementReads.userId, set: { seenAt: sql`now()` } });
}
