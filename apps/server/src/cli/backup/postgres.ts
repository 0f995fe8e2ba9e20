import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { appliedMigrationLevel, type MigrationLevel } from '../../platform/db/migrations.js';

/**
 * The PostgreSQL side of backups: `pg_dump` for the snapshot, `psql` for the restore
 * (PostgreSQL's own tools, which know every object type; docs/operations.md "Backups").
 */

export class PostgresToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresToolError';
  }
}

/** The URL without its password (which goes in PGPASSWORD: a command line is visible to every local user). */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

export interface Tool {
  path: string;
  major: number;
  version: string;
}

async function versionOf(file: string): Promise<Tool | null> {
  const child = spawn(file, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await Promise.race([once(child, 'exit'), once(child, 'error').then(() => [null])])) as [number | null];
  const match = /(\d+)(?:\.(\d+))?/.exec(output);
  if (code !== 0 || !match) return null;
  return { path: file, major: Number(match[1]), version: match[0] };
}

/** Candidates for a PostgreSQL client tool: `binDir`, Debian's versioned folders, then PATH. */
async function findTools(name: 'pg_dump' | 'psql', binDir?: string): Promise<Tool[]> {
  const files: string[] = [];
  if (binDir) files.push(path.join(binDir, name));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) for (const version of readdirSync(debian)) files.push(path.join(debian, version, 'bin', name));
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) files.push(path.join(dir, name));
  const tools: Tool[] = [];
  for (const file of new Set(files.filter((candidate) => existsSync(candidate)))) {
    const tool = await versionOf(file);
    if (tool) tools.push(tool);
  }
  return tools;
}

/**
 * The tool to use against a server of major version `serverMajor`, of those found: of that
 * version when there is one (a newer pg_dump writes settings an older server refuses on
 * restore), else the closest newer one; psql of any version at worst. A pg_dump older than
 * the server refuses to run: said here, with what to do.
 */
export function pickTool(tools: Tool[], name: 'pg_dump' | 'psql', serverMajor: number, serverVersion: string): Tool {
  const usable = tools.filter((tool) => tool.major >= serverMajor).sort((a, b) => a.major - b.major);
  const chosen = usable[0] ?? (name === 'psql' ? [...tools].sort((a, b) => b.major - a.major)[0] : undefined);
  if (chosen) return chosen;
  const found = tools.length > 0 ? `found ${tools.map((tool) => `${tool.path} ${tool.version}`).join(', ')}` : `no ${name} found`;
  throw new PostgresToolError(
    `The database runs PostgreSQL ${serverVersion}; ${name} must be version ${serverMajor} or newer (${found}). ` +
      `Install it (Debian: apt-get install postgresql-client-${serverMajor}) or name its folder with --pg-bin.`,
  );
}

async function chooseTool(name: 'pg_dump' | 'psql', serverMajor: number, serverVersion: string, binDir?: string): Promise<Tool> {
  return pickTool(await findTools(name, binDir), name, serverMajor, serverVersion);
}

export interface PostgresState {
  serverVersion: string;
  serverMajor: number;
  /** Tables in the database's own schemas (0: a new, empty database). */
  tables: number;
  /** Other client sessions on the database: who they are, for the refusal's message. */
  sessions: { application: string; client: string; count: number }[];
}

export async function inspectPostgres(url: string): Promise<PostgresState> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const version = await client.query<{ server_version: string; num: string }>(`select current_setting('server_version') as server_version, current_setting('server_version_num') as num`);
    const tables = await client.query<{ count: number }>(
      `select count(*)::int as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
          and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`,
    );
    const sessions = await client.query<{ application: string; client: string; count: number }>(
      `select coalesce(nullif(application_name, ''), 'no application name') as application,
              coalesce(host(client_addr), 'local socket') as client, count(*)::int as count
         from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
        group by 1, 2 order by 3 desc`,
    );
    const row = version.rows[0];
    return {
      serverVersion: row?.server_version.split(' ')[0] ?? 'unknown',
      serverMajor: Math.floor(Number(row?.num ?? 0) / 10_000),
      tables: tables.rows[0]?.count ?? 0,
      sessions: sessions.rows,
    };
  } finally {
    await client.end();
  }
}

/** Runs a tool to its end; rejects with the end of what it printed on stderr. */
async function run(tool: Tool, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(tool.path, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new PostgresToolError(`${path.basename(tool.path)} failed (exit ${code}): ${errors.trim()}`);
}

export interface PostgresDump {
  serverVersion: string;
  /** Taken in the dump's own snapshot. */
  migrations: MigrationLevel;
  snapshotAt: string;
  tool: string;
}

/**
 * Dumps the database into `file` (plain SQL, without owners or grants, so that it restores
 * into a database of another role). The snapshot is exported by a transaction of ours, which
 * reads the migration level in it and which pg_dump joins: the level is the dump's.
 */
export async function dumpPostgres(url: string, file: string, options: { binDir?: string } = {}): Promise<PostgresDump> {
  const state = await inspectPostgres(url);
  const tool = await chooseTool('pg_dump', state.serverMajor, state.serverVersion, options.binDir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read, read only');
    const exported = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const snapshotAt = new Date().toISOString();
    const migrations = await appliedMigrationLevel((text) => client.query(text));
    const { dbname, env } = connection(url);
    await run(tool, ['--format=plain', '--no-owner', '--no-privileges', `--snapshot=${exported.rows[0]?.snapshot}`, `--file=${file}`, `--dbname=${dbname}`], env);
    await client.query('commit');
    return { serverVersion: state.serverVersion, migrations, snapshotAt, tool: `${tool.path} ${tool.version}` };
  } finally {
    await client.end();
  }
}

/**
 * What a restore over an existing database runs first, in the restore's transaction: drops
 * Atende's schemas (pg-boss's, drizzle's, and public, which is made again with its owner and
 * grants) so that nothing of the replaced data, nor a table of a later migration, remains.
 */
const REPLACE_EXISTING = `
DROP SCHEMA IF EXISTS pgboss CASCADE;
DROP SCHEMA IF EXISTS drizzle CASCADE;
DO $restore$
DECLARE
  previous_owner regrole;
  previous_acl aclitem[];
  grant_row record;
BEGIN
  SELECT nspowner::regrole, nspacl INTO previous_owner, previous_acl FROM pg_namespace WHERE nspname = 'public';
  DROP SCHEMA IF EXISTS public CASCADE;
  CREATE SCHEMA public;
  IF previous_owner IS NOT NULL THEN
    BEGIN
      EXECUTE format('ALTER SCHEMA public OWNER TO %s', previous_owner);
    EXCEPTION WHEN insufficient_privilege THEN
      NULL; -- kept by the restoring role
    END;
  END IF;
  FOR grant_row IN SELECT grantee, privilege_type FROM aclexplode(previous_acl) LOOP
    EXECUTE format('GRANT %s ON SCHEMA public TO %s', grant_row.privilege_type,
      CASE WHEN grant_row.grantee = 0 THEN 'PUBLIC' ELSE grant_row.grantee::regrole::text END);
  END LOOP;
END
$restore$;
`;

/**
 * Restores a plain dump into the database in ONE transaction: psql reads `BEGIN`, the
 * replacement of the existing schemas when asked, the dump, then `COMMIT` only once `sql`
 * ended without error (its checksum verified as it was read). Any failure (an SQL error, a
 * damaged dump, this process killed) leaves the database as it was.
 */
export async function restorePostgres(url: string, sql: AsyncIterable<Buffer>, options: { replace: boolean; serverMajor: number; serverVersion: string; binDir?: string }): Promise<void> {
  const tool = await chooseTool('psql', options.serverMajor, options.serverVersion, options.binDir);
  const { dbname, env } = connection(url);
  const child = spawn(tool.path, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-o', '/dev/null', `--dbname=${dbname}`], { env, stdio: ['pipe', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  // psql stops at the first error and closes its input; what was being written then is moot.
  child.stdin.on('error', () => undefined);
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const write = async (chunk: Buffer | string) => {
    if (child.exitCode !== null || child.stdin.destroyed) return;
    // A write psql no longer reads (it stopped at an error) fails with EPIPE: its exit code tells why.
    if (!child.stdin.write(chunk)) await Promise.race([once(child.stdin, 'drain').catch(() => undefined), exited]);
  };
  try {
    await write(`BEGIN;\n${options.replace ? REPLACE_EXISTING : ''}`);
    for await (const chunk of sql) {
      if (child.exitCode !== null || child.stdin.destroyed) break;
      await write(chunk);
    }
  } catch (error) {
    // Killed before COMMIT: PostgreSQL rolls the transaction back when the connection drops.
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  // The dump ends with its own statements complete; COMMIT on a line of its own.
  if (child.exitCode === null) await write('\nCOMMIT;\n');
  child.stdin.end();
  const [code] = await exited;
  if (code !== 0) throw new PostgresToolError(`psql failed (exit ${code}); nothing was restored: ${errors.trim()}`);
}

/** Fresh statistics for the planner: a dump carries none. */
export async function analyzePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
