// Fails when the drizzle schema and the committed migrations disagree: it
// generates into a copy of the migrations folder and looks for a new file.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'atende-migrations-'));
try {
  cpSync(path.join(root, 'drizzle'), path.join(work, 'drizzle'), { recursive: true });
  const config = path.join(work, 'drizzle.config.mjs');
  writeFileSync(
    config,
    // drizzle-kit prefixes './' to paths, so they must be relative to the working directory.
    `export default { dialect: 'postgresql', schema: './src/platform/db/schema.ts', out: ${JSON.stringify(path.relative(root, path.join(work, 'drizzle')))} };\n`,
  );
  const before = readdirSync(path.join(work, 'drizzle')).filter((f) => f.endsWith('.sql'));
  const output = execFileSync('npx', ['drizzle-kit', 'generate', '--config', config], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  const after = readdirSync(path.join(work, 'drizzle')).filter((f) => f.endsWith('.sql'));
  const added = after.filter((f) => !before.includes(f));
  // drizzle-kit can fail and still exit 0: only its explicit answer counts as agreement.
  if (added.length === 0 && !/No schema changes/i.test(output)) {
    console.error(`drizzle-kit did not confirm the schema:\n${output}`);
    process.exit(1);
  }
  if (added.length > 0) {
    console.error(`Schema and migrations disagree: drizzle-kit would generate ${added.join(', ')}. Run npm run db:generate -w @atende/server.`);
    process.exit(1);
  }
  console.log(`schema and migrations agree (${before.length} migration${before.length === 1 ? '' : 's'})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
