import path from 'node:path';
import { checkSpaceToStart, explainStartupFailure } from '../storage/disk-space.js';
import { openDatabase, type Database } from './client.js';

export interface StartDatabaseOptions {
  /** PostgreSQL; absent: the embedded database in DATA_DIR/pglite. */
  databaseUrl?: string;
  dataDir: string;
  /** DATA_DIR_MIN_FREE_MB. */
  minFreeMb: number;
}

/** Where the embedded database lives in DATA_DIR. */
export function embeddedDatabaseFolder(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/**
 * The database a process starts with (the server, `npm run db:migrate`), migrated.
 * Refused, with a sentence for the operator, when DATA_DIR has less than the minimum
 * free space, when another process holds the embedded database (DataDirLockedError),
 * and when opening or migrating the embedded database fails for lack of space
 * (NoSpaceToStartError instead of the raw SQL or PGlite's `RuntimeError`).
 */
export async function openDatabaseAtStart({ databaseUrl, dataDir, minFreeMb }: StartDatabaseOptions): Promise<Database> {
  await checkSpaceToStart(dataDir, minFreeMb);
  let database: Database | undefined;
  try {
    database = await openDatabase({ url: databaseUrl, dataDir: databaseUrl ? undefined : embeddedDatabaseFolder(dataDir) });
    await database.migrate();
    return database;
  } catch (error) {
    await database?.close().catch(() => undefined);
    // PostgreSQL's own disk is not DATA_DIR: its errors are shown as they are.
    throw databaseUrl ? error : await explainStartupFailure(error, dataDir, minFreeMb);
  }
}
