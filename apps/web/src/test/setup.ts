import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { registerCatalogue } from '../i18n';
import { en } from '../i18n/en';
import { es } from '../i18n/es';
import { pt } from '../i18n/pt';

// The app loads catalogues on demand; tests have all three from the start.
registerCatalogue('pt', pt);
registerCatalogue('en', en);
registerCatalogue('es', es);

// findBy and waitFor give the page 5 s, not 1 s, for a busy machine (CI runs other
// suites beside); a wait that passes returns as soon as its condition holds.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});
