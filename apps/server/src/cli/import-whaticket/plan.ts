import { runImport, type ImportOptions, type ImportReport } from './run.js';
import { accountSteps, queueLinksFinisher } from './steps-accounts.js';
import { deskFinishers, deskSteps } from './steps-desk.js';
import { moreFinishers, moreSteps } from './steps-more.js';

/** Whaticket tables that have no Atende counterpart, and why (docs/migrating-from-whaticket.md says the same). */
const NOT_IMPORTED = [
  { table: 'Baileys', reason: "WhatsApp's own contact and chat cache: rebuilt by the connection once paired" },
  { table: 'BaileysChats', reason: "WhatsApp's own chat cache: rebuilt by the connection once paired" },
  { table: 'BaileysMessages', reason: "WhatsApp's raw message cache: the messages themselves come over from Messages" },
  { table: 'TicketTraking', reason: "whaticket's timing records: Atende's dashboard builds its own cycles from the imported tickets, messages and ratings" },
  { table: 'TicketUsers', reason: 'Atende gives a ticket one agent (Tickets.userId comes over)' },
  { table: 'Stickers', reason: 'no saved-sticker gallery in Atende (stickers in messages come over as images)' },
  { table: 'Subscriptions', reason: "a payment provider's subscription state: Atende bills with its own invoices" },
  { table: 'HolidayPeriods', reason: 'no holiday periods in Atende (use business hours)' },
];

/** `runImport` with every whaticket table Atende has a place for, in dependency order. */
export function importWhaticket(options: ImportOptions): Promise<ImportReport> {
  return runImport(options, {
    steps: [...accountSteps, ...deskSteps, ...moreSteps],
    finishers: [queueLinksFinisher, ...deskFinishers, ...moreFinishers],
    notImported: NOT_IMPORTED,
  });
}

/** The final report: per table, rows in whaticket and in Atende, what this run added, and what was skipped or changed, with why. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  lines.push(
    `${report.dryRun ? 'Dry run (nothing written)' : 'Import'} from ${report.source}: ${report.complete ? 'complete' : 'stopped early: run it again to resume'} in ${report.seconds.toFixed(1)} s`,
  );
  const header = ['whaticket table', 'rows', report.dryRun ? 'would be in Atende' : 'in Atende', report.dryRun ? 'would add' : 'added now', 'skipped', 'seconds', 'Atende table'];
  const rows = report.tables.map((t) => [
    t.table,
    String(t.source),
    String(t.imported),
    String(t.added),
    String([...t.skipped.values()].reduce((a, b) => a + b, 0)),
    t.seconds.toFixed(1),
    t.target,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  lines.push(format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(format));
  const details = report.tables.filter((t) => t.skipped.size > 0 || t.notes.size > 0);
  if (details.length > 0) {
    lines.push('', 'Skipped (not imported) and changed on the way:');
    for (const t of details) {
      for (const [reason, n] of t.skipped) lines.push(`  ${t.table}: ${n} skipped: ${reason}`);
      for (const [note, n] of t.notes) lines.push(`  ${t.table}: ${n}: ${note}`);
    }
  }
  if (report.notImported.length > 0) {
    lines.push('', 'Not imported (no Atende counterpart):');
    for (const t of report.notImported) lines.push(`  ${t.table} (${t.rows} rows): ${t.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
