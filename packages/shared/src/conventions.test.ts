import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flag, queryFlag } from './conventions.js';
import * as shared from './index.js';

/** Every zod schema packages/shared exports: the request schemas of the server and the web forms. */
const SCHEMAS = (Object.entries(shared) as [string, unknown][]).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);

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
