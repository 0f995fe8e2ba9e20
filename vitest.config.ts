import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'] },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each test file owns its database; files run in parallel processes.
          pool: 'forks',
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
          globalSetup: ['./src/faults/global-setup.ts'],
        },
      },
      ...(existsSync('./apps/web/vite.config.ts') ? ['./apps/web/vite.config.ts'] : []),
    ],
  },
});
