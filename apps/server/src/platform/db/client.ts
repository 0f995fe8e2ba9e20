import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { serveSnapshotRequests, takeSnapshot, type SnapshotInfo } from './embedded-snapshot.js';
import { migrationsFolder } from './migrations.js';
import { reopeningPglite } from './pglite-reopen.js';
import * as schema from './schema.js';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** Plain SQL executor used by pg-boss and the few raw queries. */
export interface SqlExecutor {
  /**
   * `name` makes it a prepared statement on PostgreSQL: planned once per pooled
   * connection, for a hot statement whose planning costs more than its run.
   */
  executeSql(text: string, values?: unknown[], options?: { name?: string }): Promise<{ rows: Record<string, unknown>[] }>;
}

const dialect = new PgDialect();

/**
 * Runs a statement built with drizzle's `sql` as a prepared statement named after
 * its text, so PostgreSQL parses it once per pooled connection: for hot statements
 * whose shape depends on the request (the ticket lists, one shape per set of filters).
 */
export async function executeNamed<Row>(executor: SqlExecutor, query: SQL): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  return (await executor.executeSql(text, params, { name })).rows as Row[];
}

/**
 * A drizzle prepared statement made once per database handle. Its name makes
 * PostgreSQL parse it once per pooled connection and, once its generic plan proves
 * as cheap as planning each call (after five calls), plan it once too: a statement
 * whose generic plan would guess (a list of ids, a LIMIT parameter) is planned on
 * every call, so lookups of one row get a statement of their own.
 */
export function preparedOnce<Statement>(prepare: (db: DbOrTx) => Statement): (db: DbOrTx) => Statement {
  const made = new WeakMap<DbOrTx, Statement>();
  return (db) => {
    let statement = made.get(db);
    if (!statement) {
      statement = prepare(db);
      made.set(db, statement);
    }
    return statement;
  };
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlExecutor;
  /** Connection string for processes that need their own pool (pg-boss on PostgreSQL). */
  url?: string;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The PostgreSQL pool's state (metrics); the embedded database has one connection and no pool. */
  pool?: () => { max: number; total: number; idle: number; waiting: number };
  /**
   * The embedded database on a folder: a consistent copy of its files into `target`
   * (embedded-snapshot.ts). While it is open, the process also answers the backups
   * that other processes request.
   */
  snapshot?(target: string): Promise<SnapshotInfo>;
  /**
   * Hears `NOTIFY channel` (`pg_notify`), which PostgreSQL and PGlite deliver when the
   * notifying transaction commits: a wake-up sent from inside a transaction arrives
   * only once its rows are visible. On PostgreSQL a connection of its own, opened
   * again after a loss (a notification sent meanwhile is lost: callers also poll).
   * Answers the function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; absent = embedded PGlite. */
  url?: string;
  /** PGlite data directory; absent = in memory (tests). */
  dataDir?: string;
  /** An in-memory PGlite starts as a copy of this dump (`dumpMigratedPglite`) instead of empty. */
  template?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 20) : openPglite(options);
}

// pg_trgm backs substring search; PostgreSQL ships it, PGlite loads it here.
const createPglite = ({ dataDir, template }: Pick<DatabaseOptions, 'dataDir' | 'template'>) =>
  PGlite.create({ ...(dataDir ? { dataDir } : {}), ...(template ? { loadDataDir: template } : {}), extensions: { pg_trgm } });

/**
 * A migrated, empty embedded database as a dump of its data directory: the tests
 * start each file's database from it (~0.7 s instead of ~1.8 s for creating and
 * migrating one).
 */
export async function dumpMigratedPglite(): Promise<Blob> {
  const client = await createPglite({});
  try {
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function openPglite({ dataDir, template }: DatabaseOptions): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // One process per folder: a second one exits naming the holder (DataDirLockedError).
  const lock = dataDir ? lockDataDir(dataDir) : null;
  let first: PGlite;
  try {
    first = await createPglite({ dataDir, template });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // On a folder, an instance that aborts (a full disk at a checkpoint) is replaced by opening the folder again.
  const pglite = dataDir ? reopeningPglite(first, dataDir, () => createPglite({ dataDir })) : { client: first, close: () => first.close() };
  const { client } = pglite;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  const snapshot = dataDir ? (target: string) => takeSnapshot(client, dataDir, target) : undefined;
  const stopAnswering = dataDir && snapshot ? serveSnapshotRequests(dataDir, snapshot) : () => undefined;
  return {
    kind: 'pglite',
    ...(snapshot ? { snapshot } : {}),
    db,
    sql: {
      async executeSql(text, values) {
        // pg-boss sends multi-statement scripts without parameters; only exec() runs those.
        if (!values || values.length === 0) {
          const results = await client.exec(text);
          return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
        }
        const result = await client.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      },
    },
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      stopAnswering();
      try {
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/** The advisory lock migrations run under on PostgreSQL (any constant of this install's own). */
const MIGRATION_LOCK = 0x61_74_65_6e; // "aten"

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  pool.on('connect', (client) => {
    // A client checked out for a transaction has no pool listener: when PostgreSQL ends its
    // connection (restart, failover) the 'error' event would be unhandled and end the process.
    // Its pending query fails (503 to the request) and the pool drops it on release.
    client.on('error', () => undefined);
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    url,
    sql: {
      async executeSql(text, values, options) {
        const result = await pool.query({ text, values: values as unknown[] | undefined, ...(options?.name ? { name: options.name } : {}) });
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    migrate: async () => {
      // Nodes started together (systemd at boot, compose) migrate one at a time, on one
      // connection holding the lock; the others then find nothing left to apply.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg({ client, schema }) as never, { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    listen: (channel, onNotify) => listenOnPostgres(url, channel, onNotify),
    close: () => pool.end(),
    pool: () => ({ max: poolSize, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

const LISTEN_RETRY_MS = 1000;

/** A connection of its own LISTENing on `channel`, opened again a second after a loss, until stopped. */
async function listenOnPostgres(url: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  let stopped = false;
  let current: pg.Client | null = null;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const client = new pg.Client({ connectionString: url });
    current = client;
    let retried = false;
    const retry = () => {
      if (retried || stopped) return;
      retried = true;
      client.end().catch(() => undefined);
      setTimeout(() => void connect(), LISTEN_RETRY_MS).unref();
    };
    client.on('notification', () => onNotify());
    client.on('error', retry);
    client.on('end', retry);
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch {
      retry();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    await current?.end().catch(() => undefined);
  };
}
