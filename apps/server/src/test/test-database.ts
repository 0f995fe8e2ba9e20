import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../platform/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PGlite data directory dumped to a file: each test file's database starts from it. */
    pgliteTemplate: string;
  }
}

export const usePostgres = process.env.TEST_DATABASE === 'postgres';
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A database of its own for one test file: in-memory PGlite by default, a
 * throwaway PostgreSQL database under `npm run test:pg`. Migrations applied (PGlite:
 * copied from the run's migrated template). `migrate: false`: an empty database, for
 * a test that applies migrations itself.
 */
export async function openTestDatabase(options: { migrate?: boolean } = {}): Promise<Database & { name?: string }> {
  const migrate = options.migrate ?? true;
  if (!usePostgres && !migrate) return openDatabase({});
  if (!usePostgres) {
    // The run's migrated template (global-setup.ts; absent when a run skips it), so
    // that migrating only checks it is current.
    const file = inject('pgliteTemplate') as string | undefined;
    const database = await openDatabase(file ? { template: new Blob([await readFile(file)]) } : {});
    await database.migrate();
    return database;
  }
  const name = `atende_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 5 });
  if (migrate) await database.migrate();
  return {
    ...database,
    name,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
