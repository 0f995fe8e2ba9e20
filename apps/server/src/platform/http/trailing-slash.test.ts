import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCase } from '../../test/route-cases.js';
import { seedRouteFixture, type RouteFixture } from '../../test/route-fixtures.js';
import { methodOf, routeCollector, sendProbe } from '../../test/route-table.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/**
 * A trailing slash on any route is the same route (issue 17, class 1): the spec's
 * client writes `GET /users/?searchParam=`, `GET /settings/`, `GET /tags/`, ...
 * Walks the app's real route table, so a route added later is covered without a line here.
 */
const routes = routeCollector();
let t: TestContext;
let token: string;
let fixture: RouteFixture;

/** `/users?x=1` -> `/users/?x=1`. */
function withSlash(url: string): string {
  const [path, query] = url.split(/\?(.*)/s, 2) as [string, string | undefined];
  return `${path}/${query === undefined ? '' : `?${query}`}`;
}

/** Answers that carry the moment they were made, or the free disk space (other processes write meanwhile). */
const VOLATILE = /"(uptime|time|timestamp|now|freeMb)":[^,}]*/g;

beforeAll(async () => {
  // The test PSP is chosen so its routes are walked too.
  t = await createTestContext({ onRoute: routes.onRoute, env: { PIX_PROVIDER: 'fake' } });
  const login = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
  token = login.token;
  fixture = await seedRouteFixture(t, { companyId: 1, authorId: login.userId, selfId: login.userId }, 'Slashmark');
});
afterAll(async () => {
  await t?.close();
});

describe('trailing slash', () => {
  it('answers every GET route the same with and without a trailing slash', async () => {
    const gets = routes.keys().filter((key) => methodOf(key) === 'GET' && !key.endsWith('*'));
    expect(gets.length).toBeGreaterThan(40);
    const differences: string[] = [];
    for (const key of gets) {
      const found = routeCase(key);
      expect(found, `${key} has no case in src/test/route-cases.ts`).toBeDefined();
      const probe = found!.probe(fixture);
      const plain = await sendProbe(t, token, 'GET', probe);
      const slashed = await sendProbe(t, token, 'GET', { ...probe, url: withSlash(probe.url) });
      if (plain.statusCode === 404 && key.includes(':')) differences.push(`${key}: the probe itself answers 404`);
      if (slashed.statusCode !== plain.statusCode || slashed.body.replace(VOLATILE, '') !== plain.body.replace(VOLATILE, '')) {
        differences.push(`${key}: ${probe.url} -> ${plain.statusCode}, ${withSlash(probe.url)} -> ${slashed.statusCode} ${slashed.body.slice(0, 120)}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('routes every other method with a trailing slash too (no session: 401, never 404)', async () => {
    const others = routes.keys().filter((key) => methodOf(key) !== 'GET' && routeCase(key) && !routeCase(key)!.probe(fixture).anonymous);
    const missing: string[] = [];
    for (const key of others) {
      const probe = routeCase(key)!.probe(fixture);
      // Without a token nothing runs, so probing a delete or a create this way changes nothing.
      const response = await sendProbe(t, null, methodOf(key), { ...probe, url: withSlash(probe.url) });
      if (response.statusCode === 404) missing.push(`${key}: ${withSlash(probe.url)} -> 404`);
    }
    expect(others.length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('lists users for GET /users/?searchParam= and settings for GET /settings/', async () => {
    const users = await t.request(token, 'GET', '/users/?searchParam=&pageNumber=1');
    expect(users.statusCode).toBe(200);
    const list = users.json<{ users: { email: string }[]; hasMore: boolean }>();
    expect(list.users.map((user) => user.email)).toContain(SUPER_ADMIN.email);
    expect(list.hasMore).toBe(false);

    const settings = await t.request(token, 'GET', '/settings/');
    expect(settings.statusCode).toBe(200);
    expect(settings.json<{ key: string }[]>().map((entry) => entry.key)).toContain('userRating');
  });
});
