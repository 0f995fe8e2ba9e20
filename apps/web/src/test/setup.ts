import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { afterAll, afterEach, vi } from 'vitest';
import { loadToastStack } from '../components/toast';
import { initialLanguage, registerCatalogue } from '../i18n';
import { setDisplayTimeZone } from '../i18n/dates';
import { en } from '../i18n/en';
import { es } from '../i18n/es';
import { pt } from '../i18n/pt';

// The app loads catalogues on demand; tests have all three from the start.
registerCatalogue('pt', pt);
registerCatalogue('en', en);
registerCatalogue('es', es);
// The app loads the toasts' look when idle; tests have it from the start (a toast shows at once).
await loadToastStack();

// findBy and waitFor give the page 5 s, not 1 s, for a busy machine (CI runs other
// suites beside); a wait that passes returns as soon as its condition holds.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

// The files share one process and one document (the web project runs them without isolation,
// apps/web/vite.config.ts): what a page sets for the whole app goes back to how a fresh page starts.
afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  setDisplayTimeZone(null);
  document.title = '';
  if (i18next.isInitialized) {
    document.documentElement.lang = initialLanguage();
    await i18next.changeLanguage(initialLanguage());
  }
});
