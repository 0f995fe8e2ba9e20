import path from 'node:path';
import type { FirstScreenFiles, FirstScreenPart, Language } from '@atende/shared';
import type { Plugin } from 'vite';

/** The module each first-screen part loads (`src/app/routes.tsx`'s loaders); the build fails if one is not a chunk of its own. */
export const PART_MODULES: Record<FirstScreenPart, string> = {
  login: 'src/features/login/login-page.tsx',
  signup: 'src/features/signup/signup-page.tsx',
  passwordReset: 'src/features/password-reset/password-reset-page.tsx',
  appLayout: 'src/app/layout/app-layout.tsx',
  dashboard: 'src/features/dashboard/dashboard-page.tsx',
  tickets: 'src/features/tickets/tickets-page.tsx',
  conversation: 'src/features/conversation/conversation.tsx',
};
/** What this plugin reads of the build's output (Rolldown's OutputChunk and OutputAsset). */
interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  imports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
}
type BuiltOutput = BuiltChunk | { type: 'asset' };

export const LANGUAGE_MODULES: Record<Language, string> = { pt: 'src/i18n/pt.ts', en: 'src/i18n/en.ts', es: 'src/i18n/es.ts' };

/**
 * Writes `first-screen.json`: for each first-screen part (packages/shared `firstScreenParts`) and
 * each language catalogue, its chunk and the chunks it imports, less those the entry imports
 * (index.html preloads them). The server puts them in the page it sends as modulepreload links,
 * so they download beside the entry rather than after it has run (`platform/http/web-app.ts`).
 */
export function firstScreenFiles(): Plugin {
  let root = '';
  return {
    name: 'atende:first-screen',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const files = listFirstScreenFiles(bundle, root);
      this.emitFile({ type: 'asset', fileName: 'first-screen.json', source: JSON.stringify(files) });
    },
  };
}

export function listFirstScreenFiles(bundle: Record<string, BuiltOutput>, root: string): FirstScreenFiles {
  const chunks = Object.values(bundle).filter((output): output is BuiltChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withImports = (chunk: BuiltChunk, into = new Set<string>([chunk.fileName])): Set<string> => {
    for (const file of chunk.imports) {
      const imported = byFile.get(file);
      if (imported && !into.has(file)) {
        into.add(file);
        withImports(imported, into);
      }
    }
    return into;
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('first-screen: the build has no entry chunk');
  const onEveryPage = withImports(entry);
  const filesOf = (module: string): string[] => {
    const id = path.resolve(root, module);
    const chunk = chunks.find((c) => c.facadeModuleId === id);
    if (!chunk) throw new Error(`first-screen: ${module} is not a chunk of its own (is it still loaded with import()?)`);
    return [...withImports(chunk)].filter((file) => !onEveryPage.has(file)).map((file) => `/${file}`);
  };
  const map = <K extends string>(modules: Record<K, string>) =>
    Object.fromEntries(Object.entries<string>(modules).map(([key, module]) => [key, filesOf(module)])) as Record<K, string[]>;
  return { parts: map(PART_MODULES), languages: map(LANGUAGE_MODULES) };
}
