import { Validator } from '@seriousme/openapi-schema-validator';
import { ROUTE_ANSWERS, ROUTE_SCOPES, routeRole, routeScope, type RouteAnswer } from '@atende/shared';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { ROUTE_CASES, routeCase } from '../../test/route-cases.js';
import { seedRouteFixture, type RouteFixture } from '../../test/route-fixtures.js';
import { deletesLast, methodOf, routeCollector, sendProbe } from '../../test/route-table.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { asaasWebhookToken, FAKE_CLIENT_ID, fakeSecret } from '../../modules/invoices/payments.js';
import { totpCode, totpStep } from '../../modules/two-factor/totp.js';
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
  'GET /cloud-api/webhook': "needs a Cloud API connection's verify token; the fixture has a sandbox connection (cloud-api.webhook tests call it)",
  'POST /cloud-api/webhook': "needs a Cloud API connection's app secret to sign the call; the fixture has a sandbox connection (cloud-api.webhook tests call it)",
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

/**
 * Routes whose answers ROUTE_ANSWERS may leave undeclared, and why. Every other route
 * declares its success answers there: a JSON schema, media types, or 204.
 */
const UNDECLARED: Record<string, string> = {};

/** `GET /metrics` is on (and sampled) with a token. */
const METRICS_TOKEN = 'openapi-metrics-token-0123456789';

beforeAll(async () => {
  t = await createTestContext({ onRoute: routes.onRoute, env: { PIX_PROVIDER: 'fake', METRICS_TOKEN } });
  company = await t.factories.buildCompany();
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  doc = response.json();
});
afterAll(async () => {
  await t?.close();
});

type Responses = Record<string, { description: string; content?: Record<string, { schema?: unknown }> } | undefined>;
const responsesOf = (path: string, method: string) => doc.paths[path]![method]!.responses as Responses;

function answerOf(key: string): RouteAnswer | undefined {
  return (ROUTE_ANSWERS as Record<string, RouteAnswer | undefined>)[key];
}

function pathOf(url: string): string {
  return url
    .split('/')
    .map((segment) => (segment === '*' ? '{wildcard}' : segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');
}

/** Whether an answer's `content-type` is one of a documented media type or range (`image/*`). */
function mediaMatches(documented: string, contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return documented.endsWith('/*') ? type.startsWith(documented.slice(0, -1)) : type === documented;
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

  it('declares what every route answers: a JSON schema, the media types of another body, or no body (204)', () => {
    const undeclared: string[] = [];
    const malformed: string[] = [];
    for (const key of routes.keys()) {
      const answers = answerOf(key)?.answers;
      if (answers === undefined) {
        if (!(key in UNDECLARED)) undeclared.push(key);
        continue;
      }
      // `{}`: the route never succeeds, so it must name what it answers instead.
      if (Object.keys(answers).length === 0 && (answerOf(key)?.errors ?? []).length === 0) malformed.push(`${key}: never succeeds, and names no error`);
      for (const [status, success] of Object.entries(answers)) {
        const kinds = [success?.schema, success?.media].filter((kind) => kind !== undefined).length;
        if (status === '204' ? kinds !== 0 : kinds !== 1) malformed.push(`${key} ${status}: ${status === '204' ? 'a 204 has no body' : 'needs a schema or media types, not both'}`);
      }
    }
    expect(undeclared, 'routes whose answers ROUTE_ANSWERS (packages/shared) does not declare: add them there').toEqual([]);
    expect(malformed).toEqual([]);
    expect(Object.keys(UNDECLARED).filter((key) => answerOf(key)?.answers !== undefined), 'routes in UNDECLARED that declare their answers: take them off the list').toEqual([]);
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) expect(JSON.stringify(operation.responses)).not.toContain('not described yet');
    }
    // Files and text say their media types; a 204 has no content.
    expect(Object.keys(responsesOf('/media/{wildcard}', 'get')['200']!.content!)).toEqual(expect.arrayContaining(['image/*', 'application/octet-stream']));
    expect(responsesOf('/metrics', 'get')['200']!.content!['text/plain']!.schema).toEqual({ type: 'string' });
    expect(responsesOf('/webhooks/{id}', 'delete')['204']).toEqual({ description: 'Deleted' });
    expect(Object.keys(responsesOf('/webhooks/{id}/deliveries/{deliveryId}/retry', 'post'))).toContain('202');
    expect(responsesOf('/health', 'get')['503']!.content!['application/json']!.schema).toEqual(responsesOf('/health', 'get')['200']!.content!['application/json']!.schema);
    expect(Object.keys(responsesOf('/messages/transcribeAudio/{fileName}', 'get')).filter((status) => status.startsWith('2'))).toEqual([]);
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
    const check = (key: string, status: number, body: string, contentType = 'application/json') => {
      seen.set(key, `${status} ${contentType.split(';')[0]} ${body.slice(0, 80)}`);
      const operation = doc.paths[pathOf(key.slice(key.indexOf(' ') + 1))]?.[methodOf(key).toLowerCase()];
      const responses = (operation?.responses ?? {}) as Record<string, { content?: Record<string, { schema?: unknown }> }>;
      if (status >= 400 && key.includes(' /fake-')) return; // the providers' stand-ins answer in their shapes
      const response = responses[String(status)] ?? (status >= 400 ? responses.default : undefined);
      if (!response) {
        failures.push(`${key} answered ${status}, which the document does not list: ${body.slice(0, 200)}`);
        return;
      }
      if (!response.content) {
        if (body.length > 0) failures.push(`${key} ${status}: the document says no body, it answered ${contentType}: ${body.slice(0, 200)}`);
        else if (status < 300) matched.add(key);
        return;
      }
      const json = response.content['application/json'];
      if (!json) {
        const types = Object.keys(response.content);
        if (!types.some((type) => mediaMatches(type, contentType))) failures.push(`${key} ${status}: answered ${contentType}, the document says ${types.join(', ')}`);
        else if (status < 300) matched.add(key);
        return;
      }
      if (!contentType.startsWith('application/json')) {
        failures.push(`${key} ${status}: the document says JSON, it answered ${contentType}: ${body.slice(0, 200)}`);
        return;
      }
      const validate = compile(json.schema);
      if (!validate(JSON.parse(body))) failures.push(`${key} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${body.slice(0, 200)}`);
      else if (status < 300) matched.add(key);
    };
    const walk = async (keys: string[], fixtureOf: RouteFixture, token: () => Promise<string>) => {
      for (const key of deletesLast(keys)) {
        const found = routeCase(key)!;
        const response = await sendProbe(t, found.ownSession ? (await company.admin.login()).token : await token(), methodOf(key), found.probe(fixtureOf));
        check(key, response.statusCode, response.body, String(response.headers['content-type'] ?? ''));
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

    /** Calls `key`'s route at `url` (its ids filled in) and checks the answer against the document. */
    const sample = async (key: string, url: string, options: { payload?: unknown; headers?: Record<string, string>; token?: string } = {}) => {
      const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
      const response = await t.app.inject({ method: methodOf(key) as 'GET', url, payload: options.payload as object, headers });
      check(key, response.statusCode, response.body, String(response.headers['content-type'] ?? ''));
      return response;
    };
    // Files by their signed addresses: a sticker the walk saved (its address, and whaticket v6's).
    const sticker = (await t.request(admin.token, 'GET', '/stickers')).json<{ url: string; path: string }[]>()[0]!;
    await sample('GET /media/*', sticker.url.slice(sticker.url.indexOf('/media/')));
    await sample('GET /public/:companyDir/stickers/salvos/*', `/public/company${company.id}/${sticker.path}`);
    await sample('GET /metrics', '/metrics', { token: METRICS_TOKEN });
    // The payment providers' webhooks, with their credentials (a Pix that names no charge; an event that is not a payment).
    const pixNotice = { pix: [{ endToEndId: 'E99999999202601010000PROBE000001', valor: '1.00' }] };
    await sample('POST /payments/pix/webhook/:secret', `/payments/pix/webhook/${t.config.PAYMENT_WEBHOOK_SECRET}`, { payload: pixNotice });
    await sample('POST /payments/pix/webhook/:secret/pix', `/payments/pix/webhook/${t.config.PAYMENT_WEBHOOK_SECRET}/pix`, { payload: pixNotice });
    await sample('POST /payments/asaas/webhook', '/payments/asaas/webhook', { payload: { event: 'PAYMENT_CREATED' }, headers: { 'asaas-access-token': asaasWebhookToken(t.config) } });
    // The fake PSP (Efí's shapes), driven as the Pix provider drives it, on a key of its own (no webhook of the app's).
    const basic = Buffer.from(`${FAKE_CLIENT_ID}:${fakeSecret(t.config)}`).toString('base64');
    const pspToken = (await sample('POST /fake-psp/oauth/token', '/fake-psp/oauth/token', { payload: { grant_type: 'client_credentials' }, headers: { authorization: `Basic ${basic}` } })).json<{ access_token: string }>().access_token;
    const txid = `openapi${Date.now()}probe0000000000`.slice(0, 30);
    const psp = { token: pspToken };
    const cob = (await sample('PUT /fake-psp/v2/cob/:txid', `/fake-psp/v2/cob/${txid}`, { ...psp, payload: { valor: { original: '10.00' }, chave: 'openapi@example.com', solicitacaoPagador: 'OpenAPI sample' } })).json<{ loc: { id: number }; pixCopiaECola: string }>();
    await sample('GET /fake-psp/v2/loc/:id', `/fake-psp/v2/loc/${cob.loc.id}`, psp);
    await sample('GET /fake-psp/v2/loc/:id/qrcode', `/fake-psp/v2/loc/${cob.loc.id}/qrcode`, psp);
    await sample('PUT /fake-psp/v2/webhook/:chave', '/fake-psp/v2/webhook/other%40example.com', { ...psp, payload: { webhookUrl: 'https://example.invalid/pix' } });
    const paid = (await sample('POST /fake-psp/pay', '/fake-psp/pay', { payload: { pixCopiaECola: cob.pixCopiaECola } })).json<{ endToEndId: string }>();
    await sample('GET /fake-psp/v2/cob/:txid', `/fake-psp/v2/cob/${txid}`, psp);
    await sample('PUT /fake-psp/v2/pix/:e2eId/devolucao/:id', `/fake-psp/v2/pix/${paid.endToEndId}/devolucao/openapi1`, { ...psp, payload: { valor: '1.00' } });
    // The fake Asaas (Asaas's shapes): an account of its own, a boleto, a webhook kept off (nothing is called).
    const asaas = { headers: { access_token: '$aact_openapi_sample_0001' } };
    const customer = (await sample('POST /fake-asaas/v3/customers', '/fake-asaas/v3/customers', { ...asaas, payload: { name: 'OpenAPI', cpfCnpj: '52998224725' } })).json<{ id: string }>();
    const payment = (
      await sample('POST /fake-asaas/v3/payments', '/fake-asaas/v3/payments', { ...asaas, payload: { customer: customer.id, billingType: 'BOLETO', value: 10, dueDate: '2099-12-31', description: 'OpenAPI sample' } })
    ).json<{ id: string }>();
    await sample('GET /fake-asaas/v3/payments/:id', `/fake-asaas/v3/payments/${payment.id}`, asaas);
    await sample('GET /fake-asaas/v3/payments/:id/pixQrCode', `/fake-asaas/v3/payments/${payment.id}/pixQrCode`, asaas);
    await sample('GET /fake-asaas/v3/payments/:id/identificationField', `/fake-asaas/v3/payments/${payment.id}/identificationField`, asaas);
    const hook = { name: 'OpenAPI', url: 'https://example.invalid/asaas', email: 'openapi@example.com', enabled: false, interrupted: false, sendType: 'SEQUENTIALLY', events: ['PAYMENT_RECEIVED'] };
    const created = (await sample('POST /fake-asaas/v3/webhooks', '/fake-asaas/v3/webhooks', { ...asaas, payload: hook })).json<{ id: string }>();
    await sample('PUT /fake-asaas/v3/webhooks/:id', `/fake-asaas/v3/webhooks/${created.id}`, { ...asaas, payload: { name: 'OpenAPI sample' } });
    await sample('GET /fake-asaas/v3/webhooks', '/fake-asaas/v3/webhooks', asaas);
    await sample('POST /fake-asaas/pay', '/fake-asaas/pay', { payload: { id: payment.id } });
    // A second factor turned on and off by its owner, and one a super user removes (users of the super user's company: its reset is scoped so).
    const owner = await t.factories.buildUser(company.id);
    const ownerToken = (await owner.login()).token;
    const secretOf = async (token: string) => (await t.request(token, 'POST', '/auth/2fa/setup')).json<{ secret: string }>().secret;
    await sample('POST /auth/2fa/enable', '/auth/2fa/enable', { token: ownerToken, payload: { code: totpCode(await secretOf(ownerToken), totpStep(new Date())) } });
    await sample('POST /auth/2fa/disable', '/auth/2fa/disable', { token: ownerToken, payload: { password: owner.password } });
    const superCompanyId = (await t.request(superToken, 'GET', '/auth/me')).json<{ companyId: number }>().companyId;
    const lost = await t.factories.buildUser(superCompanyId);
    const lostToken = (await lost.login()).token;
    expect((await t.request(lostToken, 'POST', '/auth/2fa/enable', { code: totpCode(await secretOf(lostToken), totpStep(new Date())) })).statusCode).toBe(200);
    await sample('POST /users/:id/2fa/reset', `/users/${lost.id}/2fa/reset`, { token: superToken });

    expect.soft(failures).toEqual([]);
    expect.soft(MUST_MATCH.filter((key) => !matched.has(key)), 'documented answers never seen').toEqual([]);
    const withSchema = routes.keys().filter((key) => Object.keys(answerOf(key)?.answers ?? {}).length > 0);
    const unseen = withSchema.filter((key) => !matched.has(key) && !(key in NOT_SAMPLED)).map((key) => `${key} (answered ${seen.get(key) ?? 'no JSON'})`);
    expect.soft(unseen, 'routes with a documented success the walk never saw succeed: make its probe succeed, or list it in NOT_SAMPLED with why').toEqual([]);
    expect(Object.keys(NOT_SAMPLED).filter((key) => matched.has(key)), 'routes in NOT_SAMPLED that the walk does see: take them off the list').toEqual([]);
    console.log(
      `OpenAPI answers: ${withSchema.length} of ${routes.keys().length} routes document their success (a JSON schema, media types or 204); ${matched.size} of them sampled and matched by this walk (${Object.keys(NOT_SAMPLED).length} not sampled, listed with why)`,
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
