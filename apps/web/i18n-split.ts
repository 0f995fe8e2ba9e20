import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';

const LANGUAGES = ['pt', 'en', 'es'] as const;
type Language = (typeof LANGUAGES)[number];
const CATALOGUE = /[\\/]src[\\/]i18n[\\/](pt|en|es)\.ts$/;
const FEATURE_TEXTS = /\.i18n\.ts$/;
const QUERY = '?lang=';

/**
 * Each feature keeps its texts in the three languages in one `*.i18n.ts` file
 * (`featureTexts({ pt, en, es })`, see `src/i18n/catalogue.ts`). In the build, the
 * catalogue of a language (`src/i18n/en.ts`) imports each feature file as
 * `x.i18n.ts?lang=en`, a copy holding only that language's texts: a visitor downloads
 * the language they read, not all three. The sources and the tests see the whole files.
 */
export function i18nSplit(): Plugin {
  return {
    name: 'atende:i18n-split',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const language = importer?.match(CATALOGUE)?.[1] as Language | undefined;
      if (!language || !source.endsWith('.i18n')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && FEATURE_TEXTS.test(resolved.id) ? `${resolved.id}${QUERY}${language}` : null;
    },
    load(id) {
      const at = id.indexOf(QUERY);
      if (at < 0) return null;
      const file = id.slice(0, at);
      const language = id.slice(at + QUERY.length) as Language;
      if (!LANGUAGES.includes(language)) throw new Error(`${id}: unknown language`);
      this.addWatchFile(file);
      return keepLanguage(ts.sys.readFile(file) ?? '', file, language);
    },
  };
}

/** The file's source with every `featureTexts({ pt, en, es })` reduced to `featureTexts({ <language> })`. */
export function keepLanguage(source: string, file: string, language: Language): string {
  const sourceFile = ts.createSourceFile(path.basename(file), source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts: { start: number; end: number }[] = [];
  let calls = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'featureTexts') {
      const [texts] = node.arguments;
      if (!texts || !ts.isObjectLiteralExpression(texts)) throw new Error(`${file}: featureTexts takes an object literal`);
      calls++;
      const others = texts.properties.filter((property) => property.name && ts.isIdentifier(property.name) && property.name.text !== language);
      if (others.length !== LANGUAGES.length - 1) throw new Error(`${file}: featureTexts needs exactly pt, en and es`);
      // Each other language with the comma after it (a trailing one is fine in an object literal).
      for (const property of others) {
        const next = source.indexOf(',', property.end);
        const comma = next >= 0 && source.slice(property.end, next).trim() === '' ? next + 1 : property.end;
        cuts.push({ start: property.getFullStart(), end: comma });
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  if (calls === 0) throw new Error(`${file}: no featureTexts(...) call`);
  let out = source;
  for (const cut of cuts.sort((a, b) => b.start - a.start)) out = out.slice(0, cut.start) + out.slice(cut.end);
  return out;
}
