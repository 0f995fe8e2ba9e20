import { LANGUAGES, PRELOAD_HINT_COOKIE, preloadHint, type Language } from '@atende/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE } from '../api/storage-keys';
import type { Messages } from './pt';

/**
 * The catalogues load on demand (each language is a separate chunk, the feature
 * texts split by language at build, see `i18n-split.ts`), so the first visit's
 * JavaScript carries none: the language in use is loaded before the first render,
 * another one when the user picks it.
 */
const loaders: Record<Language, () => Promise<Messages>> = {
  pt: () => import('./pt').then((m) => m.pt),
  en: () => import('./en').then((m) => m.en),
  es: () => import('./es').then((m) => m.es),
};
const loaded = new Map<Language, Messages>();

/** Makes a catalogue available (tests register all three up front). */
export function registerCatalogue(language: Language, catalogue: Messages): void {
  loaded.set(language, catalogue);
  if (i18next.isInitialized) i18next.addResourceBundle(language, 'translation', catalogue, true, true);
}

/**
 * Loads `language`'s catalogue, if not loaded yet. Only that one: each catalogue has
 * every key of the Portuguese one (the `Catalogue` type), so the Portuguese fallback
 * never shows and a visitor reading English downloads no Portuguese.
 */
export async function loadLanguage(language: Language): Promise<void> {
  if (!loaded.has(language)) registerCatalogue(language, await loaders[language]());
}

/** pt, en or es as a `Language` (from `pt-BR`, `EN`, ...), else null. */
export function supportedLanguage(value: string | null | undefined): Language | null {
  const code = value?.slice(0, 2).toLowerCase();
  return LANGUAGES.find((l) => l === code) ?? null;
}

/** Stored choice, else the browser's language when it is pt, en or es, else Portuguese (DECISIONS.md §1). */
export function initialLanguage(): Language {
  return supportedLanguage(localStorage.getItem(STORAGE.language)) ?? supportedLanguage(navigator.language) ?? 'pt';
}

/**
 * Tells the server, in a cookie, the language and whether a session is stored (both in
 * localStorage): the page it sends then names the files this browser's first screen needs
 * (`firstScreenParts` in packages/shared). Written at boot and when either changes.
 */
export function writePreloadHint(): void {
  const hint = preloadHint(initialLanguage(), Boolean(localStorage.getItem(STORAGE.token)));
  document.cookie = `${PRELOAD_HINT_COOKIE}=${hint}; path=/; max-age=31536000; samesite=lax`;
}

export function setupI18n() {
  if (!i18next.isInitialized) {
    // Screen readers and the browser's spelling and hyphenation read the page in its language.
    document.documentElement.lang = initialLanguage();
    void i18next.use(initReactI18next).init({
      resources: Object.fromEntries([...loaded].map(([language, catalogue]) => [language, { translation: catalogue }])),
      lng: initialLanguage(),
      // A missing translation shows Portuguese (DECISIONS.md §1).
      fallbackLng: 'pt',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  return i18next;
}

export function changeLanguage(language: Language): void {
  localStorage.setItem(STORAGE.language, language);
  writePreloadHint();
  document.documentElement.lang = language;
  void loadLanguage(language).then(() => i18next.changeLanguage(language));
}

export { formatDate, formatDateTime } from './dates';

/** Made at first use: a browser's first `Intl` formatter loads its locale data (tens of milliseconds on a phone). */
let reais: Intl.NumberFormat | undefined;

/** Amounts are Brazilian reais in every language (spec part 2 §9): R$ 1.234,56. */
export function formatReais(value: number | string): string {
  const amount = typeof value === 'string' ? Number(value) : value;
  reais ??= new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
  return Number.isFinite(amount) ? reais.format(amount) : String(value);
}
