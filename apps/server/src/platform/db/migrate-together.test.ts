import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, usePostgres } from '../../test/test-database.js';
import { openDatabase } from './client.js';

const MIGRATIONS = readdirSync(new URL('../../../drizzle', import.meta.url)).filter((name) => name.endsWith('.sql')).length;

// Nodes started together (systemd at boot, docs/deploy.md) on one PostgreSQL database:
// without the migration lock, all but one failed on the first migration's CREATE TABLE.
describe.skipIf(!usePostgres)('migrations on PostgreSQL', () => {
  it('are applied once when three nodes migrate an empty database at the same time', async () => {
    const empty = await openTestDatabase({ migrate: false });
    const others = await Promise.all([1, 2].map(() => openDatabase({ url: empty.url ?? '', poolSize: 2 })));
    try {
      await Promise.all([empty, ...others].map((node) => node.migrate()));
      const { rows } = await empty.sql.executeSql('select count(*)::int as applied from drizzle.__drizzle_migrations');
      expect(rows[0]?.applied).toBe(MIGRATIONS);
    } finally {
      await Promise.all(others.map((node) => node.close()));
      await empty.close();
    }
  });
});
