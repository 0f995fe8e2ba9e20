import { createServer, type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { users } from '../db/schema.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { registerErrorHandler } from './error-handler.js';

// A PostgreSQL URL whose port nobody listens on: the driver's real "connection refused".
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let database: Database;
const app = Fastify();
beforeAll(async () => {
  database = await openDatabase({ url: `postgres://nobody@127.0.0.1:${await closedPort()}/gone`, poolSize: 2 });
  registerErrorHandler(app);
  app.get('/rows', async () => database.db.select().from(users).limit(1));
  app.get('/bug', async () => {
    throw new TypeError('a plain bug');
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('an unreachable database', () => {
  it('answers 503 ERR_SERVICE_UNAVAILABLE with Retry-After (the query error, wrapped by drizzle, is recognized)', async () => {
    const response = await app.inject({ method: 'GET', url: '/rows' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: 'ERR_SERVICE_UNAVAILABLE' });
  });

  it('still answers 500 for an error that is not about the database', async () => {
    const response = await app.inject({ method: 'GET', url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'ERR_INTERNAL_SERVER_ERROR' });
  });

  it('recognizes PostgreSQL shutdown and connection SQLSTATEs but not query errors', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('query failed', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('invalid input syntax'), { code: '22P02' }))).toBe(false);
  });
});
