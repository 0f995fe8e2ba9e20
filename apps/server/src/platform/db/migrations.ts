import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The folder of drizzle's migrations: from the sources (src/platform/db) or from the bundle (dist/). */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../../drizzle'), path.resolve(here, '../drizzle')];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`migrations folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

const Journal = z.object({ entries: z.array(z.object({ tag: z.string(), when: z.number() })) });

/**
 * How far a database's schema went: the migrations drizzle recorded as applied. drizzle
 * applies a migration when its journal time (`when`) is later than the last applied one,
 * so that time identifies the level.
 */
export const MigrationLevel = z.object({
  applied: z.number().int().min(0),
  /** The last applied migration's file name (`0032_v6_endpoints`), null when this code does not know it. */
  last: z.string().nullable(),
  /** Its journal time (ms); null when none was applied. */
  lastAt: z.number().nullable(),
});
export type MigrationLevel = z.infer<typeof MigrationLevel>;

function journal(): { tag: string; when: number }[] {
  return Journal.parse(JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'))).entries;
}

/** The level this code migrates a database to. */
export function codeMigrationLevel(): MigrationLevel {
  const entries = journal();
  const last = entries.at(-1);
  return { applied: entries.length, last: last?.tag ?? null, lastAt: last?.when ?? null };
}

/** The level of a database, read with `query` (inside a snapshot's transaction, to match it). */
export async function appliedMigrationLevel(query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<MigrationLevel> {
  const exists = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!exists.rows[0]?.present) return { applied: 0, last: null, lastAt: null };
  const { rows } = await query('select count(*)::int as applied, max(created_at)::text as last_at from drizzle.__drizzle_migrations');
  const applied = Number(rows[0]?.applied ?? 0);
  const lastAt = rows[0]?.last_at == null ? null : Number(rows[0].last_at);
  return { applied, last: journal().find((entry) => entry.when === lastAt)?.tag ?? null, lastAt };
}

/** Whether a database at `level` holds migrations this code does not have (it was made by a newer Atende). */
export function isNewerThanCode(level: MigrationLevel): boolean {
  const code = codeMigrationLevel();
  if (level.lastAt === null) return false;
  return code.lastAt === null || level.lastAt > code.lastAt || level.applied > code.applied;
}
