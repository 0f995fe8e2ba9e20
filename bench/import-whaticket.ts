import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { formatReport, importWhaticket } from '../apps/server/src/cli/import-whaticket/plan.js';
import { createWhaticketDatabase, fillWhaticket } from '../apps/server/src/cli/import-whaticket/whaticket-source.js';
import { openDatabase } from '../apps/server/src/platform/db/client.js';
import { createLocalMediaStore } from '../apps/server/src/platform/storage/local-media-store.js';

/**
 * `npm run bench:import-whaticket`: the whaticket importer's figure (issue 32). Makes a
 * whaticket v6 database from its schema dump with `--tickets` tickets and `--messages`
 * messages (two companies, every other kind a few rows each), imports it into a fresh
 * Atende database on PostgreSQL (`atende_bench_import` on BENCH_PG_URL), and prints the
 * time, the rate and the process's peak memory (maxRSS); then a second run, which adds
 * nothing. Writes bench/results/import-whaticket-<date>.json.
 */
const { values } = parseArgs({
  options: {
    tickets: { type: 'string', default: '50000' },
    messages: { type: 'string', default: '500000' },
  },
});
const tickets = Number(values.tickets);
const messages = Number(values.messages);
const companies = 2;
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const targetName = 'atende_bench_import';

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(query);
  await client.end();
}

const mb = (kb: number) => Math.round(kb / 1024);

const source = await createWhaticketDatabase();
const publicDir = mkdtempSync(path.join(tmpdir(), 'whaticket-public-'));
const mediaRoot = mkdtempSync(path.join(tmpdir(), 'atende-media-'));
try {
  let started = Date.now();
  await fillWhaticket(source.pool, { companies, tickets: tickets / companies, messagesPerTicket: Math.max(1, Math.round(messages / tickets)), publicDir });
  await source.pool.query('analyze');
  const generated = (Date.now() - started) / 1000;
  console.log(`whaticket database generated in ${generated.toFixed(1)} s`);

  await admin(`drop database if exists ${targetName} with (force)`);
  await admin(`create database ${targetName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${targetName}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  await database.migrate();
  try {
    const rssBefore = process.resourceUsage().maxRSS;
    started = Date.now();
    const report = await importWhaticket({ from: source.url, database, mediaStore: createLocalMediaStore(mediaRoot), mediaFrom: publicDir, progress: process.stderr });
    const seconds = (Date.now() - started) / 1000;
    const peakKb = process.resourceUsage().maxRSS;
    process.stdout.write(formatReport(report));
    const imported = report.tables.reduce((sum, t) => sum + (t.target === '' ? 0 : t.added), 0);
    const messagesLine = report.tables.find((t) => t.table === 'Messages');

    started = Date.now();
    const again = await importWhaticket({ from: source.url, database, mediaStore: createLocalMediaStore(mediaRoot), mediaFrom: publicDir, progress: null });
    const secondSeconds = (Date.now() - started) / 1000;
    const addedAgain = again.tables.reduce((sum, t) => sum + (t.target === '' ? 0 : t.added), 0);

    const result = {
      date: new Date().toISOString(),
      tickets,
      messages: messagesLine?.source ?? 0,
      rows: imported,
      seconds,
      rowsPerSecond: Math.round(imported / seconds),
      messagesPerSecond: Math.round((messagesLine?.added ?? 0) / seconds),
      peakRssMb: mb(peakKb),
      rssBeforeImportMb: mb(rssBefore),
      secondRunSeconds: secondSeconds,
      secondRunAdded: addedAgain,
    };
    console.log(JSON.stringify(result, null, 2));
    const folder = path.join(import.meta.dirname, 'results');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `import-whaticket-${result.date.slice(0, 10)}.json`), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await database.close();
    await admin(`drop database if exists ${targetName} with (force)`);
  }
} finally {
  await source.drop();
  rmSync(publicDir, { recursive: true, force: true });
  rmSync(mediaRoot, { recursive: true, force: true });
}
