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
});
