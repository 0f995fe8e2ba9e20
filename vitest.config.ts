import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { DATABASE_FREE_TESTS } from './apps/server/src/test/database-free-tests';

export default defineConfig({
  test: {
    projects: [
      {
        // Projects with their own worker count run one after another (sequence.groupOrder):
        // the server's files first, then the shared and web ones.
        test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], sequence: { groupOrder: 1 } },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          // On PostgreSQL (`npm run test:pg`) the files that use no database would only run again.
          exclude: process.env.TEST_DATABASE === 'postgres' ? DATABASE_FREE_TESTS : [],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each test file owns its database; files run in parallel processes. Vitest's default
          // (CPUs − 1) runs them one at a time on a 2-CPU machine, where a file often waits on
          // its server, timers and sockets: two at a time finish ~25% sooner. The web files stay
          // at the default (apps/web/vite.config.ts says why).
          pool: 'forks',
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // A worker runs its files one after another in one process: the app's modules are
          // imported once per worker, not once per file (8.4 -> 5.9 min here). Each file still
          // makes its own app, database and servers (module-level caches in src/ are keyed by what
          // they cache, so apps in one process do not share an answer).
          isolate: false,
          sequence: { groupOrder: 0 },
          // One migrated embedded database that the files' databases are copied from.
          globalSetup: ['./src/test/global-setup.ts'],
        },
      },
      {
        // Fault injection on real processes (server, a private PostgreSQL and Redis): `npm run test:faults`.
        test: {
          name: 'faults',
          root: './apps/server',
          include: ['src/faults/**/*.fault.ts'],
          testTimeout: 180_000,
          hookTimeout: 90_000,
          pool: 'forks',
          // One private PostgreSQL cluster for the suite (a database per file); each file runs its own
          // server and Redis, and may stop the cluster: one file at a time.
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          globalSetup: ['./src/faults/global-setup.ts'],
        },
      },
      {
        // The production topology (docs/deploy.md) behind a real nginx, with a browser: `npm run test:topology`.
        test: {
          name: 'topology',
          root: './apps/server',
          include: ['src/topology/**/*.topology.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          sequence: { groupOrder: 3 },
        },
      },
      ...(existsSync('./apps/web/vite.config.ts') ? ['./apps/web/vite.config.ts'] : []),
    ],
  },
});
