// Bundles the server into dist/main.js (or `--outdir <dir>`, a sibling of dist/: the
// bundle finds the migrations and the web app relative to itself). Workspace packages
// (TypeScript sources) are bundled in; npm dependencies stay external and load from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag >= 0 ? process.argv[outdirFlag + 1] : 'dist';
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies)
  .filter((name) => !name.startsWith('@atende/'))
  .flatMap((name) => [name, `${name}/*`]);

await build({
  // The spreadsheet reader's worker sits beside main.js, where platform/spreadsheet/index.ts looks for it.
  entryPoints: { main: 'src/main.ts', 'cli/migrate': 'src/cli/migrate.ts', 'cli/import-whaticket': 'src/cli/import-whaticket.ts', 'sheet-reader.worker': 'src/platform/spreadsheet/sheet-reader.worker.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  external,
  logLevel: 'warning',
  // Bundled ESM still needs require() for the few CommonJS paths inside dependencies.
  banner: { js: "import { createRequire as __atendeRequire } from 'node:module'; const require = __atendeRequire(import.meta.url);" },
});
console.log(`server built: apps/server/${outdir}/main.js`);
