import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkCycle, firstScreenChunkName, LANGUAGE_MODULES, listFirstScreenFiles, PART_MODULES, surveyFirstScreens } from './first-screen';

const root = '/app/web';
const chunk = (fileName: string, imports: string[], module: string | null = null, isEntry = false) => ({
  type: 'chunk' as const,
  fileName,
  imports,
  isEntry,
  facadeModuleId: module && path.resolve(root, module),
  moduleIds: [module ? path.resolve(root, module) : `/app/web/node_modules/${path.basename(fileName, '.js')}.js`],
});

/** A build in which every first-screen module is a chunk; the login page shares one chunk with the entry. */
function bundle(without?: string) {
  const modules: Record<string, string> = { ...PART_MODULES, ...LANGUAGE_MODULES };
  const outputs = [
    chunk('assets/index.js', ['assets/react.js'], 'src/main.tsx', true),
    chunk('assets/react.js', []),
    chunk('assets/Button.js', ['assets/react.js', 'assets/ripple.js']),
    chunk('assets/ripple.js', ['assets/react.js']),
    chunk('assets/catalogue.js', []),
    { type: 'asset' as const },
    ...Object.entries(modules)
      .filter(([key]) => key !== without)
      .map(([key, module]) => chunk(`assets/${key}.js`, key === 'login' ? ['assets/Button.js', 'assets/react.js'] : ['assets/catalogue.js'], module)),
  ];
  return Object.fromEntries(outputs.map((output, n) => [`${n}`, output]));
}

describe('first-screen.json', () => {
  it("lists each part's chunk and what it imports, less what the entry already loads", () => {
    const files = listFirstScreenFiles(bundle(), root);
    expect(files.parts.login).toEqual(['/assets/login.js', '/assets/Button.js', '/assets/ripple.js']);
    expect(files.parts.tickets).toEqual(['/assets/tickets.js', '/assets/catalogue.js']);
    expect(files.languages.es).toEqual(['/assets/es.js', '/assets/catalogue.js']);
  });

  it('finds a part inside a chunk that holds other modules too', () => {
    const outputs = bundle('login');
    outputs.shared = { ...chunk('assets/login-shared.js', ['assets/react.js']), moduleIds: [path.resolve(root, PART_MODULES.login), '/app/web/node_modules/Button.js'] };
    expect(listFirstScreenFiles(outputs, root).parts.login).toEqual(['/assets/login-shared.js']);
  });

  it('fails the build when a part is in no chunk', () => {
    expect(() => listFirstScreenFiles(bundle('conversation'), root)).toThrow(/conversation\.tsx is in no chunk/);
  });
});

describe('first-screen chunks', () => {
  it('learns from a build which parts need each module, and which modules the entry loads', () => {
    const { needs, initial } = surveyFirstScreens(bundle(), root);
    expect([...initial].sort()).toEqual(['/app/web/node_modules/react.js', path.resolve(root, 'src/main.tsx')]);
    expect([...(needs.get('/app/web/node_modules/Button.js') ?? [])]).toEqual(['login']);
    expect([...(needs.get('/app/web/node_modules/catalogue.js') ?? [])].sort()).toEqual(
      ['appLayout', 'conversation', 'dashboard', 'en', 'es', 'passwordReset', 'pt', 'signup', 'tickets'].sort(),
    );
    expect(needs.has('/app/web/node_modules/react.js')).toBe(false);
  });

  it('puts what the frame alone needs in one chunk, what it shares with public pages beside it, and each page after it in one', () => {
    const name = (...parts: string[]) => firstScreenChunkName(new Set(parts), false);
    expect(firstScreenChunkName(new Set(['appLayout']), true)).toBe('boot');
    expect(name('appLayout', 'tickets', 'dashboard')).toBe('frame');
    expect(name('appLayout', 'login', 'signup')).toBe('login-shared');
    expect(name('appLayout', 'signup')).toBe('public-shared');
    expect(name('login', 'tickets')).toBe('login');
    expect(name('en', 'es', 'pt')).toBe('boot');
    expect(name('en', 'es')).toBe('texts-en-es');
    expect(name('en')).toBe('texts-en');
    // The pages after the frame: each module with the first page of PAGE_PARTS that needs it.
    expect(name('tickets')).toBe('page-tickets');
    expect(name('conversation', 'tickets', 'dashboard')).toBe('page-tickets');
    expect(name('dashboard', 'conversation')).toBe('page-conversation');
    expect(name('dashboard')).toBe('page-dashboard');
    expect(name('tickets', 'conversation', 'signup')).toBe('page-public-tickets');
    expect(name('conversation', 'passwordReset')).toBe('page-public-conversation');
    expect(name()).toBeNull();
  });

  it('finds chunks that import each other', () => {
    const outputs = { a: chunk('a.js', ['b.js']), b: chunk('b.js', ['c.js']), c: chunk('c.js', ['a.js']), d: chunk('d.js', ['a.js']) };
    expect(chunkCycle(outputs)).toEqual(['a.js', 'b.js', 'c.js', 'a.js']);
    expect(chunkCycle(bundle())).toBeNull();
  });
});
