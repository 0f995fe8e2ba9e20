import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prefetchSessionUser, sessionUserSettled } from './api/session';
import { STORAGE } from './api/storage-keys';
import { App } from './app/app';
import { isChunkLoadError } from './app/error-boundary';
import { preloadRoute } from './app/routes';
import { settledWithin } from './app/settled-within';
import { prepareTheme } from './app/theme';
import { initialLanguage, loadLanguage, setupI18n, writePreloadHint } from './i18n';

const root = document.getElementById('root');

/**
 * An error a boundary (app/error-boundary.tsx) turned into a message: a page's code that did not
 * download is the network or a deploy, told to the user and logged as a warning; anything else
 * is a bug, logged as an error with where it happened.
 */
function logCaughtError(error: unknown, info: { componentStack?: string }): void {
  if (isChunkLoadError(error)) console.warn('A page could not be loaded:', error instanceof Error ? error.message : error);
  else console.error(error, info.componentStack);
}

const FIRST_FRAME_WAIT_MS = 3000;
// The first screen's chunks and the stored session's user download alongside the texts, not after them.
const firstScreen = preloadRoute(window.location.pathname, Boolean(localStorage.getItem(STORAGE.token)));
writePreloadHint();
prefetchSessionUser();
// The theme is made in a task of its own while the texts and chunks download, not inside the first render.
setTimeout(prepareTheme, 0);
// The app's first frame waits for its texts (the user's language from the start), the first screen's
// chunks and the session's user: it is then the screen itself (the top bar with its greeting, the login
// card), not a spinner that React would keep for at least 300 ms before revealing what replaced it.
// A network that takes longer than FIRST_FRAME_WAIT_MS for the chunks or the user gets the loading
// screen meanwhile rather than a blank page.
void Promise.all([loadLanguage(initialLanguage()), settledWithin(Promise.all([firstScreen, sessionUserSettled()]), FIRST_FRAME_WAIT_MS)]).then(() => {
  setupI18n();
  if (root) {
    // A transition: React renders the first screen in slices, yielding to the browser between them,
    // instead of one long task that holds the main thread (slow phones).
    startTransition(() => {
      createRoot(root, { onCaughtError: logCaughtError }).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  }
});
