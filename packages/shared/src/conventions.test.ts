import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flag, noneAsAbsent, noneId, queryFlag } from './conventions.js';
import * as shared from './index.js';
import { id } from './validation.js';

/**
 * Every zod schema packages/shared exports for requests: the server's and the web forms'.
 * Answer schemas (what the server sends: desk-contracts.ts, message-data.ts, errors.ts,
 * route-answers.ts) are named `PascalCaseSchema` and left out: they describe output.
 */
const isAnswerSchema = (name: string) => /^[A-Z]\w*Schema$/.test(name);
const SCHEMAS = (Object.entries(shared) as [string, unknown][]).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType && !isAnswerSchema(entry[0]));

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: unknown) => (schema as z.ZodType)._zod.def as unknown as Def;

/**
 * Calls `visit` on every schema nested in `schema` (object fields, wrappers,
 * unions, pipes, arrays, records) with its path; `visit` answering false stops
 * the descent below that node.
 */
function walk(schema: z.ZodType, path: string, visit: (node: z.ZodType, path: string) => boolean | void): void {
  if (visit(schema, path) === false) return;
  const def = defOf(schema);
  const next = (child: unknown, suffix = '') => walk(child as z.ZodType, `${path}${suffix}`, visit);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) next(child, `.${key}`);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      next(def.innerType);
      break;
    case 'pipe':
      next(def.in);
      next(def.out);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) next(option);
      break;
    case 'array':
      next(def.element, '[]');
      break;
    case 'record':
      next(def.valueType, '{}');
      break;
  }
}

/** A node built by `flag()`: a pipe from boolean | 0 | 1 | 'true' | ... to boolean. */
function isFlag(node: z.ZodType): boolean {
  const def = defOf(node);
  if (def.type !== 'pipe') return false;
  const input = defOf(def.in);
  if (input.type !== 'union') return false;
  const options = (input.options as z.ZodType[]).map(defOf);
  return options.length === 2 && options[0]!.type === 'boolean' && options[1]!.type === 'literal';
}

/** Spreadsheet cells (`POST /contacts/upload`) are values read from a file, not flags. */
const NOT_FLAGS = new Set(['ContactUploadRow{}', 'ContactUploadBody[]{}']);

describe('flag', () => {
  it('reads true/false, 1/0 and their strings as booleans', () => {
    const cases: [unknown, boolean][] = [
      [true, true],
      [false, false],
      [1, true],
      [0, false],
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
    ];
    for (const [input, output] of cases) expect(flag().parse(input), JSON.stringify(input)).toBe(output);
  });

  it('refuses anything else', () => {
    for (const input of [2, -1, 'yes', 'TRUE', 'on', '', null, {}, []]) {
      expect(flag().safeParse(input).success, JSON.stringify(input)).toBe(false);
    }
  });

  it('reads an absent or empty query flag as false', () => {
    expect(queryFlag().parse(undefined)).toBe(false);
    expect(queryFlag().parse('')).toBe(false);
    expect(queryFlag().parse('1')).toBe(true);
    expect(queryFlag().safeParse('yes').success).toBe(false);
  });

  it('is the only boolean of every request schema', () => {
    expect(SCHEMAS.length).toBeGreaterThan(40);
    const bare: string[] = [];
    for (const [name, schema] of SCHEMAS) {
      walk(schema, name, (node, path) => {
        if (isFlag(node)) return false;
        if (defOf(node).type === 'boolean' && !NOT_FLAGS.has(path)) bare.push(path);
      });
    }
    expect(bare, 'booleans that do not use flag() from conventions.ts').toEqual([]);
  });
});

/** The object schema of a body, seen through the wrappers a refine or an extension adds. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape as Record<string, z.ZodType>;
  if (def.type === 'pipe') return objectShape(def.in as z.ZodType);
  return null;
}

/** Optional on update only because a PUT changes what it sends: a company always has a plan, a prompt a queue. */
const REQUIRED_REFERENCES = new Set(['CompanyUpdateBody.planId', 'PromptUpdateBody.queueId']);
/** Not references to our records: the simulated phone's own message id. */
const NOT_REFERENCES = new Set(['SandboxInboundBody.quotedId']);

/** Optional references a form may leave empty; the rest of the `*Id` fields are required or not references. */
const isOptionalReference = (path: string, key: string, field: z.ZodType) =>
  /Id$|^integration$/.test(key) && field.safeParse(undefined).success && !REQUIRED_REFERENCES.has(path) && !NOT_REFERENCES.has(path);

describe('none', () => {
  it('reads false, empty, null and 0 as "no reference"; a wrong id is still refused', () => {
    for (const value of [false, '', null, 0, '0']) expect(noneId().parse(value), JSON.stringify(value)).toBeNull();
    expect(noneId().parse(7)).toBe(7);
    expect(noneId().parse('7')).toBe(7);
    for (const value of [true, 'abc', -1, 1.5, {}, [5]]) expect(noneId().safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it('reads a required id from a number or a digit string only', () => {
    expect(id().parse(5)).toBe(5);
    expect(id().parse('5')).toBe(5);
    for (const value of [true, false, [5], {}, null, undefined, '', 0]) expect(id().safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it('reads false, empty and null as "not given" for an enum or a sub-object', () => {
    const language = noneAsAbsent(z.enum(['pt', 'en']).optional().default('pt'));
    for (const value of [false, '', null, undefined]) expect(language.parse(value), JSON.stringify(value)).toBe('pt');
    expect(language.parse('en')).toBe('en');
    expect(language.safeParse('xx').success).toBe(false);
    const body = z.object({ language: noneAsAbsent(z.enum(['pt', 'en']).optional()) });
    expect(body.parse({ language: null })).toEqual({});
    expect(body.parse({})).toEqual({});
  });

  it('is how every optional reference of every request body reads "none"', () => {
    const refusing: string[] = [];
    let checked = 0;
    for (const [name, schema] of SCHEMAS.filter(([name]) => name.endsWith('Body'))) {
      for (const [key, field] of Object.entries(objectShape(schema) ?? {})) {
        if (!isOptionalReference(`${name}.${key}`, key, field)) continue;
        checked++;
        for (const none of [false, '', null]) {
          const parsed = field.safeParse(none);
          if (!parsed.success || (parsed.data !== null && parsed.data !== undefined)) refusing.push(`${name}.${key} = ${JSON.stringify(none)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(refusing).toEqual([]);
  });
});

describe('tolerant reader', () => {
  it('strips the fields a body does not declare instead of refusing them (no strict objects, no passthrough)', () => {
    const strict: string[] = [];
    for (const [name, schema] of SCHEMAS) {
      walk(schema, name, (node, path) => {
        const def = defOf(node);
        if (def.type === 'object' && def.catchall !== undefined) strict.push(`${path} (${defOf(def.catchall).type})`);
      });
    }
    expect(strict).toEqual([]);
  });

  it('keeps only declared fields of an edit that sends the whole record', () => {
    const record = { id: 9, companyId: 2, name: 'Maria', email: 'maria@example.com', super: false, tokenVersion: 4, createdAt: '2026-01-01', queues: [], whatsapp: null };
    expect(shared.UserUpdateBody.parse(record)).toEqual({ name: 'Maria', email: 'maria@example.com', super: false });
  });
});
