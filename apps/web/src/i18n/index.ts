import { LANGUAGES, type Language } from '@atende/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE } from '../api/storage-keys';
import { en } from './en';
import { es } from './es';
import { pt } from './pt';

export const resources = { pt: { translation: pt }, en: { translation: en }, es: { translation: es } } as const;

function supported(value: string | null | undefined): Language | null {
  const code = value?.slice(0, 2).toLowerCase();
  return LANGUAGES.find((l) => l === code) ?? null;
}

/** Stored choice, else the browser's language when it is pt, en or es, else English (DECISIONS.md §1). */
export function initialLanguage(): Language {
  return supported(localStorage.getItem(STORAGE.language)) ?? supported(navigator.language) ?? 'en';
}

export function setupI18n() {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
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
  document.documentElement.lang = language;
  void i18next.changeLanguage(language);
}

/** DD/MM/yyyy (spec part 1 §1). */
export function formatDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

export function formatDateTime(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
