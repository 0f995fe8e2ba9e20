import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.js';
import { openTestDatabase } from '../../test/test-database.js';

/**
 * Migration 0026 turns the due dates stored as instants into calendar dates
 * (DECISIONS 15): the day each instant falls on in its company's zone, except an
 * instant at midnight UTC, which was a date written alone.
 */
const MIGRATION = '0026_calendar_due_dates';
const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/** The migrations folder as it was before 0026. */
function foldersBefore(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-before-0026-'));
  cpSync(folder, dir, { recursive: true });
  rmSync(path.join(dir, `${MIGRATION}.sql`));
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < MIGRATION);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

let database: Database;
let before: string;

beforeAll(async () => {
  database = await openTestDatabase({ migrate: false });
  before = foldersBefore();
  if (database.kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder: before });
  else await migratePg(database.db as never, { migrationsFolder: before });
}, 120_000);

afterAll(async () => {
  rmSync(before, { recursive: true, force: true });
  await database?.close();
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe('migration 0026: due dates as calendar dates', () => {
  it("converts companies' and invoices' due dates to the day in the company's zone, keeps dates written alone, and keeps invoices matching", async () => {
    const [plan] = await rows<{ id: number }>(sql`insert into plans (name) values ('Plano 0026') returning id`);
    const company = async (name: string, timezone: string, due: string | null, trial: string | null = null) => {
      const [row] = await rows<{ id: number }>(sql`
        insert into companies (name, plan_id, timezone, due_date, trial_expiration)
        values (${name}, ${plan!.id}, ${timezone}, ${due}::timestamptz, ${trial}::timestamptz) returning id`);
      return row!.id;
    };
    // 23:59:59.999 on 1 Nov in São Paulo (what the old company form stored for "01/11").
    const saoPaulo = await company('SP', 'America/Sao_Paulo', '2026-11-02T02:59:59.999Z', '2026-11-04T17:20:00Z');
    // A date written alone: midnight UTC.
    const dateOnly = await company('Date only', 'America/Sao_Paulo', '2026-11-01T00:00:00Z');
    // 00:30 on 2 Nov in Tokyo.
    const tokyo = await company('Tokyo', 'Asia/Tokyo', '2026-11-01T15:30:00Z');
    const noExpiry = await company('No expiry', 'America/Sao_Paulo', '2999-12-31T00:00:00Z');
    const none = await company('None', 'America/Sao_Paulo', null);
    await database.db.execute(sql`
      insert into invoices (company_id, detail, value_cents, due_date, status) values
        (${saoPaulo}, 'SP', 100, '2026-11-02T02:59:59.999Z', 'open'),
        (${tokyo}, 'Tokyo open', 100, '2026-11-01T15:30:00Z', 'open'),
        (${tokyo}, 'Tokyo paid the same day', 100, '2026-11-01T20:00:00Z', 'paid')`);

    await database.migrate();

    const companies = await rows<{ id: number; due_date: string | null; trial_expiration: string | null }>(
      sql`select id, due_date::text as due_date, trial_expiration::text as trial_expiration from companies where plan_id = ${plan!.id}`,
    );
    const due = (id: number) => companies.find((row) => row.id === id);
    expect(due(saoPaulo)).toMatchObject({ due_date: '2026-11-01', trial_expiration: '2026-11-04' });
    expect(due(dateOnly)?.due_date).toBe('2026-11-01');
    expect(due(tokyo)?.due_date).toBe('2026-11-02');
    expect(due(noExpiry)?.due_date).toBe('2999-12-31');
    expect(due(none)?.due_date).toBeNull();

    const invoices = await rows<{ company_id: number; detail: string; due_date: string; matches: boolean }>(sql`
      select i.company_id, i.detail, i.due_date::text as due_date, i.due_date = c.due_date as matches
      from invoices i join companies c on c.id = i.company_id where c.plan_id = ${plan!.id} order by i.id`);
    // Two invoices of Tokyo on one day: the paid one stays.
    expect(invoices).toEqual([
      { company_id: saoPaulo, detail: 'SP', due_date: '2026-11-01', matches: true },
      { company_id: tokyo, detail: 'Tokyo paid the same day', due_date: '2026-11-02', matches: true },
    ]);
    const [type] = await rows<{ data_type: string }>(sql`select data_type from information_schema.columns where table_name = 'invoices' and column_name = 'due_date'`);
    expect(type?.data_type).toBe('date');
  });
});
