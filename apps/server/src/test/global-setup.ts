import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpMigratedPglite } from '../platform/db/client.js';
import { usePostgres } from './test-database.js';

/** Migrates one embedded database for the whole run, so the test files copy it instead of migrating their own. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (usePostgres) return () => Promise.resolve();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-pglite-'));
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await (await dumpMigratedPglite()).arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rm(dir, { recursive: true, force: true });
}
