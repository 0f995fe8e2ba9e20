// `npm start`: builds what is missing, then runs the server, which migrates and
// seeds the database and serves the API and the web app on one port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const serverBundle = path.join(root, 'apps/server/dist/main.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');

function run(args) {
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(webIndex)) {
  console.log('Building the web app (first start)...');
  run(['run', 'build', '-w', '@atende/web']);
}
if (!existsSync(serverBundle)) {
  console.log('Building the server (first start)...');
  run(['run', 'build', '-w', '@atende/server']);
}

const child = spawn(process.execPath, ['--enable-source-maps', serverBundle, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'warn', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
