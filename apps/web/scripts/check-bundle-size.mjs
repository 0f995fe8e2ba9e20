// Bundle budget: the JavaScript a first visit downloads (the entry chunk and its
// static imports, as listed in index.html) must stay under 175 kB gzipped.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 175 * 1024;
const dist = path.resolve(import.meta.dirname, '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1]);
if (initial.length === 0) {
  console.error('No script found in dist/index.html');
  process.exit(1);
}
let total = 0;
for (const file of initial) {
  const size = gzipSync(readFileSync(path.join(dist, file.replace(/^\//, '')))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} kB  ${file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} kB  initial JavaScript, gzipped (budget ${BUDGET / 1024} kB)`);
if (total > BUDGET) {
  console.error('Over the bundle budget: lazy-load heavy screens.');
  process.exit(1);
}
