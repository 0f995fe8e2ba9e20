import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../app.js';
import type { Config } from '../platform/config.js';
import { seedFirstStart } from '../modules/companies/first-start.seed.js';
import type { Database } from '../platform/db/client.js';
import { whatsappQueues } from '../platform/db/schema.js';
import { createFactories, type Factories } from './factories.js';
import { createManualJobs, type ManualJobs, type QueuedJob } from './manual-jobs.js';
import { createServiceDeskFactories } from './service-desk-factories.js';
import { SUPER_ADMIN, testConfig } from './test-app.js';
import { openTestDatabase } from './test-database.js';

/**
 * An app for automation tests: a test database, a manual job runner, a clock the
 * test sets, short network budgets, and `restart()`, which closes the app and
 * builds a new one on the same database (nothing kept in memory survives).
 */
export interface AutomationHarness {
  app: App;
  database: Database;
  config: Config;
  jobs: ManualJobs;
  factories: Factories;
  desk: ReturnType<typeof createServiceDeskFactories>;
  /** The automation's "now"; null follows the real clock. */
  setNow(now: Date | null): void;
  now(): Date;
  request(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
}

export async function createAutomationHarness(options: HarnessOptions = {}): Promise<AutomationHarness> {
  const database = await openTestDatabase();
  const config = testConfig(options.env);
  await seedFirstStart(database.db, { adminEmail: SUPER_ADMIN.email, adminPassword: SUPER_ADMIN.password });
  const queue: QueuedJob[] = [];
  let fixedNow: Date | null = null;

  const build = async () => {
    const jobs = createManualJobs(queue);
    const app = await buildApp({ config, database, realtime: false, serveWeb: false, jobs, clock: { now: () => fixedNow ?? new Date() } });
    await app.ready();
    Object.assign(app.services.automation, {
      httpTimeoutMs: 400,
      delayScale: 0,
      webhookRetryDelaysSeconds: [10, 60],
    });
    return { app, jobs };
  };
  let current = await build();

  const login = async (email: string, password: string) => {
    const response = await current.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    if (response.statusCode !== 200) throw new Error(`login failed for ${email}: ${response.statusCode} ${response.body}`);
    return { token: response.json<{ token: string }>().token, cookie: '' };
  };

  const harness: AutomationHarness = {
    get app() {
      return current.app;
    },
    get jobs() {
      return current.jobs;
    },
    database,
    config,
    factories: createFactories(database.db, login),
    desk: createServiceDeskFactories(database.db),
    setNow(now) {
      fixedNow = now;
    },
    now: () => fixedNow ?? new Date(),
    request: (token, method, url, payload) =>
      current.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) }),
    async restart() {
      await current.app.close();
      current = await build();
    },
    async close() {
      await current.app.close();
      await database.close();
    },
  };
  return harness;
}

/** Offers queues in a connection's bot menu (what the connection modal's queue selection saves). */
export async function linkQueues(database: Database, companyId: number, whatsappId: number, queueIds: number[]): Promise<void> {
  if (queueIds.length === 0) return;
  await database.db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ companyId, whatsappId, queueId })));
}

/** The simulated customer's phone of one connection. */
export function sandboxPhone(harness: Pick<AutomationHarness, 'request'>, token: string, whatsappId: number, number: string) {
  let sent = 0;
  return {
    number,
    /** The customer writes; answers the ingest result. */
    async say(body: string, extra: Record<string, unknown> = {}) {
      const response = await harness.request(token, 'POST', `/sandbox/${whatsappId}/inbound`, { from: number, body, ...extra });
      if (response.statusCode >= 300) throw new Error(`inbound failed: ${response.statusCode} ${response.body}`);
      return response.json<{ ticketId: number | null; messageId: number | null; ticketCreated: boolean; duplicate: boolean }>();
    },
    /** Everything the product sent to this phone, oldest first. */
    async inbox(): Promise<string[]> {
      const response = await harness.request(token, 'GET', `/sandbox/${whatsappId}/outbox?number=${number}`);
      return response.json<{ body: string }[]>().map((m) => m.body);
    },
    /** What arrived since the last call. */
    async received(): Promise<string[]> {
      const all = await this.inbox();
      const fresh = all.slice(sent);
      sent = all.length;
      return fresh;
    },
    /** With media: name and type of each message since the last call. */
    async receivedWithMedia(): Promise<{ body: string; mediaName: string | null; mediaType: string | null }[]> {
      const response = await harness.request(token, 'GET', `/sandbox/${whatsappId}/outbox?number=${number}`);
      const all = response.json<{ body: string; mediaName: string | null; mediaType: string | null }[]>();
      const fresh = all.slice(sent);
      sent = all.length;
      return fresh.map(({ body, mediaName, mediaType }) => ({ body, mediaName, mediaType }));
    },
  };
}
