import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prefetchSessionUser, sessionUserSettled } from './api/session';
import { STORAGE } from './api/storage-keys';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { initialLanguage, loadLanguage, setupI18n, writePreloadHint } from './i18n';

const root = document.getElementById('root');
// The first screen's chunks and the stored session's user download alongside the texts, not after them.
const firstScreen = preloadRoute(window.location.pathname, Boolean(localStorage.getItem(STORAGE.token)));
writePreloadHint();
prefetchSessionUser();
// The app's first frame waits for its texts (the user's language from the start), the first screen's
// chunks and the session's user: it is then the screen itself (the top bar with its greeting, the login
// card), not a spinner that React would keep for at least 300 ms before revealing what replaced it.
void Promise.all([loadLanguage(initialLanguage()), firstScreen, sessionUserSettled()]).then(() => {
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
