import { LANGUAGES, type Language } from './constants.js';

/**
 * The pieces of the web app a first screen needs beyond its entry: each is one lazily loaded
 * module of `apps/web` (its page, the signed-in frame, the open conversation). The web starts
 * loading them at boot (`preloadRoute`); the server names their files in the page it sends
 * (`<link rel="modulepreload">`, from the build's `first-screen.json`), so a browser asks for them
 * with the entry instead of after it has run.
 */
export const FIRST_SCREEN_PARTS = ['login', 'signup', 'passwordReset', 'appLayout', 'dashboard', 'tickets', 'conversation'] as const;
export type FirstScreenPart = (typeof FIRST_SCREEN_PARTS)[number];

const PUBLIC_PAGES: Record<string, FirstScreenPart> = { '/login': 'login', '/signup': 'signup', '/forgetpsw': 'passwordReset' };

/**
 * What the first frame of `pathname` needs, for a browser with (`signedIn`) or without a stored
 * session: the public page, or the signed-in frame (top bar, menu). A signed-in page's own parts
 * come after that frame has painted (`pageParts`): on a slow phone the frame and its greeting show
 * first, instead of waiting for a page whose chunks share the connection with it.
 */
export function firstScreenParts(pathname: string, signedIn: boolean): FirstScreenPart[] {
  const publicPage = PUBLIC_PAGES[pathname];
  // A stored session on a public page goes on to the app: nothing worth guessing.
  if (publicPage) return signedIn ? [] : [publicPage];
  if (!signedIn) return ['login'];
  return ['appLayout'];
}

/** The parts of a signed-in first screen loaded once its frame has painted (the web's `AfterFrame`). */
export function pageParts(pathname: string): FirstScreenPart[] {
  if (pathname === '/') return ['dashboard'];
  if (pathname === '/tickets') return ['tickets'];
  if (pathname.startsWith('/tickets/')) return ['tickets', 'conversation'];
  return [];
}

/** The build's `first-screen.json`: the files of each part and language catalogue beyond what index.html names. */
export interface FirstScreenFiles {
  parts: Record<FirstScreenPart, string[]>;
  languages: Record<Language, string[]>;
}

/**
 * A cookie the web app keeps in step with its stored session and language (both live in
 * localStorage, which the server cannot read), so the page the server sends can name the right
 * files. Only a hint: a wrong or missing one costs a download, never access.
 */
export const PRELOAD_HINT_COOKIE = 'atende_preload';

export function preloadHint(language: Language, signedIn: boolean): string {
  return signedIn ? `${language}.session` : language;
}

export function readPreloadHint(value: string | undefined): { language: Language | null; signedIn: boolean } {
  const [language, session] = (value ?? '').split('.');
  return { language: LANGUAGES.find((l) => l === language) ?? null, signedIn: session === 'session' };
}
