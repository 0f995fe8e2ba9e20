import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { keepLanguage } from './i18n-split';

const features = path.join(import.meta.dirname, 'src/features');

/** Evaluates a reduced feature file (its one import is `featureTexts`, the identity). */
function evaluate(source: string): Record<string, Record<string, unknown>> {
  const js = ts.transpileModule(source.replace(/^import .*$/m, 'const featureTexts = (texts) => texts;'), { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const exports: Record<string, Record<string, unknown>> = {};
  new Function('exports', js)(exports);
  return exports;
}

describe('i18nSplit', () => {
  const source = `import { featureTexts } from '../../i18n/catalogue';

/** Two sets in one file. */
export const aTexts = featureTexts({
  pt: { title: 'Título', nested: { x: 'a, b' } },
  en: { title: 'Title', nested: { x: 'a, b' } },
  es: { title: 'Título', nested: { x: 'a, b' } }
});
export const bTexts = featureTexts({ es: { b: 'B es' }, pt: { b: 'B pt' }, en: { b: 'B en' }, });
`;

  it('keeps only the asked language of every featureTexts call', () => {
    for (const language of ['pt', 'en', 'es'] as const) {
      const texts = evaluate(keepLanguage(source, 'a.i18n.ts', language));
      expect(Object.keys(texts.aTexts ?? {})).toEqual([language]);
      expect(Object.keys(texts.bTexts ?? {})).toEqual([language]);
      expect(texts.bTexts?.[language]).toEqual({ b: `B ${language}` });
    }
  });

  it('refuses a file it cannot reduce, rather than shipping all three languages', () => {
    expect(() => keepLanguage(`export const x = { pt: {}, en: {} };`, 'x.i18n.ts', 'en')).toThrow(/no featureTexts/);
    expect(() => keepLanguage(`export const x = featureTexts({ pt: {}, en: {} });`, 'x.i18n.ts', 'en')).toThrow(/exactly pt, en and es/);
  });

  it('reduces every feature file of the app to the same texts, in each language', () => {
    const files = readdirSync(features, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.i18n.ts'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const source = readFileSync(path.join(features, file), 'utf8');
      const whole = evaluate(source);
      for (const language of ['pt', 'en', 'es'] as const) {
        const reduced = evaluate(keepLanguage(source, file, language));
        for (const [name, texts] of Object.entries(whole)) expect(reduced[name], `${file} ${name}`).toEqual({ [language]: texts[language] });
      }
    }
  });
});
