// Sums the `FAULTS {...}` lines the fault suite prints (one per test) from the log
// given as the first argument, prints the totals for CI, and fails when a test
// reported a lost or duplicated message, a stored message whose live event never
// reached the agent's socket it watches (unannounced), or when no test reported at all.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/fault-totals.mjs <vitest log>\n');
  process.exit(2);
}
const reports = readFileSync(file, 'utf8')
  .split('\n')
  .map((line) => line.match(/FAULTS (\{.*\})/)?.[1])
  .filter(Boolean)
  .map((json) => JSON.parse(json));

const totals = { tests: reports.length, faultsInjected: 0, messagesSent: 0, stored: 0, lost: 0, duplicated: 0, unannounced: 0 };
for (const report of reports) {
  for (const key of ['faultsInjected', 'messagesSent', 'stored', 'lost', 'duplicated', 'unannounced']) totals[key] += Number(report[key] ?? 0);
  const announced = report.unannounced === undefined ? '' : `, ${report.unannounced} unannounced`;
  process.stdout.write(
    `  ${report.fault}: ${report.faultsInjected} fault(s), ${report.messagesSent} sent, ${report.stored} stored, ${report.lost} lost, ${report.duplicated} duplicated${announced}\n`,
  );
}
process.stdout.write(
  `fault suite: ${totals.faultsInjected} faults injected, ${totals.messagesSent} messages sent (redeliveries included), ${totals.stored} stored, lost: ${totals.lost}, duplicated: ${totals.duplicated}, unannounced: ${totals.unannounced}\n`,
);
if (totals.tests === 0 || totals.lost > 0 || totals.duplicated > 0 || totals.unannounced > 0) process.exit(1);
