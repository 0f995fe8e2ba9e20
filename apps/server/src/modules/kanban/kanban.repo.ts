import { eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { executeNamed, type Database, type DbOrTx } from '../../platform/db/client.js';
import { tags, ticketTags } from '../../platform/db/schema.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { presentTicketsInDatabase } from '../tickets/tickets.repo.js';
import { inTenant } from '../../platform/db/tenant.js';

export interface KanbanFilters {
  showAll: boolean;
  queueIds?: number[];
  /** `none`: tickets without a kanban tag; a number: that kanban tag's lane; absent: the whole board. */
  lane?: 'none' | number;
  pageNumber: number;
  pageSize: number;
}

const intArray = (values: number[]) => sql`${`{${values.join(',')}}`}::int[]`;

/**
 * Who sees which card (spec part 2 §2.4, §6): an admin with showAll every ticket
 * of the company; anyone else the tickets of its own queues (those asked for,
 * limited to its own) and the tickets assigned to it.
 */
function boardScope(ctx: RequestContext, filters: Pick<KanbanFilters, 'showAll' | 'queueIds'>): SQL | null {
  const isAdmin = ctx.user.profile === 'admin';
  if (isAdmin && filters.showAll) return filters.queueIds ? sql`t.queue_id = any(${intArray(filters.queueIds)})` : null;
  const selected = filters.queueIds ?? ctx.user.queueIds;
  const allowed = isAdmin ? selected : selected.filter((id) => ctx.user.queueIds.includes(id));
  return sql`(t.user_id = ${ctx.user.id} or t.queue_id = any(${intArray(allowed)}))`;
}

const hasKanbanTag = sql`exists (select 1 from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = t.id and tg.kanban = 1)`;

/**
 * A page of the board's cards, most recently updated first, presented as the
 * ticket lists present them (JSON text), with the lane's total.
 */
export async function listKanbanTickets(database: Pick<Database, 'sql'>, ctx: RequestContext, filters: KanbanFilters) {
  // The board shows the tickets being worked on: a closed ticket leaves it.
  const conditions: SQL[] = [sql`t.company_id = ${ctx.companyId}`, sql`t.status in ('open', 'pending')`];
  const scope = boardScope(ctx, filters);
  if (scope) conditions.push(scope);
  if (filters.lane === 'none') conditions.push(sql`not ${hasKanbanTag}`);
  else if (filters.lane !== undefined) {
    conditions.push(sql`exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id = ${filters.lane})`);
  }
  const where = sql.join(conditions, sql` and `);
  const offset = (filters.pageNumber - 1) * filters.pageSize;
  const [rows, [total]] = await Promise.all([
    executeNamed<{ id: number }>(
      database.sql,
      sql`select t.id from tickets t where ${where}
        order by t.updated_at desc, t.id desc
        limit ${sql.raw(String(filters.pageSize))}${offset > 0 ? sql` offset ${offset}` : sql``}`,
    ),
    executeNamed<{ count: number | string }>(database.sql, sql`select count(*) as count from tickets t where ${where}`),
  ]);
  const ids = rows.map((row) => Number(row.id));
  const count = Number(total?.count ?? 0);
  return { ticketsJson: await presentTicketsInDatabase(database.sql, ctx, ids), count, hasMore: offset + ids.length < count };
}

/** Removes the ticket's kanban tags (its lane), but `keepTagId`; other tags stay. */
export async function removeKanbanTags(tx: DbOrTx, scope: TenantScope, ticketId: number, keepTagId?: number): Promise<void> {
  const laneTags = tx
    .select({ id: tags.id })
    .from(tags)
    .where(inTenant(tags, scope, eq(tags.kanban, 1), keepTagId === undefined ? undefined : ne(tags.id, keepTagId)));
  await tx
    .delete(ticketTags)
    .where(inTenant(ticketTags, scope, eq(ticketTags.ticketId, ticketId), inArray(ticketTags.tagId, laneTags)));
}

export async function attachTag(tx: DbOrTx, scope: TenantScope, ticketId: number, tagId: number): Promise<void> {
  await tx.insert(ticketTags).values({ companyId: scope.companyId, ticketId, tagId }).onConflictDoNothing();
}
