import { API_KEY_SCOPES, routeRole, routeScope, type CreatedApiKey } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CASES, routeCase as findCase } from '../test/route-cases.js';
import { companyChecksums, seedRouteFixture, type RouteFixture } from '../test/route-fixtures.js';
import { deletesLast, methodOf, routeCollector, sendProbe } from '../test/route-table.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

/**
 * The cross-tenant probe, generated from the app's real route table: company A's
 * admin calls every registered route with company B's ids (path, query and body,
 * as `ROUTE_CASES` fills them). A route naming B's records answers 403 or 404;
 * no answer shows any of B's data (every name and text of B carries a marker);
 * and B's rows are the same afterwards (a checksum of every table's rows of B).
 */
const MARKER = 'Zebramark';
const routes = routeCollector();
let t: TestContext;
let b: RouteFixture;
let aToken: string;
let aKey: string;
let aLogin: () => Promise<{ token: string }>;
let probed = 0;
let leaks = 0;

beforeAll(async () => {
  // The test PSP is chosen so its routes (public, some with credentials of their own) are probed too.
  t = await createTestContext({ onRoute: routes.onRoute, env: { PIX_PROVIDER: 'fake' } });
  const a = await t.factories.buildCompany();
  const companyB = await t.factories.buildCompany({ name: `${MARKER} company` });
  b = await seedRouteFixture(t, { companyId: companyB.id, authorId: companyB.admin.id }, MARKER);
  aLogin = () => a.admin.login();
  aToken = (await aLogin()).token;
  const created = await t.request(aToken, 'POST', '/api-keys', { name: 'Probe key', scopes: API_KEY_SCOPES });
  aKey = created.json<CreatedApiKey>().key;
});
afterAll(async () => {
  console.log(`cross-tenant: ${probed} routes probed, ${leaks} leaks`);
  await t?.close();
});

describe('cross-tenant probe', () => {
  it('has a case for every registered route, and none for a route that does not exist', () => {
    const registered = routes.keys();
    expect(registered.length).toBeGreaterThan(50);
    expect(registered.filter((key) => !(key in ROUTE_CASES)), 'routes without a case in src/test/route-cases.ts').toEqual([]);
    expect(Object.keys(ROUTE_CASES).filter((key) => !registered.includes(key)), 'cases of routes that are not registered').toEqual([]);
  });

  it("answers 403/404 to another company's ids on every route, shows none of its data and changes none of it", async () => {
    const initial = await companyChecksums(t, b.ownCompanyId);
    const before = { ...initial };
    const failures: string[] = [];
    for (const key of deletesLast(routes.keys())) {
      const routeCase = findCase(key);
      if (!routeCase) continue; // reported by the test above
      const method = methodOf(key);
      const probe = routeCase.probe(b);
      const token = routeCase.ownSession ? (await aLogin()).token : aToken;
      const response = await sendProbe(t, token, method, probe);
      probed++;
      const where = `${key} (${method} ${probe.url}) -> ${response.statusCode} ${response.body.slice(0, 200)}`;
      // A public route's own credential (a connection's API token, a signature) refused is 401.
      const denied = routeRole(key) === 'public' ? [401, 403, 404] : [403, 404];
      let leaked = false;
      if (response.statusCode === 400 || response.statusCode >= 500) failures.push(`probe not understood: ${where}`);
      else if (routeCase.tenant === 'deny' && !denied.includes(response.statusCode)) leaked = true;
      if (response.body.toLowerCase().includes(MARKER.toLowerCase())) leaked = true;
      if (method !== 'GET') {
        const after = await companyChecksums(t, b.ownCompanyId);
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length > 0) {
          leaked = true;
          failures.push(`changed ${changed.join(', ')} of the other company: ${where}`);
          Object.assign(before, after);
        }
      }
      if (leaked) {
        leaks++;
        failures.push(`leak: ${where}`);
      }
    }
    // Reads too: none of them may have changed B (a conversation read marks it read).
    const after = await companyChecksums(t, b.ownCompanyId);
    const changed = Object.keys(after).filter((table) => after[table] !== initial[table]);
    if (changed.length > 0 && !failures.some((failure) => failure.startsWith('changed'))) {
      leaks++;
      failures.push(`a read changed ${changed.join(', ')} of the other company`);
    }
    expect(failures).toEqual([]);
    expect(probed).toBe(routes.keys().length);
    // Some 600 requests: on a loaded 2-CPU machine that is more than the default 30 s.
  }, 120_000);

  it("with a company API key of every scope: the key's routes refuse another company's ids, every other private route refuses the key", async () => {
    const before = await companyChecksums(t, b.ownCompanyId);
    const failures: string[] = [];
    let keyRoutes = 0;
    for (const key of deletesLast(routes.keys())) {
      const routeCase = findCase(key);
      if (!routeCase || routeRole(key) === 'public') continue;
      const method = methodOf(key);
      const probe = routeCase.probe(b);
      const response = await sendProbe(t, aKey, method, probe);
      const where = `${key} (${method} ${probe.url}) -> ${response.statusCode} ${response.body.slice(0, 200)}`;
      if (routeScope(key) === undefined) {
        if (response.statusCode !== 403 || response.json<{ error: string }>().error !== 'ERR_API_KEY_ROUTE') failures.push(`not refused to a key: ${where}`);
        continue;
      }
      keyRoutes++;
      if (response.statusCode === 400 || response.statusCode >= 500) failures.push(`probe not understood: ${where}`);
      else if (routeCase.tenant === 'deny' && ![403, 404].includes(response.statusCode)) failures.push(`leak: ${where}`);
      if (response.body.toLowerCase().includes(MARKER.toLowerCase())) failures.push(`leak: ${where}`);
    }
    const after = await companyChecksums(t, b.ownCompanyId);
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length > 0) failures.push(`the key changed ${changed.join(', ')} of the other company`);
    expect(failures).toEqual([]);
    expect(keyRoutes).toBeGreaterThan(10);
  }, 120_000);
});
