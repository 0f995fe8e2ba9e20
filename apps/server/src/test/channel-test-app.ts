import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../app.js';
import { seedFirstStart } from '../modules/companies/first-start.seed.js';
import type { Database } from '../platform/db/client.js';
import { createJobs, type Jobs } from '../platform/jobs/jobs.js';
import { createFactories, type Factories } from './factories.js';
import { createManualJobs } from './manual-jobs.js';
import { openTestDatabase } from './test-database.js';
import { SUPER_ADMIN, testConfig } from './test-app.js';

export interface ChannelTestContext {
  app: App;
  database: Database;
  factories: Factories;
  /** pg-boss polling fast when asked for, else the manual runner (nothing runs unless the test runs it). */
  jobs: Jobs;
  request(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

const silent = { info: () => undefined, error: () => undefined };

/**
 * Like createTestContext, plus a running job worker (polling fast) when asked:
 * the Cloud API webhook and media downloads are processed by durable jobs.
 */
export async function createChannelTestContext(options: { env?: Record<string, string>; jobs?: boolean } = {}): Promise<ChannelTestContext> {
  const database = await openTestDatabase();
  await seedFirstStart(database.db, { adminEmail: SUPER_ADMIN.email, adminPassword: SUPER_ADMIN.password });
  const jobs = options.jobs ? createJobs(database, silent, { pollingIntervalSeconds: 0.5 }) : createManualJobs();
  const app = await buildApp({ config: testConfig(options.env), database, realtime: false, serveWeb: false, jobs });
  await app.ready();
  // Started after the app registered its jobs: their queues are then created one at a time (on
  // PostgreSQL, queues created concurrently by registrations after start can deadlock).
  await jobs.start({ work: true });
  const login = async (email: string, password: string) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    if (response.statusCode !== 200) throw new Error(`login failed for ${email}: ${response.statusCode} ${response.body}`);
    const cookie = response.cookies.find((c) => c.name === 'jrt');
    return { token: response.json<{ token: string }>().token, cookie: `jrt=${cookie?.value ?? ''}` };
  };
  return {
    app,
    database,
    jobs,
    factories: createFactories(database.db, login),
    request: (token, method, url, payload) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) }),
    async close() {
      await app.close();
      await jobs.stop();
      await database.close();
    },
  };
}

export async function waitUntil<T>(check: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 10_000, label = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${label} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
