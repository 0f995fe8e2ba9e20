import { routeKey, routeRole } from '@atende/shared';
import fc from 'fast-check';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSegment, hostileNumber, hostileSegment, hostileString, hostileValue, plausibleValue, schemaFields } from '../test/hostile-values.js';
import { routeCase } from '../test/route-cases.js';
import { seedRouteFixture, type RouteFixture } from '../test/route-fixtures.js';
import { deletesLast, methodOf } from '../test/route-table.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../test/test-app.js';

/**
 * Property-based input fuzzing, driven by the app's real route table: every
 * route with a body, query or params schema is called as an admin of the company
 * (super routes as the super user) with its valid probe (`ROUTE_CASES`) mutated
 * by random and hostile values: NUL, unpaired surrogates, huge strings, deep
 * nesting, wrong types, arrays where objects go, impossible dates, negative and
 * huge numbers, bad path segments and percent-encodings, and edge values of the
 * right types that get past validation. Every answer is below 500, and a refused
 * write (4xx) commits no row anywhere. Fixed seed per route: the same cases on
 * every run (only the probes' random names differ).
 */
const RUNS_PER_ROUTE = 28;
const SEED = 20261124;

interface RouteInfo {
  key: string;
  url: string;
  hasBody: boolean;
  hasQuery: boolean;
  hasParams: boolean;
  bodyFields: string[];
  queryFields: string[];
}

type FuzzCase =
  | { kind: 'body'; edits: { field: string; value?: unknown }[] }
  | { kind: 'wholeBody'; value: unknown }
  | { kind: 'query'; edits: { field: string; values: string[] }[] }
  | { kind: 'params'; index: number; segment: string };

const routes = new Map<string, RouteInfo>();
function collect(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    if (method === 'HEAD') continue;
    const key = routeKey(method, route.url);
    routes.set(key, {
      key,
      url: route.url,
      hasBody: schema.body !== undefined,
      hasQuery: schema.querystring !== undefined,
      hasParams: schema.params !== undefined,
      bodyFields: schemaFields(schema.body),
      queryFields: schemaFields(schema.querystring),
    });
  }
}

let t: TestContext;
let fixture: RouteFixture;
let adminToken: string;
let superToken: string;
let journal: Awaited<ReturnType<typeof rowWriteJournal>>;
let cases = 0;
let routesFuzzed = 0;
let fiveHundreds = 0;
const statuses = new Map<number, number>();

/**
 * A journal of row writes, kept by triggers on every table: `mark()` answers the
 * journal's position, `writesSince(mark)` the tables written since. A write rolled
 * back leaves no entry (the journal row rolls back with it), so any entry after a
 * 4xx is a partial write. Cheaper than checksumming every table after each case.
 */
async function rowWriteJournal(t: TestContext): Promise<{ mark: () => Promise<number>; writesSince: (mark: number) => Promise<string[]> }> {
  const db = t.database.db;
  const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  await db.execute(sql`create table fuzz_row_writes (id bigserial primary key, table_name text not null)`);
  await db.execute(
    sql.raw(`create function fuzz_note_write() returns trigger language plpgsql as $$ begin insert into fuzz_row_writes (table_name) values (TG_TABLE_NAME); return null; end $$`),
  );
  const tables = await rows<{ table_name: string }>(
    // The rate limiters' counters count refused attempts too, by design: not a partial write.
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('fuzz_row_writes', 'rate_limits')`,
  );
  for (const { table_name: table } of tables) {
    await db.execute(sql`create trigger fuzz_note_write after insert or update or delete on ${sql.identifier(table)} for each row execute function fuzz_note_write()`);
  }
  return {
    mark: async () => Number((await rows<{ id: string }>(sql`select coalesce(max(id), 0)::text as id from fuzz_row_writes`))[0]?.id ?? 0),
    writesSince: async (mark) => (await rows<{ table_name: string }>(sql`select distinct table_name from fuzz_row_writes where id > ${mark}`)).map((row) => row.table_name),
  };
}

function seedOf(key: string): number {
  let hash = SEED;
  for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Put in every declared field once, the rest of the probe kept valid: the classes of issue 16 that random draws could miss. */
const SWEEP = ['a\u0000\ud800b', '2026-02-30'];

/** The route's cases: a sweep of every declared field, then random mutations of its valid probe. */
function casesFor(info: RouteInfo, baseBody: unknown, baseQuery: URLSearchParams, paramIndexes: number[]): FuzzCase[] {
  const kinds: fc.Arbitrary<FuzzCase>[] = [];
  const sweep: FuzzCase[] = [];
  const method = methodOf(info.key);
  const takesBody = method !== 'GET' && method !== 'DELETE';
  if (takesBody) {
    const known = new Set([...info.bodyFields, ...(baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody) ? Object.keys(baseBody) : [])]);
    const fields = [...known, 'unknownField', 'constructor'];
    for (const field of known) for (const value of SWEEP) sweep.push({ kind: 'body', edits: [{ field, value }] });
    kinds.push(
      // One declared field at an edge of its type: most of these get past validation into the service.
      fc.record({ kind: fc.constant('body' as const), edits: fc.tuple(fc.record({ field: fc.constantFrom(...(known.size > 0 ? known : fields)), value: plausibleValue })) }),
      fc.record({
        kind: fc.constant('body' as const),
        edits: fc.array(fc.record({ field: fc.constantFrom(...fields), value: fc.option(hostileValue, { nil: undefined, freq: 6 }) }), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('wholeBody' as const), value: hostileValue }),
    );
  }
  const queryFields = [...new Set([...info.queryFields, ...baseQuery.keys()])];
  if (queryFields.length > 0) {
    for (const field of queryFields) for (const value of SWEEP) sweep.push({ kind: 'query', edits: [{ field, values: [value] }] });
    const queryValue = fc.oneof(hostileString, hostileNumber.map(String), fc.constantFrom('%00', '%ED%A0%80', '%', '%zz'));
    kinds.push(
      fc.record({
        kind: fc.constant('query' as const),
        edits: fc.array(fc.record({ field: fc.constantFrom(...queryFields), values: fc.array(queryValue, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }),
      }),
    );
  }
  if (paramIndexes.length > 0) {
    kinds.push(fc.record({ kind: fc.constant('params' as const), index: fc.constantFrom(...paramIndexes), segment: hostileSegment }));
  }
  if (kinds.length === 0) return sweep;
  return [...sweep, ...fc.sample(fc.oneof(...kinds), { seed: seedOf(info.key), numRuns: RUNS_PER_ROUTE })];
}

const RAW_PERCENT = /^(%00|%ED%A0%80|%|%zz)$/;

function encodeQuery(query: Map<string, string[]>): string {
  const pairs: string[] = [];
  for (const [field, values] of query) {
    for (const value of values) pairs.push(`${encodeSegment(field)}=${RAW_PERCENT.test(value) ? value : encodeSegment(value)}`);
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function describeCase(fuzz: FuzzCase): string {
  const text = JSON.stringify(fuzz, (_key, value: unknown) => (typeof value === 'string' && value.length > 60 ? `${value.slice(0, 20)}…(${value.length})` : value));
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

beforeAll(async () => {
  // The test PSP is chosen so its routes are fuzzed too.
  t = await createTestContext({ onRoute: collect, env: { PIX_PROVIDER: 'fake' } });
  const a = await t.factories.buildCompany();
  const b = await t.factories.buildCompany();
  // Company and plan routes (super) name company B, so a due date in the past cannot lock A's admin out mid-run.
  fixture = await seedRouteFixture(t, { companyId: a.id, authorId: a.admin.id, targetCompanyId: b.id, targetPlanId: b.planId }, 'Fuzzmark');
  adminToken = (await a.admin.login()).token;
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
  journal = await rowWriteJournal(t);
});
afterAll(async () => {
  const histogram = [...statuses].sort(([x], [y]) => x - y).map(([status, count]) => `${status}×${count}`).join(' ');
  console.log(`fuzz: ${cases} cases over ${routesFuzzed} routes, 5xx: ${fiveHundreds}, statuses ${histogram}`);
  await t?.close();
});

describe('input fuzzing of every route', () => {
  it('never answers 5xx, and a refused write changes nothing', async () => {
    const failures: string[] = [];
    const fuzzed = deletesLast([...routes.keys()]).filter((key) => {
      const info = routes.get(key)!;
      return (info.hasBody || info.hasQuery || info.hasParams) && routeCase(key) !== undefined;
    });
    expect(fuzzed.length).toBeGreaterThan(60);
    routesFuzzed = fuzzed.length;

    for (const key of fuzzed) {
      const info = routes.get(key)!;
      const routeCaseOf = routeCase(key)!;
      if (routeCaseOf.ownSession) continue;
      const probe = routeCaseOf.probe(fixture);
      const method = methodOf(key);
      const [probePath = '', probeQuery = ''] = probe.url.split('?');
      const baseQuery = new URLSearchParams(probeQuery);
      const pattern = info.url.split('/');
      const paramIndexes = pattern.flatMap((segment, index) => (segment.startsWith(':') || segment === '*' ? [index] : []));
      const token = probe.anonymous ? null : routeRole(key) === 'super' ? superToken : adminToken;

      for (const fuzz of casesFor(info, probe.body, baseQuery, paramIndexes)) {
        const segments = probePath.split('/');
        const query = new Map<string, string[]>();
        for (const [field, value] of baseQuery) query.set(field, [...(query.get(field) ?? []), value]);
        let body: unknown = probe.body;
        if (fuzz.kind === 'params') {
          // A wildcard takes the rest of the path.
          if (pattern[fuzz.index] === '*') segments.splice(fuzz.index, segments.length - fuzz.index, fuzz.segment);
          else segments[fuzz.index] = fuzz.segment;
        } else if (fuzz.kind === 'query') {
          for (const edit of fuzz.edits) query.set(edit.field, edit.values);
        } else if (fuzz.kind === 'wholeBody') {
          body = fuzz.value;
        } else {
          const base = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
          const edited: Record<string, unknown> = { ...base };
          for (const edit of fuzz.edits) {
            if (edit.value === undefined) delete edited[edit.field];
            else edited[edit.field] = edit.value;
          }
          body = edited;
        }
        const url = `${segments.join('/')}${encodeQuery(query)}`;
        const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        const sendsBody = method !== 'GET' && method !== 'DELETE' && body !== undefined;
        if (sendsBody) headers['content-type'] = 'application/json';

        const mark = method === 'GET' ? null : await journal.mark();
        let response: LightMyRequestResponse;
        try {
          response = await t.app.inject({ method, url, headers, ...(sendsBody ? { payload: JSON.stringify(body) } : {}) });
        } catch (error) {
          failures.push(`${key} threw ${(error as Error).message}: ${describeCase(fuzz)}`);
          continue;
        }
        cases++;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const where = `${key} -> ${response.statusCode} ${response.body.slice(0, 160)} | ${describeCase(fuzz)}`;
        if (response.statusCode >= 500) {
          fiveHundreds++;
          failures.push(`5xx: ${where}`);
        }
        if (mark !== null && response.statusCode >= 400) {
          const written = await journal.writesSince(mark);
          if (written.length > 0) failures.push(`partial write of ${written.join(', ')}: ${where}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The journal works: the writes that succeeded are in it.
    expect(await journal.writesSince(0)).not.toEqual([]);
    expect(cases).toBeGreaterThan(fuzzed.length * (RUNS_PER_ROUTE - 1));
  }, 300_000);
});
