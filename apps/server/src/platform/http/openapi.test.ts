import { Validator } from '@seriousme/openapi-schema-validator';
import { ROUTE_ANSWERS, ROUTE_SCOPES, routeRole, routeScope, type RouteAnswer } from '@atende/shared';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { ROUTE_CASES, routeCase } from '../../test/route-cases.js';
import { seedRouteFixture, type RouteFixture } from '../../test/route-fixtures.js';
import { deletesLast, methodOf, routeCollector, sendProbe } from '../../test/route-table.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import type { OpenApiDocument } from './openapi.js';

/**
 * The OpenAPI document (`GET /openapi.json`): it names every route the app registers,
 * it is valid OpenAPI 3.1, and real answers match it: every route called once with the
 * route-table suites' probes (route-cases.ts), as a company admin (super routes as the
 * platform's super user), each documented success checked against its schema (closed
 * objects: a field a presenter adds or drops fails) and every error against the error
 * envelope. Every route with a documented success must have been seen succeeding and
 * matching, but those `NOT_SAMPLED` names with the reason.
 */
const routes = routeCollector();
let t: TestContext;
let company: BuiltCompany;
let doc: OpenApiDocument;

/** Routes whose documented success must be seen and match whatever the list below says (what integrators read most). */
const MUST_MATCH = [
  'GET /tickets',
  'GET /tickets/:id',
  'PUT /tickets/:id',
  'GET /messages/:ticketId',
  'GET /contacts',
  'GET /contacts/list',
  'GET /contacts/:id',
  'PUT /contacts/:id',
  'POST /api/messages/send',
];

/**
 * Routes with a documented success that the walk does not see succeed, and why. Every
 * other route of `ROUTE_ANSWERS` with a success schema must answer one and match it.
 */
const NOT_SAMPLED: Record<string, string> = {
  'DELETE /plans/:id': "the probe's plan is its company's (409 ERR_PLAN_IN_USE)",
  'GET /whatsapp/:id/templates': 'Cloud API connections only; the fixture has a sandbox one',
  'POST /messages/:ticketId/template': 'Cloud API connections only; the fixture has a sandbox one',
  'POST /auth/2fa/enable': 'needs the current code of an authenticator set up by POST /auth/2fa/setup (two-factor.test.ts signs in with one)',
  'POST /auth/reset-password': 'needs the code of a reset e-mail',
  'POST /resetpasswords/:email/:token/:newPassword': 'needs the code of a reset e-mail',
  'POST /campaigns/:id/cancel': "the probe's campaign is not running (409 ERR_CAMPAIGN_STATE)",
  'POST /campaigns/:id/restart': "the probe's campaign is not cancelled (409 ERR_CAMPAIGN_STATE)",
  'POST /chats/:id/leave': 'the probe is the chat owner, who cannot leave it',
  'POST /companies/:id/invoices': "the probe's company has nothing to invoice (409 ERR_NOTHING_TO_INVOICE)",
  'POST /contact-lists/:id/upload': 'the probe sends a PNG, not a spreadsheet',
  'POST /files/uploadList/:id': 'the probe sends no option ids before its file',
  'POST /messages/:messageId/retry': "the probe's message has not failed",
  'PUT /messages/:id': "the probe's message was deleted by an earlier probe",
  'POST /queueIntegration/testSession': 'needs a Dialogflow agent (the probe has no credentials)',
  'POST /settings/gerencianet-cert-upload': 'the probe sends a PNG, not a certificate',
  'POST /subscription': "the probe's invoice is paid by an earlier probe",
};

beforeAll(async () => {
  t = await createTestContext({ onRoute: routes.onRoute, env: { PIX_PROVIDER: 'fake' } });
  company = await t.factories.buildCompany();
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  doc = response.json();
});
afterAll(async () => {
  await t?.close();
});

function answerOf(key: string): RouteAnswer | undefined {
  return (ROUTE_ANSWERS as Record<string, RouteAnswer | undefined>)[key];
}

function pathOf(url: string): string {
  return url
    .split('/')
    .map((segment) => (segment === '*' ? '{wildcard}' : segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');
}

/** Ajv over the document's schemas: `#/components/schemas/X` becomes a schema of its own. */
function schemaValidator(document: OpenApiDocument): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
  const relink = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(relink);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', 'urn:atende:schema:') : relink(value)]),
    );
  };
  for (const [name, schema] of Object.entries(document.components.schemas)) ajv.addSchema({ ...(relink(schema) as object), $id: `urn:atende:schema:${name}` });
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(relink(schema) as object);
      compiled.set(key, validate);
    }
    return validate;
  };
}

describe('the OpenAPI document', () => {
  it('names every registered route, and no other', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const registered = routes.keys().map((key) => `${methodOf(key)} ${pathOf(key.slice(key.indexOf(' ') + 1))}`);
    expect(registered.filter((key) => !documented.includes(key)), 'routes missing from /openapi.json').toEqual([]);
    expect(documented.filter((key) => !registered.includes(key)), 'documented routes the app does not have').toEqual([]);
  });

  it('is valid OpenAPI 3.1, and each of its schemas compiles', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    const compile = schemaValidator(doc);
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses as Record<string, { content?: Record<string, { schema: unknown }> }>)) {
          const schema = response.content?.['application/json']?.schema;
          if (schema) compile(schema);
        }
      }
    }
  }, 120_000);

  it('says who may call each route: a role, and a security requirement for the private ones', () => {
    const admins = doc.paths['/queue/{id}']!.delete!;
    expect(admins['x-role']).toBe('admin');
    expect(admins.security).toEqual([{ userToken: [] }]);
    expect(Object.keys(admins.responses as object)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(doc.paths['/health']!.get!.security).toEqual([]);
    expect(doc.paths['/api/messages/send']!.post!.security).toEqual([{ connectionToken: [] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['userToken', 'apiKey', 'connectionToken']));
  });

  it('names the scope a company API key needs on exactly the routes ROUTE_SCOPES opens to keys', () => {
    const scoped: string[] = [];
    for (const key of routes.keys()) {
      const operation = doc.paths[pathOf(key.slice(key.indexOf(' ') + 1))]![methodOf(key).toLowerCase()]!;
      const scope = routeScope(key);
      if (scope === undefined) {
        expect(operation['x-scopes'], key).toBeUndefined();
        expect(JSON.stringify(operation.security), key).not.toContain('apiKey');
        continue;
      }
      scoped.push(key);
      expect(operation['x-scopes'], key).toEqual([scope]);
      expect(operation.security, key).toEqual([{ userToken: [] }, { apiKey: [scope] }]);
      const forbidden = (operation.responses as Record<string, { 'x-error-codes'?: string[] }>)['403']?.['x-error-codes'];
      expect(forbidden, key).toContain('ERR_API_KEY_SCOPE');
      expect((operation.responses as Record<string, { 'x-error-codes'?: string[] }>)['401']?.['x-error-codes'], key).toContain('ERR_INVALID_API_KEY');
    }
    expect(scoped.sort()).toEqual(Object.keys(ROUTE_SCOPES).filter((key) => routes.keys().includes(key)).sort());
    expect(doc.paths['/tickets']!.get!['x-scopes']).toEqual(['tickets:read']);
    expect(doc.paths['/users']!.get!['x-scopes']).toBeUndefined();
  });

  it('has an answer table whose routes all exist', () => {
    expect(Object.keys(ROUTE_ANSWERS).filter((key) => !routes.keys().includes(key))).toEqual([]);
  });

  it('matches real answers: documented successes against their schema, every error against the envelope', async () => {
    const compile = schemaValidator(doc);
    const admin = await company.admin.login();
    const fixture = await seedRouteFixture(t, { companyId: company.id, authorId: company.admin.id }, 'Docmark');
    const failures: string[] = [];
    const matched = new Set<string>();
    /** What each route last answered: the unseen ones are named with it. */
    const seen = new Map<string, string>();
    const check = (key: string, status: number, body: string) => {
      seen.set(key, `${status} ${body.slice(0, 80)}`);
      const operation = doc.paths[pathOf(key.slice(key.indexOf(' ') + 1))]?.[methodOf(key).toLowerCase()];
      const responses = (operation?.responses ?? {}) as Record<string, { content?: Record<string, { schema: unknown }> }>;
      if (status >= 400 && key.includes(' /fake-')) return; // the providers' stand-ins answer in their shapes
      const schema = (responses[String(status)] ?? (status >= 400 ? responses.default : undefined))?.content?.['application/json']?.schema;
      if (status >= 400 && !schema) {
        failures.push(`${key} answered ${status}, which the document does not list: ${body.slice(0, 200)}`);
        return;
      }
      if (!schema) return;
      const validate = compile(schema);
      if (!validate(JSON.parse(body))) failures.push(`${key} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${body.slice(0, 200)}`);
      else if (status < 300) matched.add(key);
    };
    const walk = async (keys: string[], fixtureOf: RouteFixture, token: () => Promise<string>) => {
      for (const key of deletesLast(keys)) {
        const found = routeCase(key)!;
        const response = await sendProbe(t, found.ownSession ? (await company.admin.login()).token : await token(), methodOf(key), found.probe(fixtureOf));
        const type = String(response.headers['content-type'] ?? '');
        if (!type.startsWith('application/json')) continue;
        check(key, response.statusCode, response.body);
      }
    };
    const walked = routes.keys().filter((k) => k in ROUTE_CASES && routeRole(k) !== undefined);
    await walk(
      walked.filter((key) => routeRole(key) !== 'super'),
      fixture,
      async () => admin.token,
    );
    // Sign-in and renewal, and a ticket opened for a contact of its own (the fixture's contact has one open).
    const signedIn = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: company.admin.email, password: company.admin.password } });
    check('POST /auth/login', signedIn.statusCode, signedIn.body);
    const refreshCookie = [signedIn.headers['set-cookie']].flat().find((cookie) => cookie?.startsWith('jrt='));
    const renewed = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', headers: { cookie: refreshCookie?.split(';')[0] ?? '' } });
    check('POST /auth/refresh_token', renewed.statusCode, renewed.body);
    const contact = (await t.request(admin.token, 'POST', '/contacts', { name: 'Docs contact', number: '5511977770092' })).json<{ id: number }>();
    const opened = await t.request(admin.token, 'POST', '/tickets', { contactId: contact.id, status: 'open' });
    check('POST /tickets', opened.statusCode, opened.body);
    // The external API with a real connection token.
    const connection = (await t.request(admin.token, 'POST', '/whatsapp', { name: 'Docs API', provider: 'sandbox', token: 'new-token-please-0123' })).json<{ token: string }>();
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      headers: { authorization: `Bearer ${connection.token}` },
      payload: { number: '5511977770091', body: 'From the OpenAPI test' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    check('POST /api/messages/send', sent.statusCode, sent.body);
    const refused = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: 'Bearer wrong-token-0123456789' }, payload: { number: '5511977770091', body: 'x' } });
    check('POST /api/messages/send', refused.statusCode, refused.body);
    // The platform's routes as its super user, on a company of their own (they change and delete it).
    const other = await t.factories.buildCompany();
    const superFixture = await seedRouteFixture(t, { companyId: other.id, authorId: other.admin.id }, 'Docsuper');
    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    await walk(
      walked.filter((key) => routeRole(key) === 'super'),
      superFixture,
      async () => superToken,
    );

    expect.soft(failures).toEqual([]);
    expect.soft(MUST_MATCH.filter((key) => !matched.has(key)), 'documented answers never seen').toEqual([]);
    const withSchema = routes.keys().filter((key) => Object.values(answerOf(key)?.answers ?? {}).some((success) => success?.schema !== undefined));
    const unseen = withSchema.filter((key) => !matched.has(key) && !(key in NOT_SAMPLED)).map((key) => `${key} (answered ${seen.get(key) ?? 'no JSON'})`);
    expect.soft(unseen, 'routes with a documented success the walk never saw succeed: make its probe succeed, or list it in NOT_SAMPLED with why').toEqual([]);
    expect(Object.keys(NOT_SAMPLED).filter((key) => matched.has(key)), 'routes in NOT_SAMPLED that the walk does see: take them off the list').toEqual([]);
    console.log(
      `OpenAPI answers: ${withSchema.length} of ${routes.keys().length} routes have a success schema; ${matched.size} of them sampled and matched by this walk (${Object.keys(NOT_SAMPLED).length} not sampled, listed with why)`,
    );
  }, 300_000);

  it('serves the reference page and its files under the content security policy, without the app shell', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api-docs', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api-docs/viewer.js');
    expect(page.body).not.toMatch(/<script>[^<]/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await t.app.inject({ method: 'GET', url: '/api-docs/viewer.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).toContain("fetch('/openapi.json'");
    expect((await t.app.inject({ method: 'GET', url: '/api-docs/nothing.js' })).statusCode).toBe(404);
  });
});
