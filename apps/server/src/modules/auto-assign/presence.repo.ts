import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import type { TenantScope } from '../../platform/http/context.js';

/**
 * A node refreshes its presence rows every PRESENCE_REFRESH_MS; a row not refreshed for
 * PRESENCE_STALE_SECONDS belongs to a node that died (or stalled) and does not count.
 */
export const PRESENCE_REFRESH_MS = 10_000;
const PRESENCE_STALE_SECONDS = 30;
/** Stale rows are deleted once this old (any node's refresh does it). */
const PRESENCE_PURGE_SECONDS = 120;

/** SQL: the user `userColumn` has a live socket on some node. */
export function onlineSql(userColumn: string): string {
  return `exists (select 1 from user_presence pr where pr.user_id = ${userColumn} and pr.heartbeat_at > now() - interval '${PRESENCE_STALE_SECONDS} seconds')`;
}

type Rows<T> = { rows: T[] };

export async function isUserOnline(db: DbOrTx, scope: TenantScope, userId: number): Promise<boolean> {
  const result = (await db.execute(sql`
    select ${sql.raw(onlineSql('u.id'))} as online from users u where u.company_id = ${scope.companyId} and u.id = ${userId}`)) as unknown as Rows<{ online: boolean }>;
  return result.rows[0]?.online === true;
}

/** The user has a socket on this node: its row is created or refreshed. */
export async function upsertPresence(db: DbOrTx, scope: TenantScope, userId: number, nodeId: string): Promise<void> {
  await db.execute(sql`
    insert into user_presence (company_id, user_id, node_id, heartbeat_at)
    select ${scope.companyId}, u.id, ${nodeId}, now() from users u where u.company_id = ${scope.companyId} and u.id = ${userId}
    on conflict (user_id, node_id) do update set heartbeat_at = now()`);
}

export async function deletePresence(db: DbOrTx, scope: TenantScope, userId: number, nodeId: string): Promise<void> {
  await db.execute(sql`delete from user_presence where company_id = ${scope.companyId} and user_id = ${userId} and node_id = ${nodeId}`);
}

/**
 * The node's heartbeat: the rows of the users it holds sockets for are refreshed (and
 * re-created if a purge removed them while the node stalled), its other rows deleted,
 * and long-stale rows of any node purged.
 */
export async function refreshNodePresence(db: DbOrTx, nodeId: string, connected: { companyId: number; userId: number }[]): Promise<void> {
  const companyIds = connected.map((c) => c.companyId);
  const userIds = connected.map((c) => c.userId);
  await db.execute(sql`
    insert into user_presence (company_id, user_id, node_id, heartbeat_at)
    select c.company_id, c.user_id, ${nodeId}, now()
    from unnest(${`{${companyIds.join(',')}}`}::int[], ${`{${userIds.join(',')}}`}::int[]) as c(company_id, user_id)
    where exists (select 1 from users u where u.id = c.user_id and u.company_id = c.company_id)
    on conflict (user_id, node_id) do update set heartbeat_at = now()`);
  await db.execute(sql`
    delete from user_presence
    where (node_id = ${nodeId} and not (user_id = any(${`{${userIds.join(',')}}`}::int[])))
       or heartbeat_at < now() - interval '${sql.raw(String(PRESENCE_PURGE_SECONDS))} seconds'`);
}

/** The node stops: its users are no longer online through it. */
export async function clearNodePresence(db: DbOrTx, nodeId: string): Promise<void> {
  await db.execute(sql`delete from user_presence where node_id = ${nodeId}`);
}
