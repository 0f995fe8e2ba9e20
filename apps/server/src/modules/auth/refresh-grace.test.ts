import { and, eq, isNotNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../platform/db/schema.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { REUSE_GRACE_MS } from './auth.service.js';
import { findRefreshToken, rotateRefreshToken } from './refresh-tokens.repo.js';

/**
 * Issue 28 defect 6: two refreshes with the same cookie at once (two tabs, several
 * components) must both keep the user signed in. Within the grace window a just
 * replaced refresh token answers the same new session; after it, a replay still
 * revokes the whole family (theft detection).
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const refresh = (cookie: string) => t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie } });
const me = (token: string) => t.request(token, 'GET', '/auth/me');

function cookieOf(response: LightMyRequestResponse): string {
  const value = response.cookies.find((c) => c.name === 'jrt')?.value;
  if (!value) throw new Error(`no refresh cookie in ${response.statusCode} ${response.body}`);
  return `jrt=${value}`;
}

/** Moves the moment a token was replaced back, as if that long had passed. */
async function replacedAgo(cookie: string, ms: number): Promise<void> {
  const stored = await findRefreshToken(t.database.db, cookie.slice('jrt='.length));
  if (!stored?.usedAt) throw new Error('that token was not replaced');
  await t.database.db.update(refreshTokens).set({ usedAt: new Date(stored.usedAt.getTime() - ms) }).where(eq(refreshTokens.id, stored.id));
}

async function familyRows(userId: number) {
  return t.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, userId));
}

describe('refresh grace window', () => {
  it('answers simultaneous refreshes with the same cookie with one new session: same new cookie, usable tokens; the next refresh of either tab works', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();

    const answers = await Promise.all([refresh(session.cookie), refresh(session.cookie), refresh(session.cookie)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const cookies = answers.map(cookieOf);
    expect(new Set(cookies).size).toBe(1);
    expect(cookies[0]).not.toBe(session.cookie);
    for (const answer of answers) expect((await me(answer.json<{ token: string }>().token)).statusCode).toBe(200);
    // One successor only: the login's token and the one that replaced it.
    expect(await familyRows(company.admin.id)).toHaveLength(2);

    // Both tabs hold that cookie; one refreshes, then the other: both go on.
    const shared = cookies[0]!;
    const tabA = await refresh(shared);
    const tabB = await refresh(shared);
    expect([tabA.statusCode, tabB.statusCode]).toEqual([200, 200]);
    expect(cookieOf(tabB)).toBe(cookieOf(tabA));
    expect((await me(tabB.json<{ token: string }>().token)).statusCode).toBe(200);
    const next = await refresh(cookieOf(tabB));
    expect(next.statusCode).toBe(200);
    expect((await me(next.json<{ token: string }>().token)).statusCode).toBe(200);
  });

  it('makes one successor when two rotations of a token race (the loser gets null and reads the winner’s)', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    const stored = (await findRefreshToken(t.database.db, session.cookie.slice('jrt='.length)))!;
    const seal = (value: string) => t.app.services.secrets.seal(value);
    const results = await Promise.all([1, 2, 3].map(() => rotateRefreshToken(t.database.db, stored, 3600, seal)));
    const made = results.filter((value): value is string => value !== null);
    expect(made).toHaveLength(1);
    const after = (await findRefreshToken(t.database.db, session.cookie.slice('jrt='.length)))!;
    expect(t.app.services.secrets.open(after.successorSealed!)).toBe(made[0]);
    expect(after.successorSealed).not.toContain(made[0]);
  });

  it('a replaced token presented after the window revokes the family and ends its sessions', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    const first = await refresh(session.cookie);
    expect(first.statusCode).toBe(200);
    const { token } = first.json<{ token: string }>();
    expect((await me(token)).statusCode).toBe(200);

    await replacedAgo(session.cookie, REUSE_GRACE_MS + 1000);
    const replay = await refresh(session.cookie);
    expect([replay.statusCode, replay.json()]).toEqual([401, { error: 'ERR_SESSION_EXPIRED' }]);
    expect((await refresh(cookieOf(first))).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(session.token)).statusCode).toBe(401);
    expect((await familyRows(company.admin.id)).every((row) => row.revokedAt !== null && row.successorSealed === null)).toBe(true);
  });

  it('a replaced token is refused within the window once its sign-in logged out, or its user’s sessions were ended', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    const first = await refresh(session.cookie);
    const { token } = first.json<{ token: string }>();
    const logout = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: { cookie: cookieOf(first), authorization: `Bearer ${token}` } });
    expect(logout.statusCode).toBe(204);
    expect((await refresh(session.cookie)).statusCode).toBe(401);
    expect((await refresh(cookieOf(first))).statusCode).toBe(401);

    // An admin sets an agent's password: every sign-in of the agent ends, the grace window's answer too.
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const agentSession = await agent.login();
    expect((await refresh(agentSession.cookie)).statusCode).toBe(200);
    const change = await t.request((await company.admin.login()).token, 'PUT', `/users/${agent.id}`, { password: 'NewPass12' });
    expect(change.statusCode).toBe(200);
    expect((await refresh(agentSession.cookie)).statusCode).toBe(401);
  });

  it('drops a sealed successor once its window is over', async () => {
    const company = await t.factories.buildCompany();
    const session = await company.admin.login();
    expect((await refresh(session.cookie)).statusCode).toBe(200);
    const kept = () => t.database.db.select().from(refreshTokens).where(and(eq(refreshTokens.userId, company.admin.id), isNotNull(refreshTokens.successorSealed)));
    expect(await kept()).toHaveLength(1);
    await replacedAgo(session.cookie, REUSE_GRACE_MS + 1000);
    // Any later rotation clears the successors whose window has passed.
    const other = await (await t.factories.buildCompany()).admin.login();
    expect((await refresh(other.cookie)).statusCode).toBe(200);
    expect(await kept()).toHaveLength(0);
  });
});
