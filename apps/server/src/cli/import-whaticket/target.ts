import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../platform/db/client.js';

/** A row for one Atende table, keyed by its SQL column names (`company_id`, ...). */
export type TargetRow = Record<string, unknown>;

/** Where a source row went: the Atende id and the Atende company (null for platform rows). */
export interface Mapped {
  id: number;
  companyId: number | null;
}

async function rows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/**
 * The id map (`import_id_map`): which Atende row each whaticket row became. A dry run
 * adds what it would import to `planned` (negative ids), so the rows that refer to them
 * are counted as they would be in a real run.
 */
export class IdMap {
  private readonly planned = new Map<string, Map<string, Mapped>>();
  private nextPlanned = -1;

  constructor(
    private readonly database: Database,
    readonly source: string,
    readonly dryRun: boolean,
  ) {}

  async lookup(table: string, sourceIds: readonly (string | number | null | undefined)[]): Promise<Map<string, Mapped>> {
    const ids = [...new Set(sourceIds.filter((id): id is string | number => id !== null && id !== undefined).map(String))];
    const found = new Map<string, Mapped>();
    if (ids.length === 0) return found;
    // One index probe per id (a lateral subquery with a limit): with `= any(...)` or a join, the
    // planner scans the whole map once it is large, for every page.
    const stored = await rows<{ source_id: string; target_id: string | number; company_id: number | null }>(
      this.database.db,
      sql`select m.source_id, m.target_id, m.company_id from unnest(${sql.param(ids)}::text[]) as k(id),
          lateral (select source_id, target_id, company_id from import_id_map
            where source = ${this.source} and source_table = ${table} and source_id = k.id limit 1) as m`,
    );
    for (const row of stored) found.set(row.source_id, { id: Number(row.target_id), companyId: row.company_id === null ? null : Number(row.company_id) });
    const planned = this.planned.get(table);
    if (planned) for (const id of ids) if (!found.has(id) && planned.has(id)) found.set(id, planned.get(id)!);
    return found;
  }

  /** Ids for new rows of an Atende table: taken from its identity sequence (negative placeholders in a dry run). */
  async allocate(table: PgTable, count: number): Promise<number[]> {
    if (count === 0) return [];
    if (this.dryRun) return Array.from({ length: count }, () => this.nextPlanned--);
    const allocated = await rows<{ id: string | number }>(
      this.database.db,
      sql`select nextval(pg_get_serial_sequence(${`"${getTableName(table)}"`}, 'id'))::bigint as id from generate_series(1, ${count}::int)`,
    );
    return allocated.map((row) => Number(row.id));
  }

  /** Records where rows went: in the transaction that wrote them, or in memory in a dry run. */
  async record(tx: DbOrTx | null, table: string, entries: { sourceId: string; id: number; companyId: number | null }[]): Promise<void> {
    if (entries.length === 0) return;
    if (this.dryRun || !tx) {
      let planned = this.planned.get(table);
      if (!planned) this.planned.set(table, (planned = new Map()));
      for (const entry of entries) planned.set(entry.sourceId, { id: entry.id, companyId: entry.companyId });
      return;
    }
    const payload = JSON.stringify(entries.map((entry) => ({ s: entry.sourceId, t: entry.id, c: entry.companyId })));
    await tx.execute(sql`insert into import_id_map (source, source_table, source_id, target_id, company_id)
      select ${this.source}, ${table}, r.s, r.t, r.c from jsonb_to_recordset(${payload}::jsonb) as r(s text, t bigint, c int)
      on conflict do nothing`);
  }

  /** How many rows of a whaticket table this source has in Atende. */
  async count(table: string): Promise<number> {
    const [row] = await rows<{ n: string | number }>(
      this.database.db,
      sql`select count(*) as n from import_id_map where source = ${this.source} and source_table = ${table}`,
    );
    return Number(row?.n ?? 0) + (this.planned.get(table)?.size ?? 0);
  }
}

/**
 * Inserts rows into an Atende table in one statement, whatever their number: the rows go
 * as one JSON parameter read by `jsonb_to_recordset` with the table's own column types,
 * and their ids (allocated beforehand) are written as given.
 */
export async function insertRows(tx: DbOrTx, table: PgTable, values: TargetRow[], options: { onConflict?: SQL } = {}): Promise<void> {
  if (values.length === 0) return;
  const columns = Object.values(getTableColumns(table));
  const names = new Set(values.flatMap((row) => Object.keys(row)));
  const used = columns.filter((column) => names.has(column.name));
  const unknown = [...names].filter((name) => !columns.some((column) => column.name === name));
  if (unknown.length > 0) throw new Error(`${getTableName(table)} has no column ${unknown.join(', ')}`);
  const list = sql.raw(used.map((column) => `"${column.name}"`).join(', '));
  const types = sql.raw(used.map((column) => `"${column.name}" ${column.getSQLType()}`).join(', '));
  const overriding = used.some((column) => column.name === 'id') ? sql.raw(' overriding system value') : sql.raw('');
  await tx.execute(sql`insert into ${table} (${list})${overriding}
    select ${list} from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as r(${types})
    ${options.onConflict ?? sql``}`);
}

export async function queryRows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  return rows<Row>(db, query);
}
