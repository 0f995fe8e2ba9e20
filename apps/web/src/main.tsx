import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prefetchSessionUser } from './api/session';
import { STORAGE } from './api/storage-keys';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { initialLanguage, loadLanguage, setupI18n, writePreloadHint } from './i18n';

const root = document.getElementById('root');
// The first screen's chunks and the stored session's user download alongside the texts, not after them.
preloadRoute(window.location.pathname, Boolean(localStorage.getItem(STORAGE.token)));
writePreloadHint();
prefetchSessionUser();
// The texts first: the app renders in the user's language from its first frame.
void loadLanguage(initialLanguage()).then(() => {
  setupI18n();
  if (root) {
    // A transition: React renders the first screen in slices, yielding to the browser between them,
    // instead of one long task that holds the main thread (slow phones).
    startTransition(() => {
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  }
});
