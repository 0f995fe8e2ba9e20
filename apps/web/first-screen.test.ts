import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_MODULES, listFirstScreenFiles, PART_MODULES } from './first-screen';

const root = '/app/web';
const chunk = (fileName: string, imports: string[], module: string | null = null, isEntry = false) => ({
  type: 'chunk' as const,
  fileName,
  imports,
  isEntry,
  facadeModuleId: module && path.resolve(root, module),
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

  it('fails the build when a part is no longer a chunk of its own', () => {
    expect(() => listFirstScreenFiles(bundle('conversation'), root)).toThrow(/conversation\.tsx is not a chunk of its own/);
  });
});
