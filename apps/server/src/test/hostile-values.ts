import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Random and hostile inputs for the fuzz suite (`modules/fuzz.test.ts`): what a
 * careless or malicious client sends in a field, a query parameter or a path
 * segment. Every value here must answer 4xx at worst, never 5xx.
 */

const TRICKY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '',
  ' ',
  '%00',
  "'; drop table users; --",
  '../../etc/passwd',
  '\\',
  '${process.exit()}',
  '{{name}}',
  '2026-02-30',
  '2026-13-01',
  '0000-01-01',
  '2026-02-29T25:61',
  '+275760-09-13',
  '9999-12-31T23:59:59-14:00',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  'Nowhere/City',
  '+03:00',
  'http://127.0.0.1:9/',
  '\u202e\u200b\ufeff',
  '😀'.repeat(300),
];

/** Any UTF-16 code unit, lone surrogates and NUL included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...TRICKY_STRINGS),
  fc.string({ unit: anyCodeUnit, maxLength: 30 }),
  fc.string({ maxLength: 30 }),
  // Huge: up to 200,000 characters (under the body limit, far over every field's).
  fc.integer({ min: 1, max: 5 }).map((power) => 'x'.repeat(2 * 10 ** power)),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Arrays or objects nested `depth` levels around a value. */
const nested = fc
  .record({ depth: fc.integer({ min: 2, max: 60 }), asArray: fc.boolean() })
  .map(({ depth, asArray }) => {
    let value: unknown = 'deep';
    for (let level = 0; level < depth; level++) value = asArray ? [value] : { a: value };
    return value;
  });

const scalar: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Values of the right kind at their edges, so that cases get past validation into the services. */
export const plausibleValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 1, max: 60 }),
  fc.constantFrom(2 ** 31 - 1, '1', '2', 'true', 'false', 'enabled', 'disabled', 'admin', 'user', 'open', 'pending', 'closed', 'sandbox', 'webhook', 'typebot', 'n8n', 'dialogflow'),
  fc.constantFrom('0001-01-01', '9999-12-31', '2024-02-29', '2026-01-01T00:00:00Z', '9999-12-31T23:59:59Z', 'UTC', 'Pacific/Kiritimati', '#ffffff', '08:00', '23:59', 'pt', 'en', 'es'),
  fc.constantFrom('a@b.co', `${'a'.repeat(64)}@example.com`, '5511999990000', '+5511999990000', 'https://example.invalid/hook', 'http://[::1]/'),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 4 }),
);

/** Any JSON value a field could receive: wrong types, arrays where objects go, deep nesting, edges of the right types. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: plausibleValue },
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  { weight: 2, arbitrary: fc.dictionary(hostileString.filter((key) => key.length < 50), scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.dictionary(fc.constantFrom('id', 'name', 'value', 'body'), scalar, { maxKeys: 3 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: nested },
);

/** A path segment: ids out of range, not numbers, bad percent-encodings, NUL, lone surrogates (as invalid UTF-8). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '2147483648', '99999999999999999999', '1e3', 'abc', '%00', '1%00', '%ED%A0%80', '%C0%80', '%', '%zz', '%20', 'null', 'undefined', '..', '%2e%2e%2f'),
  hostileString.filter((text) => text.length > 0 && text.length < 500).map(encodeSegment),
  fc.integer().map(String),
);

/** Percent-encodes text, writing lone surrogates as the invalid UTF-8 a raw client would send. */
export function encodeSegment(text: string): string {
  return [...text].map((char) => (/[\ud800-\udfff]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[] };

/** The field names of an object schema, looking through optional, default, pipes and unions. */
export function schemaFields(schema: unknown): string[] {
  const seen = new Set<unknown>();
  const fields = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || seen.has(node)) return;
    seen.add(node);
    const def = (node as { _zod?: { def?: Def } })._zod?.def;
    if (!def) return;
    if (def.type === 'object' && def.shape) for (const key of Object.keys(def.shape)) fields.add(key);
    if (def.innerType) visit(def.innerType);
    if (def.in) visit(def.in);
    for (const option of def.options ?? []) visit(option);
  };
  visit(schema);
  return [...fields];
}
