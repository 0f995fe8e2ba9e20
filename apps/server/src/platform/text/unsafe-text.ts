/**
 * Text PostgreSQL cannot store or that is not text at all: NUL (U+0000, refused in
 * `text` and `jsonb`) and UTF-16 surrogates without their pair (no Unicode
 * character; drivers turn them into U+FFFD or fail). API input carrying them is
 * refused (400, the field named); a provider's message has them removed, so the
 * customer's message is stored rather than lost (ARCHITECTURE §3.15).
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/** Deeper than any body a client of ours sends; past it a body is refused rather than walked. */
export const MAX_INPUT_DEPTH = 32;

function hasUnsafeText(text: string): boolean {
  return UNSAFE.test(text);
}

export function stripUnsafeText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, '') : text;
}

export type InputProblem = { path: (string | number)[]; kind: 'unsafeText' | 'tooDeep' };

/**
 * The first string (value or object key) of a parsed input that carries unsafe
 * text, or the first place nested deeper than `MAX_INPUT_DEPTH`; null when clean.
 * Iterative, so a hostile nesting cannot exhaust the stack.
 */
export function findInputProblem(input: unknown): InputProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (hasUnsafeText(value)) return { path, kind: 'unsafeText' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, kind: 'tooDeep' };
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [key] of entries) {
      if (hasUnsafeText(key)) return { path: [...path, key], kind: 'unsafeText' };
    }
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/**
 * A provider's payload with unsafe text removed from every string and key (a
 * copy); what lies deeper than `MAX_INPUT_DEPTH` is dropped, since no provider
 * nests that deep and a job's JSON must stay storable.
 */
export function stripUnsafeDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return stripUnsafeText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_INPUT_DEPTH) return null as T;
  if (Array.isArray(value)) return value.map((item: unknown) => stripUnsafeDeep(item, depth + 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) copy[stripUnsafeText(key)] = stripUnsafeDeep(child, depth + 1);
  return copy as T;
}
