import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import type { BuiltUser } from '../../test/factories.js';
import { DEVICE_COOKIE } from './device-cookie.js';

/**
 * Issue 28 item 13: only failed logins count; an account's failures from anywhere make
 * its next attempts wait (1 s, 2 s, ... capped), except on the owner's own devices; one
 * address's flood locks out no other address. Limits lowered so the rules show quickly.
 */
const PER_IP = 30;
const PER_PAIR = 10;
const LOCKOUT_AFTER = 3;
const LOCKOUT_MAX_SECONDS = 2;

let t: TestContext;
let companyId: number;
beforeAll(async () => {
  t = await createTestContext({
    env: {
      LOGIN_LIMIT_PER_IP: String(PER_IP),
      LOGIN_LIMIT_PER_EMAIL: String(PER_PAIR),
      LOGIN_LOCKOUT_AFTER: String(LOCKOUT_AFTER),
      LOGIN_LOCKOUT_MAX_SECONDS: String(LOCKOUT_MAX_SECONDS),
    },
  });
  companyId = (await t.factories.buildCompany()).id;
});
afterAll(() => t.close());
beforeEach(() => t.app.services.loginLimiter.reset());

async function login(user: { email: string; password: string }, ip: string, device?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: user.email, password: user.password },
    remoteAddress: ip,
    ...(device ? { cookies: { [DEVICE_COOKIE]: device } } : {}),
  });
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], device: response.cookies.find((c) => c.name === DEVICE_COOKIE), body: response.json() as { error?: string } };
}

const wrong = (user: { email: string }) => ({ email: user.email, password: 'Wrong-password-1' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('login limits count failures only', () => {
  it('lets 32 agents behind one office address all sign in, and one agent sign in again and again', async () => {
    const agents: BuiltUser[] = [];
    for (let i = 0; i < PER_IP + 2; i++) agents.push(await t.factories.buildUser(companyId));
    const statuses: number[] = [];
    // A shift starting: a few at a time, as people arrive.
    for (let i = 0; i < agents.length; i += 5) {
      statuses.push(...(await Promise.all(agents.slice(i, i + 5).map(async (agent) => (await login(agent, '198.51.100.7')).status))));
    }
    expect(statuses).toEqual(agents.map(() => 200));
    // More than the pair's limit of sign-ins of one account from one address.
    for (let i = 0; i < PER_PAIR + 2; i++) expect((await login(agents[0]!, '198.51.100.7')).status).toBe(200);
    // 76 password hashes and checks: over 30 s on a loaded host.
  }, 90_000);

  it('still answers 429 to failures: per address, across e-mails', async () => {
    const agent = await t.factories.buildUser(companyId);
    for (let i = 0; i < PER_IP; i++) expect((await login({ email: `nobody-${i}@example.com`, password: 'x' }, '198.51.100.8')).status).toBe(401);
    const refused = await login(agent, '198.51.100.8');
    expect(refused).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
    // Retry-After: until the address's window ends (15 min), also when answered from memory.
    expect(Number(refused.retryAfter)).toBeGreaterThan(800);
    expect(Number((await login(agent, '198.51.100.8')).retryAfter)).toBeGreaterThan(800);
    // Another address is not concerned.
    expect((await login(agent, '198.51.100.9')).status).toBe(200);
  });

  it('refuses parallel guesses beyond the limit: each attempt is counted before its password is checked', async () => {
    const agent = await t.factories.buildUser(companyId);
    // 30 guesses at once, each from its own address: only the account's free attempts reach the password check.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(wrong(agent), `198.51.100.${100 + i}`)));
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(LOCKOUT_AFTER);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30 - LOCKOUT_AFTER);
  });
});

describe('per-account lock-out', () => {
  it('makes every attempt of an account wait after repeated failures from anywhere: 1 s, 2 s, then capped, with Retry-After', async () => {
    const agent = await t.factories.buildUser(companyId);
    // Each failure from another address: neither the address nor the pair limit applies.
    for (let i = 0; i < LOCKOUT_AFTER; i++) expect((await login(wrong(agent), `203.0.113.${i + 1}`)).status).toBe(401);
    // Even the right password waits (and costs no password check while it waits).
    expect(await login(agent, '203.0.113.50')).toMatchObject({ status: 429, retryAfter: '1', body: { error: 'ERR_TOO_MANY_REQUESTS' } });
    await sleep(1100);
    expect((await login(wrong(agent), '203.0.113.51')).status).toBe(401);
    expect(await login(agent, '203.0.113.52')).toMatchObject({ status: 429, retryAfter: '2' });
    await sleep(2100);
    expect((await login(wrong(agent), '203.0.113.53')).status).toBe(401);
    // 4 s, capped at LOGIN_LOCKOUT_MAX_SECONDS.
    expect(await login(agent, '203.0.113.54')).toMatchObject({ status: 429, retryAfter: String(LOCKOUT_MAX_SECONDS) });
    await sleep(LOCKOUT_MAX_SECONDS * 1000 + 100);
    expect((await login(agent, '203.0.113.55')).status).toBe(200);
  });

  it("lets the owner's device in from any address while an attacker floods the account", async () => {
    const agent = await t.factories.buildUser(companyId);
    const first = await login(agent, '192.0.2.10');
    expect(first.device).toMatchObject({ httpOnly: true, path: '/auth' });
    const device = first.device?.value ?? '';

    // The attacker rotates addresses: the account's gate closes.
    const flood = await Promise.all(Array.from({ length: 40 }, (_, i) => login(wrong(agent), `192.0.2.${100 + (i % 20)}`)));
    expect(flood.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    // Checked at once: the account's first wait is 1 s, which a loaded host can spend on the next password checks.
    // A forged or altered cookie is no device.
    const [plain, forged] = await Promise.all([login(agent, '192.0.2.200'), login(agent, '192.0.2.202', `${device.slice(0, -2)}xx`)]);
    expect([plain.status, forged.status]).toEqual([429, 429]);

    // The owner, at home (another address) with the browser it signed in with before.
    const owner = await login(agent, '192.0.2.201', device);
    expect(owner.status).toBe(200);
    // A device cookie is for its account only: another account's login is judged as usual.
    const other = await t.factories.buildUser(companyId);
    for (let i = 0; i < LOCKOUT_AFTER; i++) await login(wrong(other), `192.0.2.${30 + i}`);
    expect((await login(other, '192.0.2.201', device)).status).toBe(429);
  });

  it("one address's flood locks out no other address", async () => {
    const target = await t.factories.buildUser(companyId);
    const bystander = await t.factories.buildUser(companyId);
    const device = (await login(target, '198.51.100.20')).device?.value ?? '';
    // 200 guesses from one address, at the target and at made-up e-mails.
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) => login(i % 2 === 0 ? wrong(target) : { email: `guess-${i}@example.com`, password: 'x' }, '198.51.100.66')),
    );
    expect(flood.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(200 - PER_IP);
    expect((await login(bystander, '198.51.100.66')).status).toBe(429);
    // Even behind the flooding address (one office NAT), the owner's device is judged by its own failures.
    expect((await login(target, '198.51.100.66', device)).status).toBe(200);
    // Other addresses: other accounts as usual, and the flooded account on its owner's device.
    expect((await login(bystander, '198.51.100.21')).status).toBe(200);
    expect((await login(target, '198.51.100.22', device)).status).toBe(200);
  });
});
