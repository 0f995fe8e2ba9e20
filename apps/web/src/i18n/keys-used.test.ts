import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { es } from './es';
import { pt } from './pt';

const SRC = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function lookup(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), catalogue);
}

/** Literal keys passed to t('...') / i18next.t('...') / <Trans i18nKey="...">. */
function keysUsed(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\bt\(\s*['"]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"]/g)) found.add(match[1] ?? '');
  for (const match of text.matchAll(/i18nKey=["']([A-Za-z][\w-]*(?:\.[\w-]+)+)["']/g)) found.add(match[1] ?? '');
  return [...found].filter(Boolean);
}

describe('every translation key the code uses', () => {
  it('exists in pt, en and es (a missing key is a failure, not a silent fallback)', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(SRC)) {
      for (const key of keysUsed(readFileSync(file, 'utf8'))) {
        checked += 1;
        for (const [lang, catalogue] of Object.entries({ pt, en, es })) {
          // i18next plural forms: key_one / key_other satisfy key.
          const value = lookup(catalogue, key) ?? lookup(catalogue, `${key}_other`);
          if (typeof value !== 'string') missing.push(`${lang}: ${key} (${path.relative(SRC, file)})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
