import pg from 'pg';

export type SourceRow = Record<string, unknown>;

/**
 * The whaticket database, read only: tables page by page in key order (keyset
 * pagination: each page starts after the last key of the one before, so memory stays
 * one page whatever the table's size, and a page costs an index range scan).
 */
export class Source {
  private readonly pool: pg.Pool;
  private readonly present = new Map<string, Set<string>>();

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'atende-import-whaticket' });
  }

  async query<Row extends SourceRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query<Row>(text, values)).rows;
  }

  /** The tables and their columns, read once: a column a table lacks (an older v6) is read as null. */
  async load(): Promise<void> {
    const found = await this.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns where table_schema = current_schema()`,
    );
    for (const row of found) {
      let columns = this.present.get(row.table_name);
      if (!columns) this.present.set(row.table_name, (columns = new Set()));
      columns.add(row.column_name);
    }
    if (!this.present.has('Companies') || !this.present.has('Tickets') || !this.present.has('Messages')) {
      throw new Error('the source database has no whaticket tables (Companies, Tickets, Messages) in its current schema');
    }
  }

  hasTable(table: string): boolean {
    return this.present.has(table);
  }

  /** `"column"` when the table has it, else `null::type as "column"`. */
  column(table: string, column: string, type = 'text', alias = 't'): string {
    return this.present.get(table)?.has(column) ? `${alias}."${column}"` : `null::${type} as "${column}"`;
  }

  async count(table: string): Promise<number> {
    if (!this.hasTable(table)) return 0;
    const [row] = await this.query<{ n: string }>(`select count(*) as n from "${table}"`);
    return Number(row?.n ?? 0);
  }

  /**
   * Pages of `select <columns> from "<table>" t <joins>` in the order of `key` (columns
   * of `t` that identify a row), `size` rows at a time.
   */
  async *pages<Row extends SourceRow>(table: string, options: { columns: string; key: string[]; joins?: string; size: number; where?: string }): AsyncGenerator<Row[]> {
    if (!this.hasTable(table)) return;
    const keyList = options.key.map((column) => `t."${column}"`).join(', ');
    let after: unknown[] | null = null;
    for (;;) {
      const conditions: string[] = [];
      if (options.where) conditions.push(`(${options.where})`);
      if (after) conditions.push(`(${keyList}) > (${options.key.map((_, i) => `$${i + 2}`).join(', ')})`);
      const keys = options.key.map((column) => `t."${column}" as "k_${column}"`).join(', ');
      const text = `select ${keys}, ${options.columns} from "${table}" t ${options.joins ?? ''}
        ${conditions.length > 0 ? `where ${conditions.join(' and ')}` : ''}
        order by ${keyList} limit $1`;
      const page: Row[] = await this.query<Row>(text, [options.size, ...(after ?? [])]);
      if (page.length === 0) return;
      yield page;
      if (page.length < options.size) return;
      const last: Row = page[page.length - 1]!;
      after = options.key.map((column): unknown => last[`k_${column}`]);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
