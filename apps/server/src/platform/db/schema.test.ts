import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-database.js';
import type { Database } from './client.js';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe('the migrated schema', () => {
  it('indexes every foreign key: some index starts with its columns', async () => {
    // A delete of the referenced row (and its cascade) looks the referencing rows up by these columns.
    const keys = await rows<{ name: string; table: string; columns: number[] }>(sql`
      select c.conname as name, c.conrelid::regclass::text as table, c.conkey::int[] as columns
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`);
    const indexes = await rows<{ table: string; columns: string }>(sql`
      select i.indrelid::regclass::text as table, i.indkey::text as columns
      from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public'`);
    expect(keys.length).toBeGreaterThan(20);
    const unindexed = keys.filter((key) =>
      !indexes.some((index) => {
        if (index.table !== key.table) return false;
        const leading = index.columns.split(' ').map(Number).slice(0, key.columns.length);
        return [...leading].sort().join() === [...key.columns].sort().join();
      }),
    );
    expect(unindexed.map((key) => `${key.table}: ${key.name}`)).toEqual([]);
  });

  it('fills message_terms from messages stored without it (the migration and the bench seed do)', async () => {
    const words = async () =>
      (await rows<{ term: string }>(sql`select term from message_terms where ticket_id = 998 order by term`)).map((r) => r.term);
    // Replica mode skips the triggers (the words and the foreign keys), as a bulk load without them.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into messages (company_id, ticket_id, contact_id, body) values (999, 998, 997, 'Geladeira BRASTEMP, porta amassada: porta!')`);
    });
    expect(await words()).toEqual([]);
    await database.db.execute(sql`select message_terms_backfill()`);
    expect(await words()).toEqual(['amassada', 'brastemp', 'geladeira', 'porta']);
    // Running it again adds nothing.
    await database.db.execute(sql`select message_terms_backfill()`);
    expect(await words()).toHaveLength(4);
    // Emptying messages empties their words (a truncate fires no delete trigger).
    await database.db.execute(sql`truncate messages cascade`);
    expect(await words()).toEqual([]);
  });
});
