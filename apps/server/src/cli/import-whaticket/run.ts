import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Database, DbOrTx } from '../../platform/db/client.js';
import { MediaCopier } from './media.js';
import { Progress, type ProgressOutput } from './progress.js';
import { Source, type SourceRow } from './source.js';
import { IdMap, insertRows, type TargetRow } from './target.js';
import type { MediaStore } from '../../platform/storage/media-store.js';

/** What one source row became. */
export type Outcome =
  /** A new Atende row (its `id` allocated by the step, or none for a link table). */
  | { kind: 'insert'; sourceId: string; companyId: number | null; row: TargetRow; note?: string }
  /** An Atende row that already stands for it (a plan of the same name, a contact of the same number). */
  | { kind: 'match'; sourceId: string; companyId: number | null; id: number; note: string }
  | { kind: 'skip'; sourceId: string; reason: string };

export interface ImportContext {
  readonly source: Source;
  readonly map: IdMap;
  readonly media: MediaCopier;
  readonly database: Database;
  readonly dryRun: boolean;
  /** Seals the API keys and credentials of prompts and integrations (absent: those are skipped). */
  readonly secrets?: SecretBox;
  /** When the run started: what "now" is for states that depend on time (a schedule already due). */
  readonly startedAt: Date;
  /**
   * The companies among these still hidden (being imported): nothing can have reached them
   * but the import, so a page of theirs needs no look-up of rows Atende received itself.
   */
  hidden(companyIds: Iterable<number>): Promise<Set<number>>;
}

/**
 * One whaticket table and how its rows become Atende rows. `prepare` gets the rows not
 * imported yet, a page at a time, and answers each one's outcome; `write` stores the
 * inserts (by default one multi-row insert into `into`).
 */
export interface Step<Row extends SourceRow = SourceRow> {
  table: string;
  /** The Atende table(s) it fills, for the report. */
  target: string;
  into?: PgTable;
  columns: (source: Source) => string;
  joins?: string;
  key?: string[];
  /** The id recorded in the map; default the key's value(s) joined by ':'. */
  sourceId?: (row: Row) => string;
  pageSize?: number;
  prepare(rows: Row[], context: ImportContext): Promise<Outcome[]>;
  write?(tx: DbOrTx, inserts: Extract<Outcome, { kind: 'insert' }>[], context: ImportContext): Promise<void>;
}

/** What the importer does after the tables (quotes of messages, sessions, visibility), with its own report line. */
export interface Finisher {
  name: string;
  run(context: ImportContext, report: TableReport): Promise<void>;
}

interface TableReport {
  table: string;
  target: string;
  /** Rows in whaticket. */
  source: number;
  /** Rows of this table this source has in Atende after the run (imported now or before). */
  imported: number;
  /** Imported by this run. */
  added: number;
  /** Already imported by an earlier run. */
  earlier: number;
  skipped: Map<string, number>;
  notes: Map<string, number>;
  seconds: number;
}

export interface ImportReport {
  source: string;
  dryRun: boolean;
  /** False when the run stopped early (`stopAfterPages`): companies stay hidden until a run completes. */
  complete: boolean;
  seconds: number;
  tables: TableReport[];
  /** Whaticket tables that have no Atende counterpart, with why. */
  notImported: { table: string; rows: number; reason: string }[];
}

export interface ImportOptions {
  /** postgres:// URL of the whaticket database. */
  from: string;
  database: Database;
  /** Where Atende keeps media (MEDIA_STORAGE: DATA_DIR/media or a bucket). */
  mediaStore: MediaStore;
  /** Whaticket's backend/public folder; without it no file is copied (each media message is reported). */
  mediaFrom?: string;
  dryRun?: boolean;
  /** Rows per page (default 1000; messages twice that). */
  pageSize?: number;
  /** Stop after this many pages were written, as a killed run would (tests of resuming). */
  stopAfterPages?: number;
  progress?: ProgressOutput | null;
  /** Names the source in the id map; default: its host, port and database. */
  sourceName?: string;
  /** Atende's secret box (ENCRYPTION_KEY), which seals the keys of imported prompts and integrations. */
  secrets?: SecretBox;
}

class StoppedEarly extends Error {
  constructor() {
    super('stopped early (stopAfterPages)');
  }
}

function sourceNameOf(url: string): string {
  const parsed = new URL(url);
  return `whaticket:${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

function bump(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

function emptyReport(table: string, target: string, source: number): TableReport {
  return { table, target, source, imported: 0, added: 0, earlier: 0, skipped: new Map(), notes: new Map(), seconds: 0 };
}

/**
 * Copies a whaticket v6 database into Atende (issue 32): every step of `steps`, a page
 * at a time, each page written with its id-map rows in one transaction, so a run killed
 * at any point resumes where it stopped and a second run adds only what is new. The
 * companies it creates stay hidden (`companies.importing`) until a run completes.
 */
export async function runImport(
  options: ImportOptions,
  plan: { steps: Step[]; finishers: Finisher[]; notImported: { table: string; reason: string }[] },
): Promise<ImportReport> {
  const source = new Source(options.from);
  const dryRun = options.dryRun ?? false;
  const sourceName = options.sourceName ?? sourceNameOf(options.from);
  const map = new IdMap(options.database, sourceName, dryRun);
  const hiddenCache = new Map<number, boolean>();
  const context: ImportContext = {
    source,
    map,
    media: new MediaCopier(options.mediaFrom, options.mediaStore, dryRun),
    database: options.database,
    dryRun,
    secrets: options.secrets,
    startedAt: new Date(),
    hidden: async (companyIds) => {
      const unknown = [...new Set(companyIds)].filter((id) => !hiddenCache.has(id));
      if (unknown.length > 0) {
        const rows = (await options.database.db.execute(sql`select id, importing from companies where id = any(${sql.param(unknown)}::int[])`)) as unknown as {
          rows: { id: number; importing: boolean }[];
        };
        for (const id of unknown) hiddenCache.set(id, dryRun && id < 0);
        for (const row of rows.rows) hiddenCache.set(Number(row.id), row.importing);
      }
      return new Set([...companyIds].filter((id) => hiddenCache.get(id)));
    },
  };
  const pageSize = options.pageSize ?? 1000;
  let pagesWritten = 0;
  try {
    await source.load();
    const counts = new Map<string, number>();
    for (const step of plan.steps) counts.set(step.table, await source.count(step.table));
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const progress = new Progress(total, options.progress ?? null);
    const tables: TableReport[] = [];
    let complete = true;

    try {
      for (const step of plan.steps) {
        const report = emptyReport(step.table, step.target, counts.get(step.table) ?? 0);
        const stepStarted = Date.now();
        tables.push(report);
        progress.start(step.table);
        const key = step.key ?? ['id'];
        const idOf = step.sourceId ?? ((row: SourceRow) => key.map((column) => String(row[`k_${column}`])).join(':'));
        const pages = source.pages(step.table, { columns: step.columns(source), joins: step.joins, key, size: step.pageSize ?? pageSize });
        for await (const page of pages) {
          const known = await map.lookup(step.table, page.map(idOf));
          const fresh = page.filter((row) => !known.has(idOf(row)));
          report.earlier += page.length - fresh.length;
          const outcomes = fresh.length > 0 ? await step.prepare(fresh, context) : [];
          const inserts = outcomes.filter((o): o is Extract<Outcome, { kind: 'insert' }> => o.kind === 'insert');
          const matches = outcomes.filter((o): o is Extract<Outcome, { kind: 'match' }> => o.kind === 'match');
          const entries = [
            ...inserts.map((o) => ({ sourceId: o.sourceId, id: Number(o.row.id ?? 0), companyId: o.companyId })),
            ...matches.map((o) => ({ sourceId: o.sourceId, id: o.id, companyId: o.companyId })),
          ];
          if (dryRun) {
            await map.record(null, step.table, entries);
          } else if (entries.length > 0) {
            await options.database.db.transaction(async (tx) => {
              if (step.write) await step.write(tx, inserts, context);
              else if (step.into) await insertRows(tx, step.into, inserts.map((o) => o.row));
              await map.record(tx, step.table, entries);
            });
          }
          for (const outcome of outcomes) {
            if (outcome.kind === 'skip') bump(report.skipped, outcome.reason);
            else {
              report.added += 1;
              const note = outcome.note;
              if (note) bump(report.notes, note);
            }
          }
          progress.advance(page.length);
          pagesWritten += 1;
          if (options.stopAfterPages !== undefined && pagesWritten >= options.stopAfterPages) throw new StoppedEarly();
        }
        report.imported = await map.count(step.table);
        report.seconds = (Date.now() - stepStarted) / 1000;
      }
      for (const finisher of plan.finishers) {
        const report = emptyReport(finisher.name, '', 0);
        const finisherStarted = Date.now();
        await finisher.run(context, report);
        report.seconds = (Date.now() - finisherStarted) / 1000;
        tables.push(report);
      }
      if (!dryRun) await revealCompanies(options.database, map);
    } catch (error) {
      if (!(error instanceof StoppedEarly)) throw error;
      complete = false;
    }
    progress.finish();

    const notImported: ImportReport['notImported'] = [];
    for (const entry of plan.notImported) {
      const rows = await source.count(entry.table);
      if (rows > 0 || source.hasTable(entry.table)) notImported.push({ ...entry, rows });
    }
    return { source: sourceName, dryRun, complete, seconds: progress.elapsedSeconds(), tables, notImported };
  } finally {
    await source.close();
  }
}

/** A completed run makes the companies it created visible (and their users able to sign in). */
async function revealCompanies(database: Database, map: IdMap): Promise<void> {
  await database.db.execute(sql`update companies set importing = false, updated_at = now()
    where importing and id in (select target_id from import_id_map where source = ${map.source} and source_table = 'Companies')`);
}

