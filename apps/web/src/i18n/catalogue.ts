/** The same keys as `T`, every leaf a string: what each other language must provide. */
export type Catalogue<T> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> };

/**
 * A feature's own texts in the three languages, kept next to its screens so
 * features do not all edit one file. `i18n/pt.ts` (and en, es) mount each one
 * under the feature's namespace.
 */
export function featureTexts<T extends object>(texts: { pt: T; en: Catalogue<T>; es: Catalogue<T> }) {
  return texts;
}
