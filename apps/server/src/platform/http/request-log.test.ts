import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/** A logger writing JSON lines into `lines`, as the process writes them to standard output. */
function capturedLogger(level = 'trace') {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const REQUEST_ID = /^[0-9a-f]{16}$/;

describe('request ids and request logs', () => {
  let t: TestContext;
  let log: ReturnType<typeof capturedLogger>;
  let token: string;
  let cookie: string;
  let companyId: number;
  let userId: number;

  beforeAll(async () => {
    log = capturedLogger();
    t = await createTestContext({ logger: log.logger });
    const company = await t.factories.buildCompany();
    const user = await t.factories.buildUser(company.id, { password: 'Agent123!' });
    ({ token, cookie, companyId, userId } = await t.login(user.email, 'Agent123!'));
  });
  afterAll(() => t?.close());

  it('answers every request, success or error, with its id in x-request-id', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/health' }),
      await t.request(token, 'GET', '/tickets'),
      await t.app.inject({ method: 'GET', url: '/no-such-route' }),
      await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'nobody@example.com', password: 'Wrong123!' } }),
      await t.app.inject({ method: 'POST', url: '/tags', headers: { authorization: `Bearer ${token}` }, payload: { name: 5 } }),
      await t.app.inject({ method: 'GET', url: '/tickets' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 404, 401, 400, 401]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ignores an id the client sends when no trusted proxy is configured', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'client-chosen-id' } });
    expect(answer.headers['x-request-id']).toMatch(REQUEST_ID);
  });

  it('logs an authenticated request with its request id, company id and user id', async () => {
    const answer = await t.request(token, 'GET', '/tickets');
    const reqId = answer.headers['x-request-id'];
    const completed = log.records().find((record) => record.reqId === reqId && record.msg === 'request completed');
    expect(completed).toMatchObject({ reqId, companyId, userId, res: { statusCode: 200 } });
  });

  it('names the company and user on every line the request writes once its session is known', async () => {
    const answer = await t.request(token, 'GET', '/tickets?pageNumber=1');
    const lines = log.records().filter((record) => record.reqId === answer.headers['x-request-id']);
    expect(lines.map((record) => record.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines[1]).toMatchObject({ companyId, userId });
  });

  it("puts the request's id on the lines other areas log for it (the mailer, during a password reset)", async () => {
    const answer = await t.app.inject({ method: 'POST', url: `/forgetpassword/${encodeURIComponent(SUPER_ADMIN.email)}` });
    const reqId = answer.headers['x-request-id'];
    const deadline = Date.now() + 5000;
    const mailLine = () => log.records().find((record) => record.module === 'mail' && record.reqId === reqId);
    while (!mailLine() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mailLine()).toMatchObject({ reqId, level: 40 });
    // Work no request started (a job, a socket) carries none.
    expect(log.records().filter((record) => record.msg === 'jobs started').every((record) => record.reqId === undefined)).toBe(true);
  });

  it('leaves no password, token or cookie of a request in the log, whether sent in the body, a header or the query', async () => {
    const before = log.lines.length;
    const password = 'Sup3r-Secret-Password!';
    await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: SUPER_ADMIN.email, password } });
    await t.app.inject({ method: 'GET', url: `/tickets?token=${token}&password=${password}&apiKey=${password}`, headers: { authorization: `Bearer ${token}`, cookie } });
    await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } });
    await t.app.inject({ method: 'GET', url: `/resetpasswords/${encodeURIComponent(SUPER_ADMIN.email)}/123456/${password}` });
    await t.app.inject({ method: 'GET', url: `/cloud-api/webhook?hub.mode=subscribe&hub.verify_token=${password}&hub.challenge=1` });
    const written = log.lines.slice(before).join('\n');
    expect(written).toContain('request completed');
    for (const secret of [password, encodeURIComponent(password), token, cookie.slice('jrt='.length)]) expect(written).not.toContain(secret);
    expect(written).toContain('[redacted]');
  });
});

describe('request ids behind a trusted proxy', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Every injected request comes from 127.0.0.1: here, the proxy's address.
    t = await createTestContext({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t?.close());

  it("keeps the proxy's id when it is short and plain, and makes a new one otherwise", async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'a1b2c3d4e5f60718293a4b5c6d7e8f90' } });
    expect(kept.headers['x-request-id']).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    for (const refused of ['x'.repeat(65), 'two words', 'line\tbreak', 'ünïcode', '<script>']) {
      const answer = await t.app.inject({ method: 'GET', url: '/no-such-route', headers: { 'x-request-id': refused } });
      expect(answer.headers['x-request-id'], refused).toMatch(REQUEST_ID);
    }
  });
});

describe('the one logger', () => {
  it('censors the secrets of the environment, credentials and headers wherever an object carries them', () => {
    const log = capturedLogger('info');
    const secrets = {
      METRICS_TOKEN: 'metrics-token-value-1',
      S3_SECRET_ACCESS_KEY: 's3-secret-value-2',
      S3_ACCESS_KEY_ID: 's3-key-id-value-3',
      JWT_SECRET: 'jwt-secret-value-4',
      DATABASE_URL: 'postgres://atende:db-password-5@db/atende',
    };
    log.logger.info({ config: secrets }, 'configuration');
    log.logger.info({ ...secrets }, 'environment');
    log.logger.info({ headers: { authorization: 'Bearer header-token-6', cookie: 'jrt=cookie-value-7' } }, 'outgoing call');
    log.logger.info({ body: { password: 'body-password-8', apiKey: 'api-key-9', token: 'token-10' } }, 'payload');
    log.logger.child({ module: 'integrations' }).warn({ request: { headers: { authorization: 'Bearer nested-11' } }, accessToken: 'access-12' }, 'peer failed');
    const written = log.lines.join('\n');
    expect(log.lines).toHaveLength(5);
    for (const value of [...Object.values(secrets), 'header-token-6', 'cookie-value-7', 'body-password-8', 'api-key-9', 'token-10', 'nested-11', 'access-12']) {
      expect(written, value).not.toContain(value);
    }
  });
});
