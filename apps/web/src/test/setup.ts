import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { registerCatalogue } from '../i18n';
import { en } from '../i18n/en';
import { es } from '../i18n/es';
import { pt } from '../i18n/pt';

// The app loads catalogues on demand; tests have all three from the start.
registerCatalogue('pt', pt);
registerCatalogue('en', en);
registerCatalogue('es', es);

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});
