import type { TestProject } from 'vitest/node';
import { buildServer, createCluster, removeCluster, type PostgresCluster } from './processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    faultCluster: PostgresCluster;
  }
}

/**
 * The server is bundled once (the files start it as production does, see buildServer), and
 * one private PostgreSQL cluster serves the fault suite (initdb is the slow part);
 * each file makes its own database in it. Files run one at a time, so a file may
 * stop and restart the cluster.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  buildServer();
  const cluster = await createCluster();
  project.provide('faultCluster', cluster);
  return () => removeCluster(cluster);
}
