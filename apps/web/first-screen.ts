import path from 'node:path';
import type { FirstScreenFiles, FirstScreenPart, Language } from '@atende/shared';
import { build, type Plugin } from 'vite';

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
  /** The modules the chunk holds (a part's module may be one of several in a chunk of first-screen modules). */
  moduleIds: string[];
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

function builtChunks(bundle: Record<string, BuiltOutput>): { chunks: BuiltChunk[]; byFile: Map<string, BuiltChunk> } {
  const chunks = Object.values(bundle).filter((output): output is BuiltChunk => output.type === 'chunk');
  return { chunks, byFile: new Map(chunks.map((chunk) => [chunk.fileName, chunk])) };
}

/** A chunk's file and the files of every chunk it imports, directly or not. */
function withImports(chunk: BuiltChunk, byFile: Map<string, BuiltChunk>, into = new Set<string>([chunk.fileName])): Set<string> {
  for (const file of chunk.imports) {
    const imported = byFile.get(file);
    if (imported && !into.has(file)) {
      into.add(file);
      withImports(imported, byFile, into);
    }
  }
  return into;
}

export function listFirstScreenFiles(bundle: Record<string, BuiltOutput>, root: string): FirstScreenFiles {
  const { chunks, byFile } = builtChunks(bundle);
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('first-screen: the build has no entry chunk');
  const onEveryPage = withImports(entry, byFile);
  const filesOf = (module: string): string[] => {
    const id = path.resolve(root, module);
    const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`first-screen: ${module} is in no chunk (is it still loaded with import()?)`);
    return [...withImports(chunk, byFile)].filter((file) => !onEveryPage.has(file)).map((file) => `/${file}`);
  };
  const map = <K extends string>(modules: Record<K, string>) =>
    Object.fromEntries(Object.entries<string>(modules).map(([key, module]) => [key, filesOf(module)])) as Record<K, string[]>;
  return { parts: map(PART_MODULES), languages: map(LANGUAGE_MODULES) };
}

/** Set in the survey build that `firstScreenChunks` runs, so that build chunks the modules as Rolldown would by itself. */
const SURVEY = 'ATENDE_FIRST_SCREEN_SURVEY';
/** The public pages: a module the signed-in frame shares with one of them is not put in the frame's own chunk. */
const PUBLIC_PARTS: readonly FirstScreenPart[] = ['login', 'signup', 'passwordReset'];

/**
 * The chunk a module of a first screen goes in, from the first-screen parts and language catalogues
 * that need it (`needs`) and whether the entry loads it (`initial`); null leaves it to Rolldown.
 * A first screen loads few files, each holding only what it needs:
 * - `boot`: what the entry loads, merged into the entry (Rolldown would split it into a dozen chunks,
 *   by the lazy screens that share each piece), and what every language's catalogue needs;
 * - `texts-<languages>`: a language's catalogue (what only some share);
 * - `frame`: what only signed-in screens need (the frame and its pages); `public-shared` and
 *   `login-shared` what the frame shares with the sign-up pages or the login page;
 * - `login`: what the login page needs beyond those;
 * - `page-tickets`, `page-conversation`, `page-dashboard`: what the pages a first screen shows
 *   after its frame need beyond those, in the chunk of the first page of `PAGE_PARTS` that needs
 *   it, and `page-public-<page>` what they share with the sign-up pages.
 * Anything else is left to Rolldown. A chunk imports only chunks named before it in this list,
 * so no two chunks import each other (`chunkCycle` checks the build).
 */
export function firstScreenChunkName(needs: ReadonlySet<string>, initial: boolean): string | null {
  const languages = LANGUAGES_IN_ORDER.filter((language) => needs.has(language));
  // Every first screen loads one catalogue: what all three share is one file fewer in the entry.
  if (initial || languages.length === LANGUAGES_IN_ORDER.length) return 'boot';
  if (languages.length > 0) return `texts-${languages.join('-')}`;
  const publicParts = PUBLIC_PARTS.filter((part) => needs.has(part));
  if (needs.has('appLayout')) {
    if (publicParts.includes('login')) return 'login-shared';
    return publicParts.length > 0 ? 'public-shared' : 'frame';
  }
  if (publicParts.includes('login')) return 'login';
  const page = PAGE_PARTS.find((part) => needs.has(part));
  if (!page) return null;
  // What a sign-up page shares with a page: a chunk of its own, or that page would load the page's whole chunk.
  return publicParts.length > 0 ? `page-public-${page}` : `page-${page}`;
}
/**
 * The signed-in pages a first screen shows after its frame (packages/shared `pageParts`), each
 * module in the chunk of the first that needs it: the conversation always comes with the tickets
 * page, and the dashboard loads the few tickets modules it shares rather than a chunk for each set.
 */
const PAGE_PARTS: readonly FirstScreenPart[] = ['tickets', 'conversation', 'dashboard'];
const LANGUAGES_IN_ORDER = Object.keys(LANGUAGE_MODULES) as Language[];

/** For each module of a first screen, the parts and catalogues whose chunks (with their imports) hold it, and the entry's modules. */
export function surveyFirstScreens(bundle: Record<string, BuiltOutput>, root: string): { needs: Map<string, Set<string>>; initial: Set<string> } {
  const { chunks, byFile } = builtChunks(bundle);
  const files = listFirstScreenFiles(bundle, root);
  const entry = chunks.find((chunk) => chunk.isEntry);
  const initial = new Set<string>();
  const needs = new Map<string, Set<string>>();
  const modulesOf = (file: string) => byFile.get(file)?.moduleIds ?? [];
  if (entry) for (const file of withImports(entry, byFile)) for (const id of modulesOf(file)) initial.add(id);
  for (const [part, partFiles] of [...Object.entries(files.parts), ...Object.entries(files.languages)]) {
    for (const file of partFiles) {
      // first-screen.json's paths: the file name after a slash.
      for (const id of modulesOf(file.slice(1))) {
        if (initial.has(id)) continue;
        const set = needs.get(id) ?? new Set<string>();
        set.add(part);
        needs.set(id, set);
      }
    }
  }
  return { needs, initial };
}

/** A cycle of static imports between chunks (as file names), or null. */
export function chunkCycle(bundle: Record<string, BuiltOutput>): string[] | null {
  const { chunks, byFile } = builtChunks(bundle);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const imported of byFile.get(file)?.imports ?? []) {
      const cycle = visit(imported);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const chunk of chunks) {
    const cycle = visit(chunk.fileName);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * Chunks the first screens' modules by `firstScreenChunkName`. Rolldown by itself makes a chunk of
 * each set of lazy screens that share modules: the signed-in frame came in 34 files and the entry
 * in 15, and on a slow phone each file costs main-thread time to request and compile (the issue's
 * Lighthouse figures, bench/README.md). Which modules a screen needs, after tree-shaking, is what
 * Rolldown's own chunking knows: the plugin first runs a survey build (not written) and reads it
 * from its chunks, then groups the modules of the real build by it.
 */
export function firstScreenChunks(): Plugin {
  return {
    name: 'atende:first-screen-chunks',
    apply: 'build',
    async config(config, env) {
      if (process.env[SURVEY]) return;
      const root = path.resolve(config.root ?? process.cwd());
      process.env[SURVEY] = '1';
      let survey: Awaited<ReturnType<typeof build>>;
      try {
        survey = await build({ root, mode: env.mode, logLevel: 'silent', build: { write: false, emptyOutDir: false } });
      } finally {
        delete process.env[SURVEY];
      }
      const output = (Array.isArray(survey) ? survey[0] : survey) as { output?: BuiltOutput[] } | undefined;
      if (!output?.output) throw new Error('first-screen: the survey build gave no output');
      const { needs, initial } = surveyFirstScreens(Object.fromEntries(output.output.map((item, n) => [`${n}`, item])), root);
      const name = (id: string) => firstScreenChunkName(needs.get(id) ?? new Set(), initial.has(id));
      return {
        build: {
          rolldownOptions: {
            output: {
              // Each module in its group only: a group that took its modules' imports along would pull shared code into one screen's chunk.
              codeSplitting: { groups: [{ name, debugName: 'first-screen', includeDependenciesRecursively: false }] },
            },
          },
        },
      };
    },
    generateBundle(_options, bundle) {
      // The survey build's chunks are Rolldown's own: only the real build's groups are checked.
      if (process.env[SURVEY]) return;
      const cycle = chunkCycle(bundle as unknown as Record<string, BuiltOutput>);
      if (cycle) this.error(`first-screen: chunks import each other: ${cycle.join(' -> ')}`);
    },
  };
}
