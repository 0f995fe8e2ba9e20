// Prints the server's layer matrix (which folder imports which, with counts) as the
// Markdown table docs/architecture.md shows: `node scripts/layer-matrix.mjs`.
// Production files only (tests, src/test and src/faults left out); "type" counts
// imports that are type-only. Reads dependency-cruiser's JSON with the project's rules.
import { execFileSync } from 'node:child_process';

const ORDER = ['platform', 'modules', 'inbound', 'channels', 'automation', 'outbound', 'app-services.ts', 'app.ts', 'app-routes.ts', 'main.ts', 'cli'];
const TESTS = /(\.test\.ts$|^apps\/server\/src\/(test|faults)\/)/;
const areaOf = (path) => {
  const rest = path.replace(/^apps\/server\/src\//, '');
  const first = rest.split('/')[0];
  return ORDER.includes(first) ? first : null;
};

const json = execFileSync('npx', ['depcruise', 'apps/server/src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const counts = new Map();
for (const module of JSON.parse(json).modules) {
  const from = areaOf(module.source);
  if (!from || TESTS.test(module.source)) continue;
  for (const dependency of module.dependencies) {
    const to = dependency.resolved && areaOf(dependency.resolved);
    if (!to || to === from) continue;
    const key = `${from}\u0000${to}`;
    const entry = counts.get(key) ?? { runtime: 0, type: 0 };
    entry[dependency.dependencyTypes.includes('type-only') ? 'type' : 'runtime'] += 1;
    counts.set(key, entry);
  }
}
const used = ORDER.filter((area) => [...counts.keys()].some((key) => key.split('\u0000').includes(area)));
const cell = (from, to) => {
  const entry = counts.get(`${from}\u0000${to}`);
  if (!entry) return from === to ? '·' : '';
  return entry.type > 0 ? `${entry.runtime} (+${entry.type} type)` : String(entry.runtime);
};
console.log(`| imports → | ${used.join(' | ')} |`);
console.log(`|---|${used.map(() => '---').join('|')}|`);
for (const from of used) console.log(`| **${from}** | ${used.map((to) => cell(from, to)).join(' | ')} |`);
