import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App, type BuildAppOptions } from '../app.js';
import { loadConfig, type Config } from '../platform/config.js';
import { seedFirstStart } from '../modules/companies/first-start.seed.js';
import type { Database } from '../platform/db/client.js';
import { createFactories, type Factories } from './factories.js';
import { createManualJobs } from './manual-jobs.js';
import { openTestDatabase } from './test-database.js';

export const SUPER_ADMIN = { email: 'admin@admin.com', password: 'Admin123!' };

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  factories: Factories;
  /** Logs in through the real route; answers the access token and the refresh cookie. */
  login(email: string, password: string): Promise<{ token: string; cookie: string; userId: number; companyId: number }>;
  /** A request with a bearer token. */
  request(
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestOptions {
  env?: Record<string, string>;
  realtime?: boolean;
  listen?: boolean;
  /** Serve the web app (from `WEB_DIST_DIR`). */
  serveWeb?: boolean;
  /** Told of every route as the app registers it. */
  onRoute?: BuildAppOptions['onRoute'];
  /** The app's logger (a test that reads what was logged); silent by default. */
  logger?: BuildAppOptions['logger'];
  /** The clock the rules read (a test moves time through it); the system's by default. */
  clock?: BuildAppOptions['clock'];
}

/**
 * The fake peers of the tests (Typebot, webhook receivers, Dialogflow's token
 * endpoint) listen on loopback, which the outbound policy refuses by default:
 * tests that call them allow it explicitly, as an operator would a private peer.
 */
export const ALLOW_LOOPBACK_PEERS = { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } as const;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-test-')),
    JWT_SECRET: 'test-access-secret-0123456789abcdefghijklmnop',
    JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789abcdefghijklmn',
    ENCRYPTION_KEY: 'test-encryption-key-0123456789abcdefghijklmn',
    ...env,
  });
}

export async function createTestContext(options: TestOptions = {}): Promise<TestContext> {
  const database = await openTestDatabase();
  const config = testConfig(options.env);
  await seedFirstStart(database.db, { adminEmail: SUPER_ADMIN.email, adminPassword: SUPER_ADMIN.password });
  const app = await buildApp({ config, database, jobs: createManualJobs(), realtime: options.realtime ?? false, serveWeb: options.serveWeb ?? false, onRoute: options.onRoute, logger: options.logger, clock: options.clock });
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();

  const login: TestContext['login'] = async (email, password) => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    if (response.statusCode !== 200) throw new Error(`login failed for ${email}: ${response.statusCode} ${response.body}`);
    const body = response.json<{ token: string; user: { id: number; companyId: number } }>();
    const cookie = response.cookies.find((c) => c.name === 'jrt');
    if (!cookie) throw new Error('login set no refresh cookie');
    return { token: body.token, cookie: `jrt=${cookie.value}`, userId: body.user.id, companyId: body.user.companyId };
  };

  return {
    app,
    database,
    config,
    factories: createFactories(database.db, login),
    login,
    request: (token, method, url, payload) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) }),
    async close() {
      await app.close();
      await database.close();
    },
  };
}
