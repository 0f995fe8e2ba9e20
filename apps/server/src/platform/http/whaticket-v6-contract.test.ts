import { readFileSync } from 'node:fs';
import { routeRole } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CASES, routeCase } from '../../test/route-cases.js';
import { seedRouteFixture, type RouteFixture } from '../../test/route-fixtures.js';
import { multipartForm, type FormField } from '../../test/multipart.js';
import { deletesLast, routeCollector } from '../../test/route-table.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/**
 * The whaticket v6 web client's calls (issue 32): every HTTP call that client makes, recorded
 * as data from its source (`test/whaticket-v6-calls.json`: method, path, body and query as it
 * sends them), replayed against the real app as a company admin, with the ids of a fixture of
 * that company. A call Atende serves must succeed (2xx or 3xx) with the client's own body;
 * those that do not yet are listed in KNOWN_GAPS with the reason, and the list must be exactly
 * the failing ones (a fixed gap fails the suite until its line is removed).
 */

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  auth?: boolean;
  body?: Record<string, unknown>;
  query?: Record<string, unknown>;
  multipart?: boolean;
  notes?: string;
}

const catalogue = JSON.parse(readFileSync(new URL('../../test/whaticket-v6-calls.json', import.meta.url), 'utf8')) as { calls: Call[]; unreachableCalls: Call[] };

/**
 * The client's files that its entry never loads (report and log pages, invoices, whitelabel)
 * still count (issue 32): their calls are replayed too. Those Atende does not serve are listed
 * here, by `METHOD /path`, and the list must be exactly the unserved ones.
 */
const UNREACHABLE_NOT_SERVED: string[] = [
  'GET /tickets-log/:ticketId',
  'POST /invoices',
  'PUT /invoices/:invoiceId',
  'DELETE /invoices/:invoiceId',
  'GET /companySettings/:companyId',
  'GET /companySettingOne',
  'PUT /companySettings',
  'GET /usersMoments',
  'GET /researchs/reports',
  'GET /reports/tickets',
  'GET /reports/tickets/time',
  'GET /reports/tickets/time/detail',
];

/**
 * Calls answered with a refusal that is right for the state the suite leaves (the client would
 * get the same from whaticket): `METHOD /path` as the client writes it → the error code.
 */
const EXPECTED_REFUSALS: Record<string, string> = {
  // No refresh cookie in a replayed call; a made-up reset code; the send API takes a connection's token, not a user's.
  'POST /auth/refresh_token': 'ERR_SESSION_EXPIRED',
  'POST /resetpasswords/:email/:token/:newPassword': 'ERR_INVALID_RESET_CODE',
  'POST /api/messages/send': 'ERR_INVALID_API_TOKEN',
  // The fixture's contact already has an open ticket.
  'POST /tickets': 'ERR_OTHER_OPEN_TICKET',
  // The client's example number, name or option was created by its own POST just before.
  'PUT /contacts/:contactId': 'ERR_DUPLICATED_CONTACT',
  'PUT /tags/:tagId': 'ERR_TAG_NAME_ALREADY_EXISTS',
  'PUT /queue/:queueId': 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  'PUT /contact-list-items/:contactListItemId': 'ERR_DUPLICATED_LIST_ITEM',
  'POST /queue-options': 'ERR_QUEUE_OPTION_ALREADY_EXISTS',
  // The fixture's campaign never started; its invoice is paid; the Dialogflow key is a stand-in.
  'POST /campaigns/:campaignId/cancel': 'ERR_CAMPAIGN_STATE',
  'POST /campaigns/:campaignId/restart': 'ERR_CAMPAIGN_STATE',
  'POST /subscription': 'ERR_INVOICE_ALREADY_PAID',
  'POST /queueIntegration/testSession': 'ERR_INTEGRATION_TEST_FAILED',
  // The suite uploads a PNG where the client uploads a spreadsheet.
  'POST /contact-lists/:contactListId/upload': 'ERR_INVALID_FILE_TYPE',
  // The client's example prompt is shorter than the prompt's minimum (spec part 2).
  'POST /prompt': 'ERR_VALIDATION',
  'PUT /prompt/:promptId': 'ERR_VALIDATION',
  // The client sends the connection's provider back; the fixture's connection is not a WhatsApp Web one.
  'PUT /whatsapp/:whatsappId': 'ERR_VALIDATION',
  // Sign-up: the example password is weaker than Atende's password rule (by design).
  'POST /companies/cadastro': 'ERR_VALIDATION',
  // The example plan's and user's names exist already (the seed's plan, the client's own POST); the plan is in use.
  'POST /plans': 'ERR_PLAN_NAME_ALREADY_EXISTS',
  'PUT /plans/:planId': 'ERR_PLAN_NAME_ALREADY_EXISTS',
  'DELETE /plans/:planId': 'ERR_PLAN_IN_USE',
  'PUT /users/:userId': 'ERR_EMAIL_ALREADY_EXISTS',
  // The client's example option (id 3, "Produto 1") is none of the fixture list's; file-lists.test.ts sends v6's form to real ones.
  'POST /files/uploadList/:fileListId': 'ERR_VALIDATION',
  // v6 sends no body (its menu never issues this call; edits go through POST /messages/edit/:messageId): no new text.
  'PUT /messages/:messageId': 'ERR_VALIDATION',
  // The suite uploads a PNG where the client uploads a spreadsheet or a .p12 certificate (contacts.test.ts and settings.test.ts send real ones).
  'POST /contacts/upload': 'ERR_INVALID_FILE_TYPE',
  'POST /settings/gerencianet-cert-upload': 'ERR_INVALID_FILE_TYPE',
  // v6's invoice hook calls it without a session: invoices are never public.
  'GET /invoices/list': 'ERR_SESSION_EXPIRED',
  // Atende transcribes no audio (docs/architecture.md, "The whaticket v6 web client").
  'GET /messages/transcribeAudio/:fileName': 'ERR_TRANSCRIPTION_UNAVAILABLE',
  // The client's own PUT scheduled the campaign (its example start time): a started campaign keeps its files.
  'DELETE /campaigns/:campaignId/media-upload': 'ERR_CAMPAIGN_NOT_EDITABLE',
};

/** The calls of the client that do not work yet, by `METHOD /path` as the client writes it, with why. */
const KNOWN_GAPS: Record<string, string> = {
};

/** Path parameters the client names, filled with the fixture's record of that kind. */
function paramId(name: string, f: RouteFixture, platformRoute: boolean): string | null {
  const ids: Record<string, number | string> = {
    ticketId: f.ticketId,
    ticketUuid: f.ticketUuid,
    contactId: f.contactId,
    userId: f.userId,
    messageId: f.messageId,
    queueId: f.queueId,
    whatsappId: f.connectionId,
    tagId: f.tagId,
    quickMessageId: f.quickMessageId,
    contactListId: f.contactListId,
    contactListItemId: f.contactListItemId,
    campaignId: f.campaignId,
    scheduleId: f.scheduleId,
    chatId: f.chatUuid,
    promptId: f.promptId,
    fileListId: f.fileListId,
    ticketNoteId: f.noteId,
    helpId: f.helpId,
    announcementId: f.announcementId,
    invoiceId: f.invoiceId,
    planId: f.planId,
    holidayPeriodId: f.holidayPeriodId,
    // The platform's company screens name another company; the others the caller's own.
    companyId: platformRoute ? f.companyId : f.ownCompanyId,
  };
  const id = ids[name];
  return id === undefined ? null : String(id);
}

const segments = (path: string) => path.replace(/\/+$/, '').split('/');

/**
 * The route that answers a call, as the router picks it: same method and number of segments,
 * each equal or a parameter on either side, the most literal one first. Undefined when none.
 */
function routeFor(keys: string[], method: string, path: string): string | undefined {
  const wanted = segments(path);
  let best: { key: string; literal: number } | undefined;
  for (const key of keys) {
    const space = key.indexOf(' ');
    if (key.slice(0, space) !== method) continue;
    const route = segments(key.slice(space + 1));
    if (route.length !== wanted.length) continue;
    let literal = 0;
    const fits = route.every((segment, index) => {
      const other = wanted[index] ?? '';
      if (segment === other) literal += 1;
      return segment === other || segment.startsWith(':') || other.startsWith(':');
    });
    if (fits && (!best || literal > best.literal)) best = { key, literal };
  }
  return best?.key;
}

/** Body keys naming a record, filled with the fixture's record of that kind (the client's example ids name nothing here). */
function idFor(key: string, f: RouteFixture): number | null {
  const ids: Record<string, number> = {
    contactId: f.contactId,
    ticketId: f.ticketId,
    queueId: f.queueId,
    userId: f.userId,
    whatsappId: f.connectionId,
    tagId: f.tagId,
    contactListId: f.contactListId,
    messageId: f.messageId,
    companyId: f.ownCompanyId,
    planId: f.planId,
    promptId: f.promptId,
    integrationId: f.integrationId,
    queueIntegrationId: f.integrationId,
    fileListId: f.fileListId,
    fileId: f.fileListId,
    invoiceId: f.invoiceId,
  };
  return ids[key] ?? null;
}

function withFixtureIds(value: unknown, f: RouteFixture, key = ''): unknown {
  // Members by user object or id (an internal chat's `users`): the fixture's other user.
  if (key === 'users' && Array.isArray(value)) return value.map((item) => (item && typeof item === 'object' ? { ...item, id: f.userId } : f.userId));
  if (Array.isArray(value)) {
    const single = key.endsWith('Ids') ? idFor(key.slice(0, -1), f) : null;
    return single !== null ? value.map(() => single) : value.map((item) => withFixtureIds(item, f));
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withFixtureIds(v, f, k)]));
  const id = idFor(key, f);
  if (id === null || value === null || value === '') return value;
  return typeof value === 'string' ? String(id) : id;
}

/** The client's path with the fixture's ids (by the parameter's name, else where the route case puts them) and its query. */
function urlFor(call: Call, probeUrl: string, f: RouteFixture, platformRoute: boolean): string {
  const probePath = probeUrl.split('?')[0]!.split('/');
  const path = segments(call.path)
    .map((segment, index) => (segment.startsWith(':') ? (paramId(segment.slice(1), f, platformRoute) ?? probePath[index] ?? segment) : segment))
    .join('/');
  const filled = withFixtureIds(call.query ?? {}, f) as Record<string, unknown>;
  const query = new URLSearchParams(Object.fromEntries(Object.entries(filled).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))).toString();
  return query ? `${path}?${query}` : path;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

/** The client's form fields: its files as a small PNG, other values as text (objects as JSON). */
const formOf = (fields: Record<string, unknown>) =>
  multipartForm(
    Object.fromEntries(
      Object.entries(fields).map(([name, value]): [string, FormField] => [name, value === '<file>' ? { fileName: 'v6.png', mimeType: 'image/png', data: PNG } : typeof value === 'string' ? value : JSON.stringify(value)]),
    ),
  );

const routes = routeCollector();
let t: TestContext;
let fixture: RouteFixture;
let adminEmail: string;
const ADMIN_PASSWORD = 'Contract123!';

beforeAll(async () => {
  t = await createTestContext({ onRoute: routes.onRoute, env: { PIX_PROVIDER: 'fake' } });
  const admin = await t.factories.buildUser(1, { name: 'V6 admin', profile: 'admin', password: ADMIN_PASSWORD, allTicket: 'enabled' });
  adminEmail = admin.email;
  const other = await t.factories.buildCompany();
  fixture = await seedRouteFixture(t, { companyId: 1, authorId: admin.id, targetCompanyId: other.id, targetPlanId: other.planId, selfId: admin.id }, 'V6mark');
});
afterAll(async () => {
  await t?.close();
});

describe('the whaticket v6 web client against Atende', () => {
  it("every call Atende serves succeeds with the client's own payload; the rest is listed", async () => {
    const keys = routes.keys();
    // In the order the role matrix uses: deletes last, cascading ones at the very end.
    const order = deletesLast(keys);
    const position = (call: Call) => {
      const key = routeFor(keys, call.method, call.path);
      return key ? order.indexOf(key) : -1;
    };
    const unreachable = new Set(catalogue.unreachableCalls);
    const calls = [...catalogue.calls, ...catalogue.unreachableCalls].sort((a, b) => position(a) - position(b));
    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    const failing = new Map<string, string>();
    const notServed: string[] = [];
    let passed = 0;
    for (const call of calls) {
      const label = `${call.method} ${call.path}`;
      const key = routeFor(keys, call.method, call.path);
      if (!key || !(key in ROUTE_CASES)) {
        notServed.push(label);
        continue;
      }
      const probe = routeCase(key)!.probe(fixture);
      // The platform's own screens (companies, plans, helps, announcements) are the super user's, as in whaticket.
      const token = routeRole(key) === 'super' ? superToken : (await t.login(adminEmail, ADMIN_PASSWORD)).token;
      const headers: Record<string, string> = call.auth === false ? {} : { authorization: `Bearer ${token}` };
      // A multipart field holding JSON (a schedule's `scheduleData`) names records too.
      const parsedFields = call.multipart && call.body ? Object.fromEntries(Object.entries(call.body).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('{') ? (JSON.parse(v) as unknown) : v])) : call.body;
      let body = parsedFields === undefined ? undefined : (withFixtureIds(parsedFields, fixture) as Record<string, unknown>);
      if (key === 'POST /auth/login') body = { email: adminEmail, password: ADMIN_PASSWORD };
      const url = urlFor(call, probe.url, fixture, routeRole(key) === 'super');
      let response;
      if (call.multipart && body) {
        const form = formOf(body);
        response = await t.app.inject({ method: call.method, url, headers: { ...headers, ...form.headers }, payload: form.payload });
      } else {
        response = await t.app.inject({ method: call.method, url, headers, ...(body === undefined ? {} : { payload: body }) });
      }
      const refusal = EXPECTED_REFUSALS[label];
      if (refusal) {
        if (response.statusCode >= 400 && response.statusCode < 500 && response.body.includes(`"${refusal}"`)) passed += 1;
        else failing.set(label, `expected ${refusal}, got ${response.statusCode} ${response.body.slice(0, 200)}`);
      } else if (response.statusCode < 400) passed += 1;
      else failing.set(label, `${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    console.log(`whaticket v6 client: ${calls.length} calls (${unreachable.size} from files its entry never loads), ${calls.length - notServed.length} served, ${passed} pass, ${failing.size} known gaps`);
    console.log(`whaticket v6 client, not served: ${notServed.join('; ')}`);
    const unreachableLabels = new Set([...unreachable].map((call) => `${call.method} ${call.path}`));
    expect(notServed.filter((label) => unreachableLabels.has(label)).sort(), 'unreachable calls not served (UNREACHABLE_NOT_SERVED)').toEqual([...UNREACHABLE_NOT_SERVED].sort());
    const unexpected = [...failing].filter(([label]) => !(label in KNOWN_GAPS)).map(([label, answer]) => `${label} -> ${answer}`);
    expect(unexpected, 'calls that fail and are not in KNOWN_GAPS').toEqual([]);
    expect(Object.keys(KNOWN_GAPS).filter((label) => !failing.has(label)), 'KNOWN_GAPS that now pass (remove them)').toEqual([]);
    // About 15 s alone: 191 calls, each with a login of its own (a call may end its session).
  }, 120_000);
});
