import { meetsRouteRole, routeRole, type PermissionSubject } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CASES, routeCase as findCase } from '../../test/route-cases.js';
import { seedRouteFixture } from '../../test/route-fixtures.js';
import { deletesLast, methodOf, routeCollector, sendProbe } from '../../test/route-table.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/**
 * The role matrix: every private route called as user, admin and super (and with
 * no session at all), each answer checked against the one table of least roles,
 * `ROUTE_ROLES` in packages/shared. Allowed: anything but 401/403. Forbidden: 403.
 * Each role works on records of its own company (the seed's company 1, where the
 * super user lives), freshly made for it, so a delete by one role cannot turn
 * another role's cell into a 404 it did not earn.
 */
interface Caller {
  name: 'user' | 'admin' | 'super';
  subject: PermissionSubject;
  id: number;
  login: () => Promise<{ token: string }>;
}

const routes = routeCollector();
let t: TestContext;
let callers: Caller[];
let cells = 0;

beforeAll(async () => {
  // The test PSP is chosen so its routes are in the table too.
  t = await createTestContext({ onRoute: routes.onRoute, env: { PIX_PROVIDER: 'fake' } });
  const user = await t.factories.buildUser(1, { name: 'Matrix user', profile: 'user' });
  const admin = await t.factories.buildUser(1, { name: 'Matrix admin', profile: 'admin' });
  const superLogin = await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password);
  callers = [
    { name: 'user', subject: { profile: 'user', super: false }, id: user.id, login: user.login },
    { name: 'admin', subject: { profile: 'admin', super: false }, id: admin.id, login: admin.login },
    { name: 'super', subject: { profile: 'admin', super: true }, id: superLogin.userId, login: () => t.login(SUPER_ADMIN.email, SUPER_ADMIN.password) },
  ];
});
afterAll(async () => {
  console.log(`role matrix: ${cells} cells`);
  await t?.close();
});

describe('role matrix', () => {
  it('has a least role for every registered route, and none for a route that does not exist', () => {
    const registered = routes.keys();
    expect(registered.filter((key) => routeRole(key) === undefined), 'routes missing from ROUTE_ROLES in packages/shared/src/route-roles.ts').toEqual([]);
    expect(registered.filter((key) => !(key in ROUTE_CASES)), 'routes without a case in src/test/route-cases.ts').toEqual([]);
  });

  it('answers every route as the table says, for user, admin and super', async () => {
    const failures: string[] = [];
    const privateRoutes = deletesLast(routes.keys().filter((key) => routeRole(key) !== undefined && routeRole(key) !== 'public' && key in ROUTE_CASES));
    for (const caller of callers) {
      const other = await t.factories.buildCompany();
      const fixture = await seedRouteFixture(t, { companyId: 1, authorId: caller.id, targetCompanyId: other.id, targetPlanId: other.planId, selfId: caller.id }, 'Rolemark');
      const token = (await caller.login()).token;
      for (const key of privateRoutes) {
        const routeCase = findCase(key)!;
        const role = routeRole(key)!;
        const probe = routeCase.probe(fixture);
        const response = await sendProbe(t, routeCase.ownSession ? (await caller.login()).token : token, methodOf(key), { ...probe, anonymous: false });
        cells++;
        const allowed = meetsRouteRole(caller.subject, role);
        const ok = allowed ? response.statusCode !== 401 && response.statusCode !== 403 : response.statusCode === 403;
        if (!ok || response.statusCode >= 500) {
          failures.push(`${caller.name} ${key} (least role ${role}, ${methodOf(key)} ${probe.url}) -> ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers 401 to every private route without a session', async () => {
    const fixture = { ...(await seedRouteFixture(t, { companyId: 1, authorId: callers[0]!.id }, 'Anonmark')) };
    const failures: string[] = [];
    for (const key of routes.keys().filter((k) => routeRole(k) !== 'public' && k in ROUTE_CASES)) {
      const probe = findCase(key)!.probe(fixture);
      const response = await sendProbe(t, null, methodOf(key), probe);
      if (response.statusCode !== 401) failures.push(`${key} -> ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
